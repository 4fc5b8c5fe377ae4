/* SPDX-License-Identifier: MIT */
/*
 * A process's live blocks: the map by id, a cache in front of it, and a
 * slab they are kept in.  A program allocates, launches with and frees the
 * same few blocks over and over: those are found without hashing, and a
 * freed block's memory serves the next one instead of going back to malloc.
 */
#include <stdlib.h>

#include "an_state.h"

/* The cache is made when the first block is: a process merged from a
 * trace's result has none, and thousands of ranks' processes stay small.
 * Out of memory, the block goes uncached (a slot of the thread's own). */
static struct an_alloc **an_hot(struct an_proc *p, uint64_t id)
{
	static __thread struct an_alloc *none;

	if (!p->blocks.hot &&
	    !(p->blocks.hot = calloc(AN_HOT_BLOCKS, sizeof(*p->blocks.hot))))
		return &none;
	return &p->blocks.hot[id & (AN_HOT_BLOCKS - 1)];
}

/* No mapped id is above top_id, and the preload numbers blocks in order:
 * a new block's id is not looked for. */
struct an_alloc *an_alloc_lookup(struct an_proc *p, uint64_t id)
{
	struct an_alloc *a =
	    id && id <= p->blocks.top_id ? hg_map_get(&p->allocs, id) : NULL;

	if (a)
		*an_hot(p, id) = a;
	return a;
}

struct an_alloc *an_alloc_new(struct an_proc *p, uint64_t id)
{
	struct an_alloc *a = an_slab_take(&p->blocks.slab, sizeof(*a));

	if (!a)
		return NULL;
	if (hg_map_add(&p->allocs, id, a)) {
		an_slab_give(&p->blocks.slab, a);
		return NULL;
	}
	a->id = id;
	*an_hot(p, id) = a;
	if (id > p->blocks.top_id)
		p->blocks.top_id = id;
	return a;
}

void an_alloc_drop(struct an_proc *p, struct an_alloc *a)
{
	struct an_alloc **hot = an_hot(p, a->id);

	if (*hot == a)
		*hot = NULL;
	hg_map_del(&p->allocs, a->id);
	an_slab_give(&p->blocks.slab, a);
}

void an_blocks_fini(struct an_proc *p)
{
	an_slab_fini(&p->blocks.slab);
	hg_map_fini(&p->allocs);
	free(p->blocks.hot);
	p->blocks = (struct an_block_store){0};
}
