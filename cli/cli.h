/* SPDX-License-Identifier: MIT */
#ifndef HG_CLI_H
#define HG_CLI_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Exit statuses every subcommand shares, so scripts can rely on them.
 * `run` passes the program's own status through instead (see hipgrain-run(1)).
 */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,  /* input unreadable, I/O error */
	CLI_EXIT_FINDINGS = 2, /* --fail-on threshold reached */
	CLI_EXIT_UNJUDGED = 3, /* --fail-on: nothing reached it, but a verdict
				* was withheld for want of events */
	CLI_EXIT_USAGE = 64,   /* bad command line (sysexits EX_USAGE) */
};

/* The exit statuses as every --help of report and scan prints them. */
#define CLI_EXIT_TEXT                                                          \
	"Exit status: 0 done (no finding reached --fail-on), 1 an input or\n"  \
	"the output could not be read or written, 2 a finding reached\n"       \
	"--fail-on, 3 (report) none did but a verdict was withheld for\n"      \
	"want of events (a cut trace, lost events, a killed process),\n"      \
	"64 bad usage.\n"

struct option;

/* "hipgrain CMD: --opt: unknown option" (or needs an argument) and a
 * pointer to --help; getopt's own words are silenced with a ':' optstring.
 * Return CLI_EXIT_USAGE. */
int cli_bad_option(const char *cmd, char **argv, int c);
int cli_bad_value(const char *cmd, const struct option *opts, int c,
		  const char *arg);
/* "hipgrain CMD: no WHAT given: HINT". */
int cli_missing(const char *cmd, const char *what, const char *hint);
/* "hipgrain CMD: WHY" for options that do not go together. */
int cli_conflict(const char *cmd, const char *why);

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* -o FILE, written under a temporary name and renamed when complete. */
struct cli_out {
	FILE *f;
	const char *path, *cmd;
	char *tmp;
	bool direct; /* path is not a regular file: written in place */
};

/* stdout when path is NULL; NULL (after a message) when FILE cannot be
 * written. */
FILE *cli_out_open(struct cli_out *o, const char *cmd, const char *path);
/* Keeps the file (renames it into place) or drops it; -1 on a write error. */
int cli_out_close(struct cli_out *o, bool keep);

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_dump(int argc, char **argv);

#endif
