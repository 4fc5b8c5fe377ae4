/* SPDX-License-Identifier: MIT */
/* Stores a dispatch cut short left in the virtual GPU's L2. */
#ifndef AN_UNWRITTEN_H
#define AN_UNWRITTEN_H

struct an_ctx;
struct an_proc;
struct an_ev;

/* A vgpu_unwritten event: a finding of coarse-sync at once when the
 * dispatch stopped at the instruction budget. */
void an_on_vgpu_unwritten(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);

#endif
