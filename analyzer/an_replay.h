/* SPDX-License-Identifier: MIT */
/* Replay: one event at a time into the state, calling the rules. */
#ifndef AN_REPLAY_H
#define AN_REPLAY_H

#include "an_schema.h"
#include "an_state.h"

void an_replay(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
/* The end of one trace: its processes' end-of-trace rules and the
 * inventory's tail. */
void an_replay_end_procs(struct an_ctx *c);
/* The end of all input, once the traces' results are merged. */
void an_replay_end(struct an_ctx *c);

/* Internal to replay: the handlers of an_replay_mem.c and an_replay_code.c. */
/* A failed call of process p, counted with the others alike of p. */
void an_fail_add(struct an_ctx *c, const struct an_proc *p, unsigned api,
		 int32_t rc);
void an_on_alloc(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_free(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_range(struct an_ctx *c, struct an_proc *p, const struct an_ev *e,
		 bool prefetch);
/* An advice or prefetch, before or without its return, to the range rules:
 * its allocation looked up and refreshed from the driver's view. */
struct an_range_op;
void an_range_judge(struct an_ctx *c, struct an_proc *p, struct an_range_op *o);
void an_on_granularity(struct an_ctx *c, struct an_proc *p,
		       const struct an_ev *e);
void an_on_memcpy(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_memset(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_function(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_kernel(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_launch(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_head(struct an_proc *p, const struct an_ev *e);
void an_inv_add(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a);
/* The handlers of an_replay_kfd.c: the driver front end. */
void an_on_kfd_alloc(struct an_proc *p, const struct an_ev *e);
void an_on_kfd_free(struct an_proc *p, const struct an_ev *e);
void an_on_kfd_svm(struct an_proc *p, const struct an_ev *e);
void an_on_kfd_xnack(struct an_proc *p, const struct an_ev *e);
void an_on_kfd_smi_open(struct an_proc *p, const struct an_ev *e);
void an_on_kfd_node(struct an_proc *p, const struct an_ev *e);
void an_on_kfd_smi(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
/* A live block as the driver now sees it (an_drv_resolve), the timeline
 * told when that changed its granularity. */
void an_drv_recheck(struct an_ctx *c, struct an_proc *p, struct an_alloc *a);
/* The same, asked for every block an event names: a process whose trace
 * has no driver events has nothing to recheck. */
static inline void an_drv_refresh(struct an_ctx *c, struct an_proc *p,
				  struct an_alloc *a)
{
	if (p->kfd)
		an_drv_recheck(c, p, a);
}

/* A registered code object's targets ("gfx90a:xnack+,gfx908"). */
void an_on_code_object(struct an_proc *p, const char *targets);

#endif
