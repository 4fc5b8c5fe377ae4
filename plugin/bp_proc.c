/* SPDX-License-Identifier: MIT */
/*
 * Per process, what later packed events leave out: kept in maps by head and
 * block, because a trace interleaves its processes and threads, and a
 * launch may name a block another thread freed meanwhile.
 */
#include "bp_proc.h"

#include <stdlib.h>

struct bp_proc *bp_proc_get(struct bp_procs *ps, const void *trace,
			    int64_t vpid)
{
	struct hg_map *procs = hg_map_get(&ps->traces, (uintptr_t)trace);
	struct bp_proc *p;

	if (!procs) {
		procs = calloc(1, sizeof(*procs));
		if (!procs || hg_map_put(&ps->traces, (uintptr_t)trace, procs)) {
			free(procs);
			return NULL;
		}
	}
	p = hg_map_get(procs, (uint64_t)vpid);
	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p || hg_map_put(procs, (uint64_t)vpid, p)) {
		free(p);
		return NULL;
	}
	return p;
}

int bp_proc_head(struct bp_proc *p, const struct dec_launch *l)
{
	struct dec_launch *h = hg_map_get(&p->heads, l->head_id);

	if (!h) {
		h = malloc(sizeof(*h));
		if (!h || hg_map_put(&p->heads, l->head_id, h)) {
			free(h);
			return -1;
		}
	}
	*h = *l;
	return 0;
}

int bp_proc_alloc(struct bp_proc *p, uint64_t id, uint64_t addr,
		  uint64_t size)
{
	struct bp_block *b = hg_map_get(&p->blocks, id);

	if (!b) {
		b = malloc(sizeof(*b));
		if (!b || hg_map_put(&p->blocks, id, b)) {
			free(b);
			return -1;
		}
	}
	*b = (struct bp_block){addr, size};
	return 0;
}

void bp_proc_free(struct bp_proc *p, uint64_t id)
{
	struct bp_block *b = hg_map_del(&p->blocks, id);

	if (b)
		dec_freed_put(&p->freed, id, b->addr, b->size);
	free(b);
}

bool bp_proc_block(const struct bp_proc *p, uint64_t id, struct bp_block *b)
{
	const struct bp_block *live = hg_map_get(&p->blocks, id);
	int s = live ? -1 : dec_freed_by_id(&p->freed, id);

	if (live)
		*b = *live;
	else if (s >= 0)
		*b = (struct bp_block){p->freed.b[s].addr, p->freed.b[s].size};
	return live || s >= 0;
}

static void bp_proc_drop(void *v)
{
	struct bp_proc *p = v;

	hg_map_clear(&p->heads, free);
	hg_map_clear(&p->blocks, free);
	free(p);
}

static void bp_procs_drop(void *v)
{
	hg_map_clear(v, bp_proc_drop);
	free(v);
}

void bp_procs_fini(struct bp_procs *ps)
{
	hg_map_clear(&ps->traces, bp_procs_drop);
}
