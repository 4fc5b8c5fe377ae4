/* SPDX-License-Identifier: MIT */
#ifndef HG_CLI_H
#define HG_CLI_H

/*
 * Exit statuses every subcommand shares, so scripts can rely on them.
 * `run` passes the program's own status through instead (see hipgrain-run(1)).
 */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,  /* input unreadable, I/O error */
	CLI_EXIT_FINDINGS = 2, /* --fail-on threshold reached */
	CLI_EXIT_USAGE = 64,   /* bad command line (sysexits EX_USAGE) */
};

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scan(int argc, char **argv);

#endif
