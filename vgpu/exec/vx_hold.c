/* SPDX-License-Identifier: MIT */
/*
 * The GPU's L2 as coarse-grained host memory meets it (LLVM's AMDGPUUsage
 * memory model): the first read of a line brings it in, and later reads
 * are served from it, not from memory, until a system-scope invalidate
 * drops it (gfx90a's buffer_invl2, gfx942's buffer_inv sc1) or the kernel
 * ends.  A host write the card would not see is then not seen here
 * either, and each such read is a row: the engine reads memory beside the
 * line to know.  A peer GPU's coarse-grained memory is held the same way
 * (amdkfd maps it MTYPE NC in the reader's L2).  Fine-grained memory is
 * kept coherent by its MTYPE (UC); a GPU's own device memory is not held,
 * so a copy's or another GPU's write to it is seen at once, where a
 * card's L2 could hold the line (doc/testing.md).  The common access pays
 * one test of its page's kind.
 * Each interpreter thread keeps lines of its own, where a card's compute
 * units share one L2: a line one thread holds that another thread's store
 * or atomic changed is no stale line on the card, so the dispatch's
 * threads share a record of the lines the GPU wrote, and a held line that
 * differs from memory is taken again from memory, not counted, where the
 * GPU wrote it.  The GPU's stores reach memory only when vx_wback.c
 * writes them back.  doc/testing.md lists what differs from a card
 * (capacity, eviction, a host write to a line the GPU also wrote).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "vx_int.h"

#define LINES 256	/* direct-mapped */
#define LINE_MAX 128

struct vx_hold {
	uint64_t tag[LINES];	/* the line's number + 1; 0: empty */
	uint8_t data[LINES][LINE_MAX];
};

/* gfx908's L2 line is 64 bytes, gfx90a's and gfx942's 128. */
static unsigned line_bytes(const struct vx_ctx *c)
{
	return c->dev->fam == ISA_GFX908 ? 64u : 128u;
}

/* A line's bit in the dispatch's record of lines the GPU wrote; a bit
 * two lines share loses a stale row, never invents one. */
static uint64_t *written_word(const struct vx_ctx *c, uint64_t ln, uint64_t *bit)
{
	uint64_t h = ln * 0x9e3779b97f4a7c15ull >> 32;
	*bit = 1ull << (h & 63);
	return &c->written[(h >> 6) % VX_HOLD_WRITTEN];
}

/* Whether another thread's store or atomic reached line ln: the fence
 * orders the caller's look at memory before this look at the record,
 * which the writer marked before it wrote memory. */
static bool gpu_wrote(const struct vx_ctx *c, uint64_t ln)
{
	uint64_t bit;
	if (!c->written)
		return false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(written_word(c, ln, &bit), __ATOMIC_SEQ_CST) & bit;
}

void vx_hold_mark(struct vx_wave *w, uint64_t va, unsigned n)
{
	const struct vx_ctx *c = w->c;
	if (!c->written || !n)
		return;
	unsigned size = line_bytes(c);
	for (uint64_t ln = va / size; ln <= (va + n - 1) / size; ln++) {
		uint64_t bit, *word = written_word(c, ln, &bit);
		if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit))
			__atomic_fetch_or(word, bit, __ATOMIC_SEQ_CST);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The slot holding line number ln, filled from memory (mem: the line's
 * first byte) when it held another; NULL when out of memory. */
static uint8_t *slot_of(struct vx_ctx *c, uint64_t ln, const uint8_t *mem, unsigned size)
{
	if (!c->hold && !(c->hold = calloc(1, sizeof(*c->hold))))
		return NULL;
	unsigned i = (unsigned)(ln % LINES);
	if (c->hold->tag[i] != ln + 1) {
		memcpy(c->hold->data[i], mem, size);
		c->hold->tag[i] = ln + 1;
	}
	return c->hold->data[i];
}

void vx_hold_read(struct vx_wave *w, uint64_t va, const uint8_t *mem, void *buf, unsigned n)
{
	struct vx_ctx *c = w->c;
	unsigned size = line_bytes(c);
	uint8_t *out = buf;
	while (n) {
		uint64_t ln = va / size;
		unsigned off = (unsigned)(va % size), k = size - off < n ? size - off : n;
		uint8_t *line = slot_of(c, ln, mem - off, size);
		/* One look at memory decides: another thread may store between
		 * two looks, and a line equal to memory at the first is no
		 * stale read, whatever the second would see. */
		int differs = line && memcmp(line + off, mem, k);
		if (!line) {
			memcpy(out, mem, k);	/* no room: memory, as uncached */
		} else if (differs && gpu_wrote(c, ln)) {
			memcpy(line, mem - off, size);
			memcpy(out, mem, k);
		} else {
			memcpy(out, line + off, k);
			if (differs) {
				struct vx_l2row x = { .pc = w->pc, .lo = va, .hi = va + k - 1,
						      .count = 1, .region = vx_region(w, va) };
				vx_l2row_add(c->r->stales, &c->r->nstales, VX_STALES,
					     &c->r->stales_lost, &x);
			}
		}
		out += k, mem += k, va += k, n -= k;
	}
}

/* The GPU's own store reaches the line it holds (and the dispatch's dirty
 * lines, vx_wback.c); an atomic, done at memory here, drops it, so a
 * later read sees what the atomic left. */
void vx_hold_write(struct vx_wave *w, uint64_t va, const void *buf, unsigned n, int atomic)
{
	struct vx_ctx *c = w->c;
	if (!c->hold)
		return;
	unsigned size = line_bytes(c);
	const uint8_t *in = buf;
	while (n) {
		uint64_t ln = va / size;
		unsigned off = (unsigned)(va % size), k = size - off < n ? size - off : n;
		unsigned i = (unsigned)(ln % LINES);
		if (c->hold->tag[i] == ln + 1) {
			if (atomic)
				c->hold->tag[i] = 0;
			else
				memcpy(c->hold->data[i] + off, in, k);
		}
		in += k, va += k, n -= k;
	}
}

void vx_hold_drop(struct vx_ctx *c)
{
	if (c->hold)
		memset(c->hold->tag, 0, sizeof(c->hold->tag));
}

void vx_hold_free(struct vx_ctx *c)
{
	free(c->hold);
	c->hold = NULL;
}
