/* SPDX-License-Identifier: MIT */
/* The placement audit: bytes by allocator and granularity, largest blocks. */
#ifndef AN_INVENTORY_H
#define AN_INVENTORY_H

#include <stdio.h>

#include "an_state.h"

void an_inventory_text(struct an_ctx *c, FILE *out);
void an_inventory_json(struct an_ctx *c, FILE *out);
/* One block (an_inv_alloc.c): a line with tail after it, or an object. */
void an_inv_text_alloc(FILE *out, struct an_proc *p, const struct an_alloc *a,
		       const char *tail);
void an_inv_json_alloc(FILE *out, struct an_proc *p, const struct an_alloc *a);

#endif
