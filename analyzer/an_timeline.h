/* SPDX-License-Identifier: MIT */
/*
 * The timeline: what the picture formats (HTML, Perfetto) need and the rules
 * do not, kept only when one of them was asked for.  Replay hands it facts
 * already decoded into the model (blocks, launches with resolved arguments),
 * each stamped with the event's time and thread.  It grows with events, so
 * the text and JSON reports never build it.
 */
#ifndef AN_TIMELINE_H
#define AN_TIMELINE_H

#include <stdint.h>

#include "an_rule.h"

enum an_tl_kind {
	AN_TL_ALLOC,  /* id, size, api, gran, mem, x = call site */
	AN_TL_FREE,   /* id (of a block the model knew) */
	AN_TL_GRAN,   /* id, api, gran: the block's granularity changed */
	AN_TL_LAUNCH, /* id = kernel handle, size = launches it stands for,
			 x = first of nargs in the argument array */
	AN_TL_CALL,   /* api, rc, size: a copy, a memset, advice, any call */
};

struct an_tl_rec {
	uint64_t t; /* ns from the clock's origin */
	struct an_proc *proc;
	uint64_t id, size, x;
	int32_t tid, rc;
	uint8_t kind, api, gran, mem;
	uint16_t nargs;
};

struct an_tl_arg {
	uint64_t alloc; /* block id, 0: none known */
	uint16_t index;
	uint8_t gran, mem;
};

/* A migration the driver reported (kfd_smi), from its start to its end. */
struct an_tl_mig {
	uint64_t t;   /* the start event's time */
	uint64_t ns;  /* the start's time by the driver's clock */
	uint64_t dur; /* to the end, by the driver's clock; 0 until seen */
	uint64_t addr, size;
	struct an_proc *proc;
	uint32_t from, to; /* gpu ids, 0 system memory */
	int32_t tid, error;
	uint8_t trigger; /* KFD_MIGRATE_TRIGGER_* */
	bool ended;
};

struct an_tl {
	struct an_tl_rec *r;
	size_t n, cap;
	struct an_tl_arg *args;
	size_t nargs, capargs;
	struct an_tl_mig *mig;
	size_t nmig, capmig;
	uint64_t t0, t1; /* first and last time seen */
	bool failed;	 /* out of memory: the picture is partial */
};

/* Record one fact at the event replay is on (c->now_ns, c->now_tid). */
void an_tl_alloc(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a);
void an_tl_free(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a);
void an_tl_gran(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a);
void an_tl_launch(struct an_ctx *c, const struct an_launch *l);
void an_tl_launch_arg(struct an_ctx *c, const struct an_launch_arg *a);
void an_tl_call(struct an_ctx *c, struct an_proc *p, unsigned api, int32_t rc,
		uint64_t size);
void an_tl_free_all(struct an_tl *tl);
/* A migration's start (m: all but t, tid, dur), then its end (m: where,
 * ns and error), which finds its start. */
void an_tl_mig_start(struct an_ctx *c, const struct an_tl_mig *m);
void an_tl_mig_end(struct an_ctx *c, const struct an_tl_mig *m);
/* "migrate prefetch 1.0 MiB system→GPU" */
void an_tl_mig_name(const struct an_tl_mig *m, char *buf, size_t cap);

/* Internal: v grown to hold need elements of size bytes (*cap counts
 * them); NULL out of memory, v then unchanged. */
void *an_tl_grow(void *v, size_t *cap, size_t need, size_t size);

#endif
