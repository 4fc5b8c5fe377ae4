/* SPDX-License-Identifier: MIT */
/* Stale reads the virtual GPU's L2 served from coarse-grained memory. */
#ifndef AN_STALE_H
#define AN_STALE_H

struct an_ctx;
struct an_proc;
struct an_ev;

/* A vgpu_stale event: a finding of coarse-sync at once. */
void an_on_vgpu_stale(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);

#endif
