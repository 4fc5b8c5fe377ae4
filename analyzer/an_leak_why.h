/* SPDX-License-Identifier: MIT */
/* Why no leak of a process is judged (an_leak_why.c). */
#ifndef AN_LEAK_WHY_H
#define AN_LEAK_WHY_H

struct an_ctx;
struct an_proc;

/* Why no leak of p is judged, NULL when one is: lost events, a cut trace,
 * a killed process, or one whose end the trace does not hold. */
const char *an_leak_withheld(const struct an_ctx *c, const struct an_proc *p);

#endif
