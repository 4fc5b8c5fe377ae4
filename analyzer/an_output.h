/* SPDX-License-Identifier: MIT */
/*
 * What the writers print: findings merged by (rule, severity, kernel,
 * allocator, call site as symbolised), most severe first.
 */
#ifndef AN_OUTPUT_H
#define AN_OUTPUT_H

#include <stdio.h>

#include "an_state.h"
#include "an_sym.h"

/* A call of the finding's other than the allocation (an_finding's call or
 * freed), symbolised as the allocation's site is. */
struct an_place {
	struct an_frame frames[AN_MAX_FRAMES];
	int nframes;
	char *site; /* "file:line (function)"; "" when it has none */
};

struct an_group {
	const struct an_finding *first;
	uint64_t count;
	unsigned nprocs;
	struct an_frame frames[AN_MAX_FRAMES];
	int nframes;
	char *site; /* the call site as text, the merge key */
	struct an_place call, freed; /* part of the key too */
	unsigned nfound; /* findings merged into it */
	long *ranks; /* MPI ranks it held on, sorted, each once */
	unsigned nranks;
	/* The same finding on other arguments of the same launches, each with
	 * its own allocation; then `message` names them all, in order. */
	struct an_group *also;
	unsigned nalso;
	int arg; /* the argument's index its message names; -1 none */
	uint64_t observed; /* lanes its findings were seen to drop */
	char *message; /* NULL: first->message */
};

/* The message a writer prints for the group. */
static inline const char *an_group_message(const struct an_group *g)
{
	return g->message ? g->message : g->first->message;
}

/* Lanes seen dropped over the group and the arguments folded into it. */
static inline uint64_t an_group_observed(const struct an_group *g)
{
	uint64_t n = g->observed;

	for (unsigned i = 0; i < g->nalso; i++)
		n += g->also[i].observed;
	return n;
}

struct an_groups {
	struct an_group *g;
	size_t n;
	unsigned by_sev[4];
};

int an_groups_build(struct an_ctx *c, struct an_groups *out);
/* One finding into the groups: merged into its group (an equivalence:
 * the same rule, kernel, allocation site and calls, symbolised), or a
 * new group after the others. */
int an_group_add(struct an_groups *gs, const struct an_finding *f,
		 bool all_frames);
bool an_same_group(const struct an_group *g, const struct an_finding *f,
		   const char *site, const char *call, const char *freed);
void an_group_free(struct an_group *g);
/* Whether a report in this format groups findings as traces arrive. */
bool an_groups_live_for(const struct an_ctx *c);
/* A trace's findings (its result's list, newest first) and its virtual
 * GPU rows from rows_from on, merged into c->live; c->findings becomes
 * the groups' firsts.  -1: out of memory. */
int an_groups_arrive(struct an_ctx *c, struct an_finding *list, size_t rows_from);
/* Folds groups that differ only in the argument they name (an_fold.c). */
void an_groups_fold(struct an_groups *gs);
void an_groups_free(struct an_groups *gs);
/* "procname[vpid] on host, rank N, GPU 3 (MI250X, card 1's second GCD)":
 * the host, rank and GPU where the trace has them. */
void an_where(const struct an_proc *p, char *buf, size_t cap);
/* The first frame in the user's code (outside HIP's and the C library's
 * headers, and outside the system's libraries), else the first with a file
 * outside the system's libraries; -1 if none has one, or if only system
 * libraries have one and a frame of the program is named (built without
 * -g: an_site_text names its function). */
int an_site_frame(const struct an_frame *f, int n);
/* "file:line (function)" of that frame; "file (function)" at line 0, which
 * is code the compiler merged from several lines (identical calls in two
 * branches). */
const char *an_site_text(const struct an_frame *f, int n, char *buf,
			 size_t cap);
/* The message of a failed call, e.g. "hipErrorInvalidDevice: no usable GPU" */
void an_fail_text(const struct an_ctx *c, const struct an_fail *f, char *buf,
		  size_t cap);
unsigned an_nprocs(const struct an_ctx *c);
/* Every process, by pid, then image, then where; *out is the caller's to
 * free.  0 when there are none or memory ran out. */
size_t an_procs_sorted(const struct an_ctx *c, struct an_proc ***out);
/* Some verdict was withheld for want of events: `--fail-on` cannot pass. */
bool an_unjudged(const struct an_ctx *c);
/* "not judged: ..." lines, each between on and off (colour). */
void an_withheld_text(const struct an_ctx *c, FILE *out, const char *on,
		      const char *off);
/* The line a report opens with when the run showed nothing of what hipgrain
 * watches, or ran no kernel for want of a GPU; NULL otherwise. */
const char *an_notice(const struct an_ctx *c, char *buf, size_t cap);
/* The group's ranks as "0-3,7" (cut short with "..." past cap). */
void an_ranks_text(const struct an_group *g, char *buf, size_t cap);

void an_write_text(struct an_ctx *c, const struct an_groups *gs, FILE *out);
void an_write_json(struct an_ctx *c, const struct an_groups *gs, FILE *out);
void an_write_html(struct an_ctx *c, const struct an_groups *gs, FILE *out);
void an_write_perfetto(struct an_ctx *c, const struct an_groups *gs, FILE *out);
void an_write_sarif(struct an_ctx *c, const struct an_groups *gs, FILE *out);

#endif
