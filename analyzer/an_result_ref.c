/* SPDX-License-Identifier: MIT */
/* What every part of a trace's result shares: processes by index, blocks
 * whole. */
#include "an_result.h"

uint64_t an_put_proc_ref(struct an_put *w, const struct an_proc *p)
{
	return p ? (uint64_t)(uintptr_t)hg_map_get(&w->idx, (uintptr_t)p) : 0;
}

void an_put_alloc(struct an_wbuf *b, const struct an_alloc *a)
{
	an_w_u64(b, a->id);
	an_w_u64(b, a->addr);
	an_w_u64(b, a->size);
	an_w_u64(b, a->callsite);
	an_w_u64(b, a->npieces);
	for (unsigned i = 0; i < a->npieces && i < AN_GRAN_PIECES; i++) {
		an_w_u64(b, a->piece[i].off);
		an_w_u64(b, a->piece[i].gran);
	}
	an_w_u64(b, a->flags);
	an_w_i64(b, a->device);
	uint8_t small[] = {a->api, a->mem, a->gran, a->lazy, a->model_gran,
			   a->runtime_gran, a->prefetched, a->on_gpu,
			   a->gpu_touched, a->drv.gran, a->drv.domain,
			   a->drv.has_node, a->drv.gpu};
	an_w_bytes(b, small, sizeof(small));
	an_w_u64(b, a->drv.flags);
	an_w_u64(b, a->drv.cleared);
	an_w_u64(b, a->drv.node);
	for (unsigned i = 0; i < AN_MIG_TRIGGERS; i++)
		an_w_u64(b, a->mig.n[i]);
	an_w_u64(b, a->mig.bytes);
}

struct an_proc *an_get_proc_ref(struct an_get *g)
{
	uint64_t i = an_r_below(&g->r, g->nprocs + 1);

	return i && i <= g->nprocs ? g->procs[i - 1] : NULL;
}

void an_get_alloc(struct an_rbuf *r, struct an_alloc *a)
{
	const uint8_t *s;

	*a = (struct an_alloc){.id = an_r_u64(r), .addr = an_r_u64(r),
			       .size = an_r_u64(r), .callsite = an_r_u64(r)};
	a->npieces = (uint8_t)an_r_below(r, AN_GRAN_PIECES + 1);
	for (unsigned i = 0; i < a->npieces && !r->bad; i++) {
		a->piece[i].off = an_r_u64(r);
		a->piece[i].gran = (uint8_t)an_r_u64(r);
	}
	a->flags = (uint32_t)an_r_u64(r);
	a->device = (int32_t)an_r_i64(r);
	s = an_r_bytes(r, 13);
	if (!s)
		return;
	a->api = s[0], a->mem = s[1], a->gran = s[2], a->lazy = s[3];
	a->model_gran = s[4], a->runtime_gran = s[5];
	a->prefetched = s[6], a->on_gpu = s[7], a->gpu_touched = s[8];
	a->drv.gran = s[9], a->drv.domain = s[10], a->drv.has_node = s[11];
	a->drv.gpu = s[12];
	a->drv.flags = (uint32_t)an_r_u64(r);
	a->drv.cleared = (uint32_t)an_r_u64(r);
	a->drv.node = (uint32_t)an_r_u64(r);
	for (unsigned i = 0; i < AN_MIG_TRIGGERS; i++)
		a->mig.n[i] = (uint32_t)an_r_u64(r);
	a->mig.bytes = an_r_u64(r);
}
