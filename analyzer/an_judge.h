/* SPDX-License-Identifier: MIT */
/*
 * Judging: one input (a trace directory, or a summary file a run left) to
 * its result's bytes (an_result.h), and every input of a report judged,
 * in this process or by workers, and merged in input order.
 */
#ifndef AN_JUDGE_H
#define AN_JUDGE_H

#include <stdio.h>

#include "an.h"
#include "an_fate.h"
#include "an_state.h"
#include "an_wire.h"

/* Whether path names a summary file, not a trace directory. */
bool an_is_summary(const char *path);

/*
 * A trace read into a state of its own, its processes ended, and its
 * result written to b; a summary file's bytes copied to b.  o says which
 * format the result is for (only the picture formats keep a timeline).
 */
void an_judge(const struct an_opts *o, const char *input,
	      const struct an_fate *fate, struct an_wbuf *b);

/*
 * Every input judged (o->jobs at once) and merged into c in their order.
 * 0: some trace was read; 1: none could be; -1: a summary was damaged or
 * the workers failed (said on err); 2: under --mpi, a rank other than 0,
 * whose results went to rank 0.
 */
int an_judge_all(struct an_ctx *c, char **inputs, size_t n,
		 const struct an_fate *fates, FILE *err);

/* Internal: merge one input's result, and keep score. */
struct an_tally {
	struct an_ctx *c;
	char **inputs;
	FILE *err;
	bool any, bad;
};
void an_tally_merge(struct an_tally *t, size_t i, const void *p, size_t n);
void an_tally_merge_named(struct an_tally *t, const char *name, const void *p,
			  size_t n);
/* Internal: the workers of -j N (an_jobs.c); -1 when they cannot start. */
int an_jobs_run(struct an_tally *t, size_t n, const struct an_fate *fates,
		unsigned jobs);

#endif
