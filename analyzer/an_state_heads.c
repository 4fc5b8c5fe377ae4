/* SPDX-License-Identifier: MIT */
/*
 * A process's launch heads by number.  The preload numbers them 1, 2, 3...
 * (reg_emit.c), and a program that launches many kernels declares one for
 * nearly every launch: a table indexed by number holds them, the map only
 * numbers far beyond the rest (a damaged trace's).
 */
#include <stdlib.h>
#include <string.h>

#include "an_state.h"

/* How far beyond the table a number may be for the table to grow to it. */
#define AN_HEADS_SLACK 4096

static struct an_head **an_head_slot(struct an_heads *hs, uint64_t id)
{
	size_t cap = hs->cap ? hs->cap : 64;
	struct an_head **grown;

	if (id < hs->cap)
		return &hs->by_num[id];
	if (id > hs->cap * 2 + AN_HEADS_SLACK)
		return NULL;
	while (cap <= id)
		cap *= 2;
	grown = realloc(hs->by_num, cap * sizeof(*grown));
	if (!grown)
		return NULL;
	memset(grown + hs->cap, 0, (cap - hs->cap) * sizeof(*grown));
	hs->by_num = grown;
	hs->cap = cap;
	return &grown[id];
}

/* A number put in the map may be in the table's range since it grew. */
static struct an_head *an_head_find(const struct an_heads *hs, uint64_t id)
{
	if (id < hs->cap && hs->by_num[id])
		return hs->by_num[id];
	return hs->far.live ? hg_map_get(&hs->far, id) : NULL;
}

const struct an_head *an_head_get(const struct an_heads *hs, uint64_t id)
{
	return an_head_find(hs, id);
}

struct an_head *an_head_put(struct an_heads *hs, uint64_t id)
{
	struct an_head *h = an_head_find(hs, id);
	struct an_head **slot;

	if (h)
		return h;
	h = an_slab_take(&hs->slab, sizeof(*h));
	if (!h)
		return NULL;
	slot = an_head_slot(hs, id);
	if (slot)
		*slot = h;
	else if (hg_map_add(&hs->far, id, h)) {
		an_slab_give(&hs->slab, h);
		return NULL;
	}
	return h;
}

void an_heads_fini(struct an_heads *hs)
{
	free(hs->by_num);
	hg_map_fini(&hs->far);
	an_slab_fini(&hs->slab);
	*hs = (struct an_heads){0};
}
