/* SPDX-License-Identifier: MIT */
/*
 * The L2's dirty lines of held memory (vx_held: coarse-grained host memory
 * and a peer's coarse-grained device memory).  The GPU's store there stays
 * in its L2: the GPU's own loads see it, the host and other GPUs do not,
 * until a release that reaches these lines writes it back (isa_coh's
 * ISA_COH_WB: gfx90a's buffer_wbl2, gfx942's with sc1) or the kernel ends.
 * A store isa_coh sends past the L2 (gfx942's sc0 sc1) writes its line
 * back first, then memory.  One table for the dispatch, shared by its
 * interpreter threads as a card's compute units share one L2.  Only the
 * bytes stored are written back, so the host's writes to a line's other
 * bytes survive; a line that must leave its set for another is written
 * back, as a card evicts.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "vx_int.h"

#define SETS 4096	/* direct-mapped */
#define STRIPES 64	/* locks, a set's by its index */
#define LINE_MAX 128

struct line {
	uint64_t tag;		/* the line's number + 1; 0: empty */
	uint64_t mask[LINE_MAX / 64];	/* the bytes stored */
	uint8_t data[LINE_MAX];
	uint64_t pc;		/* the store that made it dirty, for a
				 * dispatch cut short (vx_wback_unwritten) */
	bool listed;		/* its set is in `list` */
};

struct vx_wback {
	const struct vx_device *dev;
	unsigned size;		/* the L2's line */
	unsigned long dirty;	/* lines held dirty; read without a lock */
	pthread_mutex_t make;	/* the table's making, and `list` */
	pthread_mutex_t flush;	/* one write-back of everything at a time */
	pthread_mutex_t lock[STRIPES];
	struct line *set;	/* made at the first store */
	/* The sets that may be dirty, so that a write-back of everything
	 * (a fence in a loop) visits those alone; a set's lock is taken
	 * before `make`, never after. */
	unsigned *list, nlist;
};

struct vx_wback *vx_wback_new(const struct vx_device *dev)
{
	struct vx_wback *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->dev = dev;
	b->size = dev->fam == ISA_GFX908 ? 64u : 128u;
	pthread_mutex_init(&b->make, NULL);
	pthread_mutex_init(&b->flush, NULL);
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&b->lock[i], NULL);
	return b;
}

static unsigned set_of(uint64_t ln)
{
	return (unsigned)((ln * 0x9e3779b97f4a7c15ull) >> 40) % SETS;
}

static bool stored(const struct line *l, unsigned i)
{
	return (l->mask[i / 64] >> (i % 64)) & 1;
}

/* The line's stored bytes to memory, in runs; a page nothing maps any
 * more takes nothing (the card's write would fault nowhere the program
 * sees).  Under the set's lock. */
static void write_back(struct vx_wback *b, struct line *l)
{
	uint64_t va = (l->tag - 1) * b->size;
	struct vx_page p;
	if (!b->dev->page(b->dev->ctx, va - va % VX_PAGE, 1, &p)) {
		uint8_t *mem = p.host + va % VX_PAGE;
		for (unsigned i = 0; i < b->size;) {
			unsigned j = i;
			while (j < b->size && stored(l, j))
				j++;
			if (j > i)
				memcpy(mem + i, l->data + i, j - i);
			i = j + 1;
		}
	}
	bool listed = l->listed;
	memset(l, 0, sizeof(*l));
	l->listed = listed;
	__atomic_fetch_sub(&b->dirty, 1, __ATOMIC_RELAXED);
}

static struct line *table(struct vx_wback *b)
{
	struct line *s = __atomic_load_n(&b->set, __ATOMIC_ACQUIRE);
	if (s)
		return s;
	pthread_mutex_lock(&b->make);
	if (!(s = b->set) && !b->list && (b->list = malloc(SETS * sizeof(*b->list))) &&
	    (s = calloc(SETS, sizeof(*s))))
		__atomic_store_n(&b->set, s, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&b->make);
	return s;
}

/* One line's part of an access: bytes [off, off+k) of line number ln,
 * buf their part of the caller's buffer (NULL: none), pc the store's. */
struct span {
	uint64_t ln, pc;
	unsigned off, k;
	uint8_t *buf;
};

/* Calls fn on each line [va, va+n) touches, under its set's lock.
 * Inline, so that each caller's fn is a direct call on the held store's
 * path (a call through the pointer cost it a tenth more). */
static inline void each_line(struct vx_wback *b, uint64_t va, unsigned n,
		      void (*fn)(struct vx_wback *, struct line *, const struct span *),
		      void *buf, uint64_t pc)
{
	struct line *s = table(b);
	struct span x = { .pc = pc, .buf = buf };
	while (s && n) {
		x.ln = va / b->size;
		x.off = (unsigned)(va % b->size);
		x.k = b->size - x.off < n ? b->size - x.off : n;
		unsigned i = set_of(x.ln);
		pthread_mutex_lock(&b->lock[i % STRIPES]);
		fn(b, &s[i], &x);
		pthread_mutex_unlock(&b->lock[i % STRIPES]);
		x.buf = x.buf ? x.buf + x.k : NULL;
		va += x.k, n -= x.k;
	}
}

