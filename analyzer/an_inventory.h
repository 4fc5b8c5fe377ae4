/* SPDX-License-Identifier: MIT */
/* The placement audit: bytes by allocator and granularity, largest blocks. */
#ifndef AN_INVENTORY_H
#define AN_INVENTORY_H

#include <stdio.h>

#include "an_state.h"

void an_inventory_text(struct an_ctx *c, FILE *out);
void an_inventory_json(struct an_ctx *c, FILE *out);

#endif
