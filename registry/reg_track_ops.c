/* SPDX-License-Identifier: MIT */
/* Copies, sets, prefetches and advice: resolve the pointers, record. */
#include "reg.h"
#include "reg_dev.h"

#include "hg_events.h"
#include "reg_host.h"
#include "reg_model.h"
#include "reg_site.h"

#define SKIP_FRAMES 2
#define PAGE ((uintptr_t)4096)

static void emit_gran_piece(const struct reg_dev_info *r, uintptr_t addr,
			    size_t len, uint8_t gran, void *arg)
{
	struct hg_tp_granularity g = {r->id, addr, len, 0, gran,
				      *(const uint8_t *)arg};

	reg_emit_granularity(&g);
}

/* Host blocks join the ranges with per-page granularity once advised. */
static void promote_host_block(uintptr_t p)
{
	struct reg_host_block b;
	struct reg_dev_info d;
	struct reg_ptr r;

	if (reg_dev_find(p, &d) || !reg_host_find(p, &b))
		return;
	reg_track_resolve(p, &r); /* traces the block, assigns its id */
	d = (struct reg_dev_info){b.addr, b.size, r.id, 0, 0, b.api,
				  HG_MEM_SYSTEM, HG_GRAN_FINE};
	reg_dev_add(&d);
}

void reg_track_granularity(const void *p, size_t n, uint8_t gran,
			   uint8_t source)
{
	uintptr_t lo = (uintptr_t)p & ~(PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + n + PAGE - 1) & ~(PAGE - 1);

	promote_host_block((uintptr_t)p);
	reg_dev_set_gran(lo, hi - lo, gran, emit_gran_piece, &source);
}

static void change_granularity(const void *p, size_t n, int advice)
{
	reg_track_granularity(p, n,
			      advice == REG_ADVISE_SET_COARSE ? HG_GRAN_COARSE
							      : HG_GRAN_FINE,
			      HG_GRAN_SRC_ADVISE);
}

/* An advise or prefetch record, with the allocation the range starts in. */
void reg_track_range_begin(uint8_t api, const void *p, size_t n, int device,
			   struct hg_tp_range_op *op)
{
	struct reg_ptr r;

	*op = (struct hg_tp_range_op){
		.addr = (uintptr_t)p, .size = n, .device = device,
		.api = api, .callsite = reg_site_capture(SKIP_FRAMES),
	};
	reg_track_resolve((uintptr_t)p, &r);
	op->id = r.id;
	op->mem = r.mem;
}

void reg_track_advise(struct hg_tp_range_op *op, int rc)
{
	op->rc = rc;
	reg_emit_advise(op);
	if (rc == 0 && op->size && (op->advice == REG_ADVISE_SET_COARSE ||
				    op->advice == REG_ADVISE_UNSET_COARSE))
		change_granularity((const void *)(uintptr_t)op->addr, op->size,
				   op->advice);
}

void reg_track_prefetch(struct hg_tp_range_op *op, int rc)
{
	op->rc = rc;
	reg_emit_prefetch(op);
}

uint64_t reg_track_caller_site(uintptr_t ip)
{
	return reg_site_from_ip(ip);
}

void reg_track_memcpy(uint8_t api, int rc, void *dst, const void *src,
		      size_t n, int kind, uint64_t stream, int async)
{
	struct hg_tp_memcpy m = {
		.dst = (uintptr_t)dst, .src = (uintptr_t)src, .size = n,
		.stream = stream, .kind = kind, .rc = rc, .api = api,
		.async = (uint8_t)async,
		.callsite = reg_site_capture(SKIP_FRAMES),
	};
	struct reg_ptr d, s;

	reg_track_resolve(m.dst, &d);
	reg_track_resolve(m.src, &s);
	m.dst_id = d.id;
	m.dst_mem = d.mem;
	m.src_id = s.id;
	m.src_mem = s.mem;
	reg_emit_memcpy(&m);
}

void reg_track_memset(uint8_t api, int rc, void *dst, int value, size_t n,
		      uint64_t stream)
{
	struct hg_tp_memset m = {
		.dst = (uintptr_t)dst, .size = n, .stream = stream,
		.value = value, .rc = rc, .api = api,
		.callsite = reg_site_capture(SKIP_FRAMES),
	};
	struct reg_ptr d;

	reg_track_resolve(m.dst, &d);
	m.dst_id = d.id;
	m.dst_mem = d.mem;
	reg_emit_memset(&m);
}

uint64_t reg_track_launch_site(void)
{
	return reg_site_capture(SKIP_FRAMES);
}

void reg_track_fork_prepare(void)
{
	reg_site_fork_prepare();
	reg_dev_fork_prepare();
	reg_host_fork_prepare();
}

void reg_track_fork_parent(void)
{
	reg_host_fork_parent();
	reg_dev_fork_parent();
	reg_site_fork_parent();
}

void reg_track_fork_child(void)
{
	reg_host_fork_child();
	reg_dev_fork_child();
	reg_site_fork_child();
}
