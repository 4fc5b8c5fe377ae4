/* SPDX-License-Identifier: MIT */
/* Replay of the address space: allocations, frees, advice, copies. */
#include <stdlib.h>

#include "an_drv.h"
#include "an_gran.h"
#include "an_replay.h"
#include "an_rule.h"
#include "an_timeline.h"
#include "hg_events.h"

void an_fail_add(struct an_ctx *c, const struct an_proc *p, unsigned api,
		 int32_t rc)
{
	struct an_fail *f;

	for (f = c->fails; f; f = f->next)
		if (f->api == api && f->rc == rc && f->proc == p) {
			f->count += an_weight(c);
			return;
		}
	f = calloc(1, sizeof(*f));
	if (!f)
		return;
	*f = (struct an_fail){.api = (uint8_t)api, .rc = rc, .proc = p,
			      .count = an_weight(c),
			      .next = c->fails};
	c->fails = f;
}

/* Any schema's alloc (dec_bt.h); a damaged one reads as zeros. */
static int32_t an_alloc_read(const struct an_ev *e, struct an_alloc *a)
{
	struct dec_alloc d;

	dec_bt_alloc(&e->cls->dec, e->payload, &d, NULL);
	*a = (struct an_alloc){
		.id = d.id, .addr = d.addr, .size = d.size,
		.callsite = d.callsite, .flags = d.flags, .device = d.device,
		.api = d.api, .mem = d.mem, .gran = d.gran, .lazy = d.lazy,
	};
	return d.rc;
}

void an_drv_recheck(struct an_ctx *c, struct an_proc *p, struct an_alloc *a)
{
	if (an_drv_resolve(p, a))
		an_tl_gran(c, p, a);
}

void an_on_alloc(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const struct an_hooked *hk = an_rules_hooked(AN_ON_ALLOC);
	struct an_alloc a;
	int32_t rc = an_alloc_read(e, &a);
	struct an_alloc *stored;

	a.model_gran = a.gran;
	an_drv_resolve(p, &a); /* the BO it was carved from came first */

	for (unsigned i = 0; i < hk->n; i++)
		hk->r[i]->on_alloc(c, hk->r[i], p, &a);
	if (rc) {
		an_fail_add(c, p, a.api, rc);
		return;
	}
	if (!a.id)
		return;
	stored = an_alloc_get(p, a.id);
	if (!stored) {
		stored = an_alloc_new(p, a.id);
		if (!stored)
			return;
	} else {
		an_drv_live_del(p, stored); /* the same id again: replaced */
	}
	*stored = a;
	an_drv_live_add(p, stored);
	an_tl_alloc(c, p, stored);
}

/*
 * The block leaves the live set; the ring keeps it for use-after-free.
 * Freeing managed memory unmaps it, and the driver forgets its SVM
 * attributes with it.
 */
static void an_retire(struct an_ctx *c, struct an_proc *p, struct an_alloc *a,
		      const struct an_free_ev *f)
{
	struct an_gone *g;
	int slot;

	an_drv_live_del(p, a);
	if (a->mem == HG_MEM_MANAGED && p->kfd)
		an_svm_drop(&p->kfd->svm, a->addr, a->addr + a->size);
	an_inv_add(c, p, a);
	an_tl_free(c, p, a);
	if ((g = an_gone_of(p))) {
		slot = dec_freed_put(&g->ring, a->id, a->addr, a->size);
		g->freed[slot] = *a;
		g->freed_by[slot] = (struct an_call){f->callsite, f->api};
	}
	an_alloc_drop(p, a);
}

/* Whether the free left its address to its alloc (dec_free.elided). */
static bool an_free_read(const struct an_ev *e, struct an_free_ev *f)
{
	struct dec_free d;

	dec_bt_free(&e->cls->dec, e->payload, &d, NULL);
	f->id = d.id;
	f->addr = d.addr;
	f->callsite = d.callsite;
	f->rc = d.rc;
	f->api = d.api;
	f->alloc_api = d.alloc_api;
	return d.elided;
}

void an_on_free(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const struct an_hooked *hk = an_rules_hooked(AN_ON_FREE);
	struct an_free_ev f = {.proc = p};
	bool elided = an_free_read(e, &f);

	f.alloc = an_alloc_get(p, f.id);
	/* A known block's free may carry no address: it is its alloc's (a
	 * block is freed by its address); one whose alloc was lost has none. */
	if (elided)
		f.addr = f.alloc ? f.alloc->addr : 0;
	if (f.alloc)
		an_drv_refresh(c, p, f.alloc);
	for (unsigned i = 0; i < hk->n; i++)
		hk->r[i]->on_free(c, hk->r[i], &f);
	if (f.rc)
		an_fail_add(c, p, f.api, f.rc);
	if (f.alloc && !f.rc)
		an_retire(c, p, f.alloc, &f);
}

void an_range_judge(struct an_ctx *c, struct an_proc *p, struct an_range_op *o)
{
	o->alloc = an_alloc_get(p, o->id);
	if (o->alloc)
		an_drv_refresh(c, p, o->alloc);
	for (unsigned i = 0; i < an_nrules; i++)
		if (an_rules[i]->on_range)
			an_rules[i]->on_range(c, an_rules[i], o);
}

