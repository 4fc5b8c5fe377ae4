/* SPDX-License-Identifier: MIT */
/*
 * How a traced program ended.  The trace cannot say (a process killed by
 * a signal writes nothing more), so `hipgrain run`, which waited for it,
 * leaves one line next to the trace, and the report reads it back.
 */
#ifndef AN_FATE_H
#define AN_FATE_H

#include <stdbool.h>
#include <stddef.h>

/* The file in a run's output directory, above the CTF trace. */
#define AN_FATE_FILE "hipgrain-run.status"

struct an_fate {
	bool known;
	bool signaled, core;
	int pid;
	int code; /* the exit status, or the signal's number */
};

/* Writes the file for pid's waitpid status into dir; 0, or -errno. */
int an_fate_write(const char *dir, int pid, int wstatus);
/* The file in trace_dir or one of its parents, not above top; false when
 * none is there or it cannot be read. */
bool an_fate_find(const char *trace_dir, const char *top, struct an_fate *f);
/* "exited with status 0", "killed by SIGSEGV (Segmentation fault), core
 * dumped". */
const char *an_fate_text(const struct an_fate *f, char *buf, size_t cap);
/* "SIGSEGV", or "" when the process was not killed. */
const char *an_fate_signal(const struct an_fate *f, char *buf, size_t cap);
/* Whether it ended by returning from main or calling exit: what it would
 * have freed, it had the chance to. */
static inline bool an_fate_normal(const struct an_fate *f)
{
	return !f->known || !f->signaled;
}

#endif
