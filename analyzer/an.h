/* SPDX-License-Identifier: MIT */
/* The analyzer: hipgrain traces in, a report of hazards out. */
#ifndef AN_H
#define AN_H

#include <stdbool.h>
#include <stdio.h>

enum an_sev {
	AN_SEV_NONE = 0,
	AN_SEV_NOTE = 1,
	AN_SEV_WARNING = 2,
	AN_SEV_ERROR = 3,
};

/*
 * The report's formats, each once: its enumerator, its name on the command
 * line and the function that writes it (an_output.h).  A new format is a
 * row here and a file of its own.
 */
#define AN_FORMAT_LIST(X)                                                      \
	X(TEXT, "text", an_write_text_all) /* an_text.c, + the inventory */   \
	X(JSON, "json", an_write_json)                                         \
	X(HTML, "html", an_write_html) /* one self-contained page */           \
	X(PERFETTO, "perfetto", an_write_perfetto) /* Chrome trace events */   \
	X(SARIF, "sarif", an_write_sarif) /* SARIF 2.1.0 */

enum an_format {
#define AN_X(id, name, write) AN_FMT_##id,
	AN_FORMAT_LIST(AN_X)
#undef AN_X
};

/* The format named s ("text", "json", "html", "perfetto", "sarif"); -1 if
 * none. */
int an_format_parse(const char *s);

struct an_opts {
	char **inputs; /* trace directories, or folders holding some */
	int ninputs;
	enum an_format format;
	bool inventory; /* add the allocation inventory */
	bool color;
	unsigned jobs; /* inputs judged at once by forked workers; 0, 1: here */
	bool mpi; /* under mpirun: an_mpi_start() was called (an_mpi.h) */
};

struct an_outcome {
	enum an_sev worst; /* most severe finding */
	bool partial;	   /* some input could not be read to the end */
	bool unjudged;	   /* a verdict was withheld for want of events */
	unsigned findings; /* as the report counts them (merged) */
	unsigned by_sev[4];
};

/*
 * Reads every trace, replays it and writes the report to out; messages about
 * unreadable input go to err.  Returns 0 when a report was written.
 */
int an_report(const struct an_opts *o, FILE *out, FILE *err,
	      struct an_outcome *res);

/*
 * The summary of the one trace at or under `trace` (its result, as a
 * report merges it: an_result.h) written to path; 0, or -1 said on err.
 */
int an_summary_write(const char *trace, const char *path, FILE *err);

const char *an_sev_name(enum an_sev s);
/* Parses "error", "warning" or "note"; AN_SEV_NONE if none of them. */
enum an_sev an_sev_parse(const char *s);

#endif
