/* SPDX-License-Identifier: MIT */
/* Races the virtual GPU saw between the waves of a work-group. */
#ifndef AN_RACE_H
#define AN_RACE_H

struct an_ctx;
struct an_proc;
struct an_ev;

/* A vgpu_race event: a finding of lds-race or group-race at once. */
void an_on_vgpu_race(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);

#endif
