/* SPDX-License-Identifier: MIT */
/*
 * The inventory's count of blocks: the replay of frees and the end of the
 * replay both add to it, so it is a leaf of its own beside them.
 */
#include <stdlib.h>
#include <string.h>

#include "an_replay.h"

/* The first blocks that migrated are listed; the rest only counted. */
static void an_inv_migrated(struct an_ctx *c, struct an_proc *p,
			    const struct an_alloc *a)
{
	if (!a->mig.bytes)
		return;
	if (!c->migrated)
		c->migrated = calloc(AN_INV_MIGRATED, sizeof(*c->migrated));
	if (!c->migrated || c->nmigrated == AN_INV_MIGRATED) {
		c->migrated_more++;
		return;
	}
	c->migrated[c->nmigrated++] = (struct an_inv_mig){p, *a};
}

/* A block among the largest, at place i.  Kept out of an_inv_add: it is
 * rare, and its copy of the block would cost every call there. */
static __attribute__((noinline)) void
an_inv_top(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a,
	   unsigned i)
{
	memmove(&c->top[i + 1], &c->top[i],
		(AN_TOP_ALLOCS - 1 - i) * sizeof(c->top[0]));
	c->top[i] = (struct an_finding){.proc = p, .has_alloc = true, .alloc = *a};
}

/* Inventory: each block counted once, when it is freed or at the end. */
void an_inv_add(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a)
{
	struct an_inv_bucket *b = &c->inv[a->api][a->gran & 3];
	unsigned i = AN_TOP_ALLOCS;

	an_inv_migrated(c, p, a);
	b->count++;
	b->bytes += a->size;
	while (i > 0 && (!c->top[i - 1].has_alloc || c->top[i - 1].alloc.size < a->size))
		i--;
	if (i < AN_TOP_ALLOCS)
		an_inv_top(c, p, a, i);
}
