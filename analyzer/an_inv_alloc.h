/* SPDX-License-Identifier: MIT */
/* One block of the placement audit, as the inventory and the traffic
 * sections both print it (an_inv_alloc.c). */
#ifndef AN_INV_ALLOC_H
#define AN_INV_ALLOC_H

#include <stdio.h>

#include "an_state.h"

/* A line with tail after it. */
void an_inv_text_alloc(FILE *out, struct an_proc *p, const struct an_alloc *a,
		       const char *tail);
/* An object. */
void an_inv_json_alloc(FILE *out, struct an_proc *p, const struct an_alloc *a);

#endif
