/* SPDX-License-Identifier: MIT */
/*
 * The AQL packet processor (HSA's architected queuing language, and
 * AMD's vendor packets).  A kernel dispatch runs on the interpreter (the
 * runtime's own copies and fills by their meaning, vg_blit.c), then its
 * completion signal is decremented with timestamps.  Barriers wait on
 * their signals as the HSA spec says.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vg.h"
#include "vg_aql.h"
#include "vg_signal.h"
#include "vg_blit.h"
#include "vg_exec.h"
#include "vg_queue.h"

#define PKT 64
enum {
	PKT_VENDOR = 0, PKT_INVALID = 1, PKT_DISPATCH = 2, PKT_BARRIER_AND = 3,
	PKT_AGENT = 4, PKT_BARRIER_OR = 5,
};
enum { AMD_PM4_IB = 1, AMD_BARRIER_VALUE = 2 };

static uint64_t u64(const char *p, int off)
{
	return __atomic_load_n((const uint64_t *)(p + off), __ATOMIC_ACQUIRE);
}

static int barrier_met(const char *pk, int any)
{
	int seen = 0;
	for (int i = 0; i < 5; i++) {
		uint64_t dep = u64(pk, 8 + 8 * i);
		if (!dep)
			continue;
		seen = 1;
		int zero = vg_signal_value(dep) == 0;
		if (any && zero)
			return 1;
		if (!any && !zero)
			return 0;
	}
	return !any || !seen;
}

static int value_met(const char *pk)
{
	int64_t v = vg_signal_value(u64(pk, 8)) & (int64_t)u64(pk, 24);
	int64_t want = (int64_t)u64(pk, 16);
	switch (*(const uint32_t *)(pk + 32)) {
	case 0: return v == want;
	case 1: return v != want;
	case 2: return v < want;
	case 3: return v >= want;
	}
	return 1;
}

/* 1 when the packet retired, 0 when it must wait. */
static int run(struct vg_queue *q, const char *pk, uint64_t pk_va, int type)
{
	switch (type) {
	case PKT_DISPATCH: {
		struct vg_dispatch d;
		memcpy(&d, pk, PKT);
		d.packet_va = pk_va;
		if (!vg_blit_dispatch(d.kernel_object, d.kernarg_address, d.grid_size[0]) &&
		    !vg_exec_dispatch(&d, 0))
			return 0;
		vg_signal_done(d.completion_signal, 1);
		return 1;
	}
	case PKT_BARRIER_AND:
	case PKT_BARRIER_OR:
		if (!barrier_met(pk, type == PKT_BARRIER_OR))
			return 0;
		vg_signal_done(u64(pk, 56), 1);
		return 1;
	case PKT_VENDOR:
		if (*(const uint16_t *)(pk + 2) == AMD_BARRIER_VALUE && !value_met(pk))
			return 0;
		vg_signal_done(u64(pk, 56), 0);
		return 1;
	default:
		if (!q->unknown++)
			fprintf(stderr, "hipgrain: virtual GPU: AQL packet type %d retired"
				" unserved\n", type);
		vg_signal_done(u64(pk, 56), 0);
		return 1;
	}
}

int vg_aql_serve(struct vg_queue *q)
{
	/* The driver evicted the queues after a fatal fault. */
	if (__atomic_load_n(&vg.halted, __ATOMIC_ACQUIRE))
		return 0;
	uint64_t *wp = vg_mem_host(q->wptr_va, 8), *rp = vg_mem_host(q->rptr_va, 8);
	char *ring = vg_mem_host(q->ring_va, q->ring_size);
	uint64_t n = q->ring_size / PKT, r = __atomic_load_n(rp, __ATOMIC_ACQUIRE);
	uint64_t w = __atomic_load_n(wp, __ATOMIC_ACQUIRE);
	int done = 0;
	while (n && r < w) {
		char *pk = ring + (r % n) * PKT;
		uint16_t hdr = __atomic_load_n((uint16_t *)pk, __ATOMIC_ACQUIRE);
		if ((hdr & 0xff) == PKT_INVALID ||
		    !run(q, pk, q->ring_va + (r % n) * PKT, hdr & 0xff))
			break;
		vg_log("aql q%p packet %llu type %x signal 0x%llx", (void *)q,
		       (unsigned long long)r, hdr,
		       (unsigned long long)u64(pk, 56));
		__atomic_store_n((uint16_t *)pk, (uint16_t)PKT_INVALID, __ATOMIC_RELEASE);
		__atomic_store_n(rp, ++r, __ATOMIC_RELEASE);
		done++;
	}
	return done;
}
