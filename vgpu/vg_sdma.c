/* SPDX-License-Identifier: MIT */
/*
 * The SDMA engine's packets (SDMA 4.x, gfx9), as ROCr's blit engine
 * writes them: linear copies and constant fills move real bytes, fences
 * and atomics update signals, a trap raises the runtime's event, and a
 * memory poll holds the queue until its condition holds.  Read and write
 * pointers count bytes; packets may wrap around the ring.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vg.h"
#include "vg_sdma.h"
#include "vg_signal.h"
#include "vg_queue.h"

enum {
	OP_NOP = 0, OP_COPY = 1, OP_WRITE = 2, OP_FENCE = 5, OP_TRAP = 6,
	OP_POLL_REGMEM = 8, OP_ATOMIC = 10, OP_CONST_FILL = 11, OP_TIMESTAMP = 13,
	OP_GCR = 17,
};

struct ring {
	const uint32_t *dw;
	uint64_t ndw, at;	/* at: the packet's first dword, unwrapped */
};

static uint32_t dw(const struct ring *r, uint64_t i)
{
	return __atomic_load_n(&r->dw[(r->at + i) % r->ndw], __ATOMIC_ACQUIRE);
}

static uint64_t addr(const struct ring *r, uint64_t i)
{
	return (uint64_t)dw(r, i) | (uint64_t)dw(r, i + 1) << 32;
}

static void copy(const struct ring *r)
{
	uint64_t n = (dw(r, 1) & 0x3fffffffu) + 1;
	void *src = vg_mem_host(addr(r, 3), n), *dst = vg_mem_host(addr(r, 5), n);
	memmove(dst, src, n);
}

static void fill(const struct ring *r)
{
	uint64_t n = (dw(r, 4) & 0x3fffffffu) + 1;
	uint32_t v = dw(r, 3);
	unsigned char *dst = vg_mem_host(addr(r, 1), n);
	for (uint64_t i = 0; i < n; i++)
		dst[i] = (unsigned char)(v >> (8 * (i & 3)));
}

static int poll_met(const struct ring *r)
{
	uint32_t h = dw(r, 0);
	if (!(h >> 31))
		return 1; /* a register poll: an HDP flush */
	uint32_t v = *(volatile uint32_t *)vg_mem_host(addr(r, 1), 4);
	uint32_t want = dw(r, 3), m = dw(r, 4);
	v &= m;
	switch ((h >> 28) & 7) {
	case 0: return 1;
	case 1: return v < want;
	case 2: return v <= want;
	case 3: return v == want;
	case 4: return v != want;
	case 5: return v >= want;
	case 6: return v > want;
	}
	return 1;
}

/* The packet's length in dwords after running it, 0 to wait, -1 for an
 * opcode this engine does not know. */
static int64_t run(const struct ring *r)
{
	uint32_t h = dw(r, 0);
	switch (h & 0xff) {
	case OP_NOP:
		return 1 + ((h >> 16) & 0x3fff);
	case OP_COPY:
		copy(r);
		return 7;
	case OP_WRITE: {
		uint64_t n = (uint64_t)(dw(r, 3) & 0xfffff) + 1;
		uint32_t *dst = vg_mem_host(addr(r, 1), n * 4);
		for (uint64_t i = 0; i < n; i++)
			dst[i] = dw(r, 4 + i);
		return 4 + (int64_t)n;
	}
	case OP_FENCE:
		__atomic_store_n((uint32_t *)vg_mem_host(addr(r, 1), 4), dw(r, 3),
				 __ATOMIC_RELEASE);
		vg_signal_value_written(addr(r, 1));
		return 4;
	case OP_TRAP:
		vg_event_signal_all();
		return 2;
	case OP_POLL_REGMEM:
		return poll_met(r) ? 6 : 0;
	case OP_ATOMIC:
		__atomic_fetch_add((int64_t *)vg_mem_host(addr(r, 1), 8),
				   (int64_t)addr(r, 3), __ATOMIC_SEQ_CST);
		vg_signal_value_written(addr(r, 1));
		return 8;
	case OP_CONST_FILL:
		fill(r);
		return 5;
	case OP_TIMESTAMP:
		__atomic_store_n((uint64_t *)vg_mem_host(addr(r, 1), 8), vg_now_ns(),
				 __ATOMIC_RELEASE);
		return 3;
	case OP_GCR:
		return 5;
	}
	return -1;
}

int vg_sdma_serve(struct vg_queue *q)
{
	uint64_t *wp = vg_mem_host(q->wptr_va, 8), *rp = vg_mem_host(q->rptr_va, 8);
	struct ring r = { vg_mem_host(q->ring_va, q->ring_size), q->ring_size / 4, 0 };
	uint64_t rd = __atomic_load_n(rp, __ATOMIC_ACQUIRE);
	uint64_t wr = __atomic_load_n(wp, __ATOMIC_ACQUIRE);
	int done = 0;
	while (r.ndw && rd < wr && !q->unknown) {
		r.at = rd / 4;
		int64_t len = run(&r);
		if (len < 0) {
			fprintf(stderr, "hipgrain: virtual GPU: SDMA opcode %u unknown;"
				" its queue stops\n", dw(&r, 0) & 0xff);
			q->unknown = 1;
			break;
		}
		if (!len)
			break;
		vg_log("sdma q%p at %llu op %u len %lld", (void *)q,
		       (unsigned long long)rd, dw(&r, 0) & 0xff, (long long)len);
		rd += (uint64_t)len * 4;
		__atomic_store_n(rp, rd, __ATOMIC_RELEASE);
		done++;
	}
	return done;
}