void an_on_range(struct an_ctx *c, struct an_proc *p, const struct an_ev *e,
		 bool prefetch)
{
	struct an_range_op o = {
		.proc = p, .addr = an_ev_u64(e, F_RO_ADDR),
		.size = an_ev_u64(e, F_RO_SIZE), .id = an_ev_u64(e, F_RO_ID),
		.advice = (int32_t)an_ev_i64(e, F_RO_ADVICE),
		.rc = (int32_t)an_ev_i64(e, F_RO_RC),
		.api = (uint8_t)an_ev_u64(e, F_RO_API),
		.mem = (uint8_t)an_ev_u64(e, F_RO_MEM), .prefetch = prefetch,
		.callsite = an_ev_u64(e, F_RO_CALLSITE),
	};

	an_range_judge(c, p, &o);
	an_tl_call(c, p, o.api, o.rc, o.size);
	if (o.rc)
		an_fail_add(c, p, o.api, o.rc);
	else if (prefetch && o.alloc) {
		/* hipCpuDeviceId (-1) brings the pages back to the host. */
		o.alloc->on_gpu = an_ev_i64(e, F_RO_DEVICE) >= 0;
		if (!o.alloc->gpu_touched)
			o.alloc->prefetched = true;
	}
}

static uint8_t an_gran_merge(const struct an_alloc *a, uint8_t cur,
			     uint64_t addr, uint64_t size, uint8_t gran)
{
	if (addr <= a->addr && addr + size >= a->addr + a->size)
		return gran;
	return cur != gran ? HG_GRAN_MIXED : cur;
}

static void an_gran_rules(struct an_ctx *c, struct an_proc *p,
			  struct an_alloc *a, const struct an_ev *e)
{
	struct an_gran_ev g = {
		.proc = p, .alloc = a, .addr = an_ev_u64(e, F_GR_ADDR),
		.size = an_ev_u64(e, F_GR_SIZE),
		.gran = (uint8_t)an_ev_u64(e, F_GR_GRAN),
		.source = (uint8_t)an_ev_u64(e, F_GR_SOURCE),
	};

	for (unsigned i = 0; i < an_nrules; i++)
		if (an_rules[i]->on_gran)
			an_rules[i]->on_gran(c, an_rules[i], &g);
}

void an_on_granularity(struct an_ctx *c, struct an_proc *p,
		       const struct an_ev *e)
{
	struct an_alloc *a = an_alloc_get(p, an_ev_u64(e, F_GR_ID));
	uint64_t addr = an_ev_u64(e, F_GR_ADDR), size = an_ev_u64(e, F_GR_SIZE);
	uint8_t gran = (uint8_t)an_ev_u64(e, F_GR_GRAN);

	if (!a || an_ev_i64(e, F_GR_RC))
		return;
	if (an_ev_u64(e, F_GR_SOURCE) == HG_GRAN_SRC_QUERY) {
		/* A block split by advice is only known as "mixed" here: a
		 * query of one piece of it cannot be compared. */
		bool whole = addr <= a->addr && addr + size >= a->addr + a->size;

		if (gran != HG_GRAN_UNKNOWN && a->gran != gran &&
		    (whole || a->gran != HG_GRAN_MIXED))
			c->gran_disagree++;
		return;
	}
	/* Advice covering the whole block decides it; part of it splits it. */
	if (addr <= a->addr && addr + size >= a->addr + a->size) {
		a->gran = gran;
		a->npieces = 0;
	} else if (addr < a->addr + a->size && addr + size > a->addr) {
		uint64_t lo = addr > a->addr ? addr - a->addr : 0;
		uint64_t hi = addr + size - a->addr;

		an_gran_set(a, lo, hi < a->size ? hi : a->size, gran);
	}
	if (an_ev_u64(e, F_GR_SOURCE) == HG_GRAN_SRC_RUNTIME)
		a->runtime_gran = a->gran;
	else
		a->model_gran = an_gran_merge(a, a->model_gran, addr, size, gran);
	an_drv_resolve(p, a); /* where the driver decides, it still does */
	an_gran_rules(c, p, a, e);
	an_tl_gran(c, p, a);
}

static void an_copy_rules(struct an_ctx *c, struct an_copy *o)
{
	o->dst_alloc = an_alloc_get(o->proc, o->dst_id);
	o->src_alloc = an_alloc_get(o->proc, o->src_id);
	if (o->dst_alloc)
		an_drv_refresh(c, o->proc, o->dst_alloc);
	if (o->src_alloc)
		an_drv_refresh(c, o->proc, o->src_alloc);
	for (unsigned i = 0; i < an_nrules; i++)
		if (an_rules[i]->on_copy)
			an_rules[i]->on_copy(c, an_rules[i], o);
	an_tl_call(c, o->proc, o->api, o->rc, o->size);
	if (o->rc)
		an_fail_add(c, o->proc, o->api, o->rc);
}

/* Any schema's memcpy (dec_bt.h); a damaged one reads as zeros. */
void an_on_memcpy(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct dec_memcpy d;

	dec_bt_memcpy(&e->cls->dec, e->payload, &d, NULL);
	struct an_copy o = {
		.proc = p, .dst = d.dst, .src = d.src, .size = d.size,
		.dst_id = d.dst_id, .src_id = d.src_id, .kind = d.kind,
		.rc = d.rc, .api = d.api, .dst_mem = d.dst_mem,
		.src_mem = d.src_mem, .callsite = d.callsite,
		.async = d.async != 0,
	};

	an_copy_rules(c, &o);
}

void an_on_memset(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct dec_memset d;

	dec_bt_memset(&e->cls->dec, e->payload, &d, NULL);
	struct an_copy o = {
		.proc = p, .dst = d.dst, .size = d.size, .dst_id = d.dst_id,
		.rc = d.rc, .api = d.api, .dst_mem = d.dst_mem, .memset = true,
		.callsite = d.callsite,
	};

	an_copy_rules(c, &o);
}
