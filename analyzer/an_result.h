/* SPDX-License-Identifier: MIT */
/*
 * A trace's result: what reading one trace leaves for the report, as bytes
 * (doc/design.md, "Trace results and summaries", describes them).  Every
 * report is the merge, in input order, of one result per trace: made in
 * the same process (-j 1), by forked workers (-j N), by MPI ranks, or read
 * back from the summary file `hipgrain run` wrote.  Going through the same
 * bytes every way is what makes the reports the same, byte for byte.
 */
#ifndef AN_RESULT_H
#define AN_RESULT_H

#include <stdio.h>

#include "an_state.h"
#include "an_wire.h"

/* The file's first bytes, then the version as a number (3: a kernel's
 * sys_sites). */
#define AN_RESULT_MAGIC "hipgrain-summary\n"
#define AN_RESULT_VERSION 3
/* What a summary file's name ends with. */
#define AN_RESULT_SUFFIX ".hgsum"
/* an_result_merge: the bytes are not a result this hipgrain reads. */
#define AN_RESULT_BAD (-100)

/*
 * t: one trace's state, read and ended (an_judge); rc: an_read's answer
 * for it; msgs: what reading it said on the error stream ("" if nothing).
 */
void an_result_put(struct an_wbuf *b, const struct an_ctx *t, int rc,
		   const char *msgs);

/*
 * Merges one result into c as reading its trace into c would have, and
 * writes its messages to err.  Returns the trace's read answer (-1: could
 * not be read, 0: read, 1: nothing in it), or AN_RESULT_BAD (said on err,
 * naming `what`) when the bytes are damaged or of another version.
 */
int an_result_merge(struct an_ctx *c, const void *p, size_t n, FILE *err,
		    const char *what);

/* Internal to an_result*.c: one part each, written and merged. */
struct an_put {
	struct an_wbuf *b;
	struct hg_map idx; /* an_proc pointer → its index + 1 */
};
struct an_get {
	struct an_rbuf r;
	struct an_proc **procs; /* this result's, by index */
	size_t nprocs;
	struct an_finding *found; /* its findings, to group as they arrive */
};
uint64_t an_put_proc_ref(struct an_put *w, const struct an_proc *p);
struct an_proc *an_get_proc_ref(struct an_get *g);
void an_put_alloc(struct an_wbuf *b, const struct an_alloc *a);
void an_get_alloc(struct an_rbuf *r, struct an_alloc *a);
int an_get_procs(struct an_get *g, struct an_ctx *c);
void an_get_counters(struct an_get *g, struct an_ctx *c);
void an_put_more(struct an_put *w, const struct an_ctx *t);
void an_get_more(struct an_get *g, struct an_ctx *c);
void an_put_tl(struct an_put *w, const struct an_tl *tl);
void an_get_tl(struct an_get *g, struct an_ctx *c);

#endif
