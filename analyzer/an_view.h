/* SPDX-License-Identifier: MIT */
/*
 * What the picture formats share: processes in a stable order with a pid
 * each, their series (allocator × granularity) and a walk over the timeline
 * that keeps every process's live bytes per series as it goes.
 */
#ifndef AN_VIEW_H
#define AN_VIEW_H

#include "an_timeline.h"

#define AN_SERIES(api, gran) ((unsigned)(api)*4u + ((gran)&3u))
#define AN_NSERIES_MAX	     1024

struct an_view_proc {
	struct an_proc *p;
	int64_t pid;  /* the process id the output shows (unique) */
	unsigned idx; /* position in the stable order */
	int16_t slot[AN_NSERIES_MAX]; /* series → compact index, -1 unused */
	uint16_t key[AN_NSERIES_MAX]; /* compact index → series */
	unsigned nseries;
	uint64_t *live;	 /* bytes per compact series */
	uint64_t *speak; /* the highest each series reached */
	uint64_t total, peak;
};

struct an_view {
	struct an_view_proc *procs;
	size_t n;
	struct hg_map by_proc; /* an_proc pointer → view proc */
	struct hg_map blocks;  /* (proc, id) → ALLOC record, during a walk */
};

struct an_step {
	const struct an_tl_rec *r;
	const struct an_tl_rec *block; /* FREE/GRAN: the block's ALLOC */
	struct an_view_proc *vp;
	const struct an_tl_arg *args; /* LAUNCH: its arguments */
};

int an_view_build(struct an_ctx *c, struct an_view *v);
struct an_view_proc *an_view_of(const struct an_view *v,
				const struct an_proc *p);
/* Calls fn after each record changed the live bytes (for every record). */
int an_view_walk(struct an_ctx *c, struct an_view *v,
		 void (*fn)(const struct an_step *s, void *arg), void *arg);
/* The live block a launch argument named, or NULL. */
const struct an_tl_rec *an_view_block(const struct an_view *v,
				      const struct an_view_proc *vp,
				      uint64_t id);
void an_view_fini(struct an_view *v);
/* "hipMalloc coarse" */
void an_series_name(unsigned series, char *buf, size_t cap);

#endif