static void put(struct vx_wback *b, struct line *l, const struct span *x)
{
	if (l->tag && l->tag != x->ln + 1)
		write_back(b, l);
	if (!l->tag) {
		l->tag = x->ln + 1;
		l->pc = x->pc;
		__atomic_fetch_add(&b->dirty, 1, __ATOMIC_RELAXED);
	}
	if (!l->listed) {
		l->listed = true;
		pthread_mutex_lock(&b->make);
		b->list[b->nlist++] = (unsigned)(l - b->set);
		pthread_mutex_unlock(&b->make);
	}
	memcpy(l->data + x->off, x->buf, x->k);
	for (unsigned i = x->off; i < x->off + x->k; i++)
		l->mask[i / 64] |= 1ull << (i % 64);
}

static void get(struct vx_wback *b, struct line *l, const struct span *x)
{
	if (l->tag != x->ln + 1)
		return;
	for (unsigned i = 0; i < x->k; i++)
		if (stored(l, x->off + i))
			x->buf[i] = l->data[x->off + i];
}

static void drain(struct vx_wback *b, struct line *l, const struct span *x)
{
	if (l->tag == x->ln + 1)
		write_back(b, l);
}

int vx_wback_store(struct vx_wback *b, uint64_t va, const void *buf, unsigned n, uint64_t pc)
{
	if (!table(b))
		return -1;
	each_line(b, va, n, put, (void *)buf, pc);
	return 0;
}

void vx_wback_overlay(struct vx_wback *b, uint64_t va, void *buf, unsigned n)
{
	if (b && __atomic_load_n(&b->dirty, __ATOMIC_RELAXED))
		each_line(b, va, n, get, buf, 0);
}

void vx_wback_range(struct vx_wback *b, uint64_t va, unsigned n)
{
	if (b && __atomic_load_n(&b->dirty, __ATOMIC_RELAXED))
		each_line(b, va, n, drain, NULL, 0);
}

void vx_wback_all(struct vx_wback *b)
{
	struct line *s = b ? __atomic_load_n(&b->set, __ATOMIC_ACQUIRE) : NULL;
	if (!s || !__atomic_load_n(&b->dirty, __ATOMIC_RELAXED))
		return;
	/* One at a time, so that every dirty set is in the list when one
	 * starts; taken out whole, a set stored to meanwhile is listed again,
	 * or is still listed here and written back below. */
	pthread_mutex_lock(&b->flush);
	pthread_mutex_lock(&b->make);
	unsigned n = b->nlist, *mine = n ? malloc(n * sizeof(*mine)) : NULL;
	if (mine) {
		memcpy(mine, b->list, n * sizeof(*mine));
		b->nlist = 0;
	}
	pthread_mutex_unlock(&b->make);
	for (unsigned k = 0; n && k < (mine ? n : SETS); k++) {
		unsigned i = mine ? mine[k] : k;	/* no room: every set */
		pthread_mutex_lock(&b->lock[i % STRIPES]);
		if (mine)
			s[i].listed = false;
		if (s[i].tag)
			write_back(b, &s[i]);
		pthread_mutex_unlock(&b->lock[i % STRIPES]);
	}
	pthread_mutex_unlock(&b->flush);
	free(mine);
}

/* A dirty line as a row: its stored bytes' lowest, highest and count. */
static void line_row(const struct vx_wback *b, const struct line *l, struct vx_l2row *x)
{
	uint64_t va = (l->tag - 1) * b->size;
	unsigned lo = b->size, hi = 0, n = 0;
	for (unsigned i = 0; i < b->size; i++)
		if (stored(l, i)) {
			lo = i < lo ? i : lo;
			hi = i;
			n++;
		}
	struct vx_page p;
	int mapped = !b->dev->page(b->dev->ctx, va - va % VX_PAGE, 1, &p);
	*x = (struct vx_l2row){ .pc = l->pc, .lo = va + lo, .hi = va + hi, .count = n,
				    .region = mapped ? p.region : 0 };
}

void vx_wback_unwritten(const struct vx_wback *b, struct vx_result *r)
{
	/* the dispatch's threads have ended: no lock */
	for (unsigned i = 0; b && b->set && i < SETS; i++) {
		struct vx_l2row x;
		if (!b->set[i].tag)
			continue;
		line_row(b, &b->set[i], &x);
		vx_l2row_add(r->unwritten, &r->nunwritten, VX_UNWRITTEN, &r->unwritten_lost, &x);
	}
	qsort(r->unwritten, r->nunwritten, sizeof(r->unwritten[0]), vx_l2row_cmp);
}

void vx_wback_free(struct vx_wback *b)
{
	if (!b)
		return;
	vx_wback_all(b);
	for (unsigned i = 0; b->set && i < SETS; i++)	/* the threads have ended */
		if (b->set[i].tag)
			write_back(b, &b->set[i]);
	free(b->set);
	free(b->list);
	free(b);
}
