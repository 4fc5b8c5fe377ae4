/* SPDX-License-Identifier: MIT */
/* The hooked calls a process died in, from its died events. */
#ifndef AN_DIED_H
#define AN_DIED_H

struct an_ctx;
struct an_proc;
struct an_ev;

/* A died event: the call, the signal and what it asked, for the rules. */
void an_on_died(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);

#endif
