/* SPDX-License-Identifier: MIT */
/*
 * Races between the waves of a work-group: two accesses to the same dword
 * of LDS, or of global memory, by different waves, at least one a plain
 * write, with no barrier between them.  The interpreter runs each wave to
 * its barrier in turn, so the accesses between two barriers form an epoch
 * whose order is the interpreter's choice, not the program's: any two in
 * one epoch that conflict are a race, whichever ran first.  Atomics do not
 * race with atomics.
 *
 * Each dword keeps, for the epoch it was last touched in, the waves that
 * read, wrote and did atomics on it, and the instructions of the first two
 * waves of each class (two, so that one is always another wave's).  Every
 * access reads the waves, and only a race reads the instructions, so the
 * two sit in separate arrays of the same index: the waves' cells dense,
 * several to a cache line, since a group's first touch of each misses the
 * cache.  LDS has one cell per dword.  Global memory is shadowed by runs of RUN
 * dwords, aligned, a cell per dword indexed by its offset in the run: a
 * table of SLOTS runs the group touched, found by the run's number, so
 * that a wave's neighbouring dwords take one look-up and sit side by side.
 * A run of an earlier epoch counts as free, and a cell of an earlier epoch
 * as empty, so that neither is ever cleared.  A dword whose run finds no
 * free slot goes unchecked, and is counted: the dispatch says how many.
 */
#include <stdlib.h>
#include <string.h>

#include "vx_int.h"

#define RUN 64u		/* dwords a slot shadows: a wave's dword each, and
			 * the bits of a mask of them */
#define SLOTS (1u << 12)	/* runs a frame shadows, a power of two */
#define PROBES 8

/* A card writes LDS and memory by the byte, so two waves on different
 * bytes of one dword do not race (a histogram's byte counters): each
 * class keeps its waves byte by byte, 16 bits of waves since a gfx9
 * work-group has at most 1,024 items of wave64, the four bytes' masks as
 * the lanes of one word.  The masks lead, so that a cell on its own 32
 * bytes holds each word aligned. */
struct cell {
	uint64_t mask[VX_R_CLASSES];	/* waves, bit by wave index, 16 bits a byte */
	uint32_t epoch;	/* below EPOCHS; above, the first join's wave and class */
	uint32_t first;	/* the first join's instruction, as a who's */
};
_Static_assert(sizeof(struct cell) == 32, "two cells to a cache line");

/* A byte mask's 16-bit lanes of a class's mask. */
static uint64_t lanes(unsigned bytes)
{
	static const uint64_t l[16] = {
#define L(b) (((b) & 1 ? 0xffffull : 0) | ((b) & 2 ? 0xffffull << 16 : 0) |         \
	      ((b) & 4 ? 0xffffull << 32 : 0) | ((b) & 8 ? 0xffffull << 48 : 0))
		L(0), L(1), L(2),  L(3),  L(4),	 L(5),	L(6),  L(7),
		L(8), L(9), L(10), L(11), L(12), L(13), L(14), L(15),
#undef L
	};
	return l[bytes & 15];
}

/* A wave's bit in each byte's lane: the wave on the whole dword. */
static uint64_t whole(uint32_t me)
{
	return me * 0x0001000100010001ull;
}

/* The waves of a class's mask, bytes folded together. */
static uint32_t fold(uint64_t v)
{
	v |= v >> 32;
	return (uint32_t)(v | v >> 16) & 0xffff;
}

/* The waves of class cls on the bytes of the dword given, bit by byte. */
static uint32_t waves(const struct cell *c, int cls, unsigned bytes)
{
	return fold(c->mask[cls] & lanes(bytes));
}

/* The instructions of a cell's first two waves of each class, valid where
 * its masks say: a class's first join writes [0] and its second [1], so a
 * cell cleared for a new epoch needs no clearing here.  An instruction is
 * kept as its distance from the kernel's entry, which a code object's
 * size bounds far below 32 bits' reach: half the bytes, as the first two
 * waves of each class write these on the check's every first touch.
 * The cell's very first join keeps its [0] in the cell instead, so that a
 * dword one wave touches in an epoch (most of a tiled kernel's loads)
 * leaves its who, another cache line, alone. */
struct who {
	uint32_t pc[VX_R_CLASSES][2];
	uint8_t wave[VX_R_CLASSES][2];
};
_Static_assert(sizeof(struct who) == 32, "two of these to a cache line");

/* Epochs a cell counts before the tables are cleared: the bits of its
 * epoch word above them hold its first join's wave (4 bits) and class (2),
 * and whether it has had one (the top bit). */
#define EPOCHS (1u << 24)

static uint32_t first_of(unsigned wave, int cls)
{
	return (1u << 7 | (uint32_t)cls << 4 | wave) << 24;
}

/* Who keeps a join, in the cell for its first of all, else in o. */
static void keep(struct cell *c, struct who *o, int cls, int n, uint32_t pc, unsigned wave)
{
	if (n == 0 && c->epoch < EPOCHS) {
		c->epoch |= first_of(wave, cls);
		c->first = pc;
		return;
	}
	o->pc[cls][n] = pc;
	o->wave[cls][n] = (uint8_t)wave;
}

/* The wave and the instruction of class k's [j], kept where keep put it. */
static unsigned kept_wave(const struct cell *c, const struct who *o, int k, int j)
{
	if (j == 0 && c->epoch >= EPOCHS && ((c->epoch >> 28) & 3) == (unsigned)k)
		return (c->epoch >> 24) & 15;
	return o->wave[k][j];
}

static uint32_t kept_pc(const struct cell *c, const struct who *o, int k, int j)
{
	if (j == 0 && c->epoch >= EPOCHS && ((c->epoch >> 28) & 3) == (unsigned)k)
		return c->first;
	return o->pc[k][j];
}

static uint32_t off(const struct vx_wave *w)
{
	return (uint32_t)(w->pc - w->c->code_va);
}

static uint64_t at(const struct vx_wave *w, uint32_t pc)
{
	return w->c->code_va + (uint64_t)(int64_t)(int32_t)pc;
}

/* A slot of the global table: the run it shadows, and the last epoch
 * that touched it. */
struct slot {
	uint64_t key;		/* the run's number + 1; 0: never used */
	uint32_t epoch;
};

/* A wave's LDS addresses, a lane each, as a shape: the lowest, and the
 * dwords from it the lanes take, bit by dword, where all lie within a
 * block of RUN dwords and agree in their bytes below a dword's (ok). */
struct shape {
	uint32_t a[VX_LANES];
	uint64_t exec;	/* 0: none kept */
	uint32_t lo;
	int ok;
	uint64_t dwords;
};

struct vx_race_shadow {
	uint32_t epoch;
	/* The last global dword a wave touched, and how: lanes of a wave
	 * often share one, and the second touch changes nothing. */
	uint64_t last_key;
	uint32_t last_epoch;
	unsigned last_wave;
	int last_cls;
	unsigned last_bytes;	/* of that dword, bit by byte */
	/* The run found last, valid in its epoch: a wave's lanes mostly
	 * stay in one. */
	uint64_t run_key;
	uint32_t run_epoch;
	size_t run;		/* its first cell's index */
	uint32_t lds_cells;
	uint32_t lds_room;	/* cells lds has room for: a kept shadow's may be more */
	struct cell *lds;
	struct who *lds_who;
	struct slot *slots;
	struct cell *cells;	/* SLOTS x RUN */
	struct who *who;	/* SLOTS x RUN, as cells */
	struct shape shapes[2];	/* the newer shape_next */
	unsigned shape_next;
	/* what the allocator gave for each of the four arrays above, which
	 * start on a cache line of it */
	void *raw[4];
};

/* An array of n bytes on whole cache lines, zeroed or not, its block in
 * *raw: a cell or a who then never straddles two lines. */
static void *lined(void **raw, size_t n, int zero)
{
	free(*raw);
	*raw = zero ? calloc(1, n + 63) : malloc(n + 63);
	return *raw ? (void *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63) : NULL;
}

/* Shadows outlive their dispatch, kept here for the next one: a program
 * of many small kernels would otherwise have the allocator clear, or the
 * kernel fault in, a frame's whole table on each of them, for the few
 * cells a dispatch touches.  A kept one needs no clearing, as its epoch
 * goes on.  Slots taken and given by exchange, with no lock a fork could
 * leave held. */
#define SPARES 64u
static struct vx_race_shadow *spares[SPARES];

static struct vx_race_shadow *take(void)
{
	for (unsigned i = 0; i < SPARES; i++) {
		struct vx_race_shadow *s = __atomic_exchange_n(&spares[i], NULL,
							       __ATOMIC_ACQUIRE);
		if (s)
			return s;
	}
	return calloc(1, sizeof(struct vx_race_shadow));
}

static void drop(struct vx_race_shadow *s)
{
	for (int i = 0; i < 4; i++)
		free(s->raw[i]);
	free(s->slots);
	free(s);
}

static void give(struct vx_race_shadow *s)
{
	for (unsigned i = 0; i < SPARES; i++) {
		struct vx_race_shadow *none = NULL;
		if (__atomic_compare_exchange_n(&spares[i], &none, s, 0, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
	}
	drop(s);
}

int vx_race_alloc(struct vx_frame *f, uint32_t lds)
{
	struct vx_race_shadow *s = take();
	if (!s)
		return -1;
	f->g.race = s;
	uint32_t need = (lds + 3) / 4 ? (lds + 3) / 4 : 1;
	if (s->lds_room < need) {
		/* new cells are of epoch 0, which none is ever in */
		s->lds = lined(&s->raw[0], need * sizeof(*s->lds), 1);
		s->lds_who = lined(&s->raw[1], need * sizeof(*s->lds_who), 0);
		s->lds_room = s->lds && s->lds_who ? need : 0;
	}
	s->lds_cells = (lds + 3) / 4;
	if (!s->slots) {
		s->slots = calloc(SLOTS, sizeof(*s->slots));
		s->cells = lined(&s->raw[2], (size_t)SLOTS * RUN * sizeof(*s->cells), 1);
		s->who = lined(&s->raw[3], (size_t)SLOTS * RUN * sizeof(*s->who), 0);
	}
	return s->lds_room && s->slots && s->cells && s->who ? 0 : -1;
}

void vx_race_free(struct vx_frame *f)
{
	struct vx_race_shadow *s = f->g.race;
	if (!s)
		return;
	if (s->lds_room && s->slots && s->cells && s->who)
		give(s);
	else
		drop(s);
	f->g.race = NULL;
}

/* A new epoch: at a barrier, and at each group's start.  Past the
 * counter's end every cell is cleared, so that none seems current. */
void vx_race_epoch(struct vx_group *g)
{
	struct vx_race_shadow *s = g->race;
	if (++s->epoch < EPOCHS)
		return;
	memset(s->lds, 0, sizeof(*s->lds) * s->lds_room);
	memset(s->slots, 0, sizeof(*s->slots) * SLOTS);
	memset(s->cells, 0, sizeof(*s->cells) * SLOTS * RUN);	/* not who: see it */
	s->run_epoch = s->last_epoch = 0;
	s->epoch = 1;
}

void vx_race_add(struct vx_result *r, const struct vx_race *x)
{
	for (unsigned i = 0; i < r->nraces; i++) {
		struct vx_race *m = &r->races[i];
		if (m->pc[0] == x->pc[0] && m->pc[1] == x->pc[1] && m->lds == x->lds) {
			m->count += x->count;
			m->lo = x->lo < m->lo ? x->lo : m->lo;
			m->hi = x->hi > m->hi ? x->hi : m->hi;
			return;
		}
	}
	if (r->nraces == VX_RACES)
		r->races_lost += x->count;
	else
		r->races[r->nraces++] = *x;
}

/* The pair, the write first (of two writes, the lower address first): the
 * same two instructions make one row whichever wave ran first. */
static void report(struct vx_wave *w, uint64_t pc, int cls, uint64_t other, int ocls,
		   uint64_t lo, unsigned n, int lds)
{
	int swap = ocls != VX_R_READ && (cls == VX_R_READ || (cls == ocls && other < pc));
	struct vx_race x = {
		.pc = { swap ? other : pc, swap ? pc : other },
		.cls = { (uint8_t)(swap ? ocls : cls), (uint8_t)(swap ? cls : ocls) },
		.lo = lo, .hi = lo + n - 1, .count = 1, .lds = (uint8_t)lds,
	};
	vx_race_add(w->c->r, &x);
}

/* What each class of access conflicts with, as class bits.  A read does
 * not race with an atomic: an atomic load compiles to a plain load (the
 * first read of a compare-and-swap loop), so the read may be one. */
static const unsigned conflicts[VX_R_CLASSES] = {
	[VX_R_READ] = 1u << VX_R_WRITE,
	[VX_R_WRITE] = 1u << VX_R_READ | 1u << VX_R_WRITE | 1u << VX_R_ATOMIC,
	[VX_R_ATOMIC] = 1u << VX_R_WRITE,
};

/* The wave joins the cell's class cls, its instruction kept while the
 * class has fewer than two waves. */
static void join(struct cell *c, struct who *o, uint32_t me, unsigned wave, int cls,
		 uint32_t pc, unsigned bytes)
{
	uint32_t had = waves(c, cls, 0xf);
	c->mask[cls] |= lanes(bytes) & whole(me);
	if (had & me)
		return;
	int n = had ? 1 : 0;
	if (n == 0 || (had & (had - 1)) == 0) {
		keep(c, o, cls, n, pc, wave);
	}
}

/* One wave's access to one cell of the current epoch: 1 when it races. */
static int touch(struct cell *c, struct who *o, uint32_t epoch, unsigned wave, int cls,
		 uint32_t pc, unsigned bytes, uint32_t *other, int *ocls)
{
	uint32_t me = 1u << wave;
	if (c->epoch % EPOCHS != epoch)
		*c = (struct cell){ .epoch = epoch };
	int hit = 0;
	for (int k = 0; k < VX_R_CLASSES && !hit; k++) {
		uint32_t them = waves(c, k, bytes) & ~me;
		if (!((conflicts[cls] >> k) & 1) || !them)
			continue;
		/* of the two waves kept, one that touched these bytes, else
		 * one that is not this one */
		uint32_t all = waves(c, k, 0xf);
		int two = (all & (all - 1)) != 0;	/* else [1] was never written */
		unsigned w0 = kept_wave(c, o, k, 0), w1 = two ? kept_wave(c, o, k, 1) : 0;
		int j = (them >> w0) & 1		  ? 0
			: two && ((them >> w1) & 1) ? 1
						    : two && w0 == wave;
		*other = kept_pc(c, o, k, j);
		*ocls = k;
		hit = 1;
	}
	join(c, o, me, wave, cls, pc, bytes);
	return hit;
}

/* The bytes of dword d that n bytes at a cover, bit by byte. */
static unsigned span(uint64_t d, uint64_t a, unsigned n)
{
	uint64_t lo = a > 4 * d ? a - 4 * d : 0, hi = a + n < 4 * d + 4 ? a + n - 4 * d : 4;
	return ((1u << hi) - 1) & ~((1u << lo) - 1);
}

void vx_race_lds(struct vx_wave *w, uint64_t a, unsigned n, int cls)
{
	struct vx_race_shadow *s = w->g->race;
	uint64_t first = a / 4, last = (a + n - 1) / 4;
	for (uint64_t d = first; d <= last && d < s->lds_cells; d++) {
		uint32_t other;
		int ocls;
		if (touch(&s->lds[d], &s->lds_who[d], s->epoch, w->id, cls, off(w),
			  span(d, a, n), &other, &ocls))
			report(w, w->pc, cls, at(w, other), ocls, a, n, 1);
	}
}

/* The index of the first cell of run key (its number + 1) in the current
 * epoch, claiming a slot of an earlier epoch for it: its cells are all
 * older, so count as empty.  NONE when every slot it may take is the
 * epoch's. */
#define NONE SIZE_MAX
static size_t find(struct vx_race_shadow *s, uint64_t key)
{
	if (s->run_key == key && s->run_epoch == s->epoch)
		return s->run;
	uint64_t h = key ^ (key >> 12) ^ (key >> 24);
	for (unsigned i = 0; i < PROBES; i++) {
		unsigned k = (unsigned)(h + i) & (SLOTS - 1);
		struct slot *t = &s->slots[k];
		if (t->key == key || t->epoch != s->epoch) {
			t->key = key;
			t->epoch = s->epoch;
			s->run_key = key, s->run_epoch = s->epoch;
			s->run = (size_t)k * RUN;
			return s->run;
		}
	}
	return NONE;
}

void vx_race_global(struct vx_wave *w, uint64_t va, unsigned n, int cls)
{
	struct vx_race_shadow *s = w->g->race;
	for (uint64_t d = va / 4; d <= (va + n - 1) / 4; d++) {
		unsigned bytes = span(d, va, n);
		if (s->last_key == d + 1 && s->last_epoch == s->epoch && s->last_wave == w->id &&
		    s->last_cls == cls && !(bytes & ~s->last_bytes))
			continue;
		s->last_bytes = s->last_key == d + 1 ? s->last_bytes | bytes : bytes;
		s->last_key = d + 1, s->last_epoch = s->epoch, s->last_wave = w->id;
		s->last_cls = cls;
		size_t run = find(s, d / RUN + 1);
		if (run == NONE) {
			w->c->r->races_unchecked++;
			continue;
		}
		size_t i = run + d % RUN;
		uint32_t other;
		int ocls;
		if (touch(&s->cells[i], &s->who[i], s->epoch, w->id, cls, off(w), bytes, &other,
			  &ocls))
			report(w, w->pc, cls, at(w, other), ocls, va, n, 0);
	}
}

/* One wave's access to a cell that no other wave's access conflicts with:
 * the wave joins its class; 0 when another's does conflict.  Inlined in
 * the loops of a wave's dwords, and a cell of an earlier epoch written
 * whole, never read back: its masks were empty. */
static inline __attribute__((always_inline)) int quiet(struct cell *c, struct who *o,
							uint32_t epoch, unsigned wave,
							int cls, uint32_t pc)
{
	uint64_t me = whole(1u << wave);
	if (c->epoch % EPOCHS != epoch) {
		*c = (struct cell){ .epoch = epoch | first_of(wave, cls), .first = pc };
		c->mask[cls] = me;
		return 1;
	}
	uint64_t others = 0;
	for (int k = 0; k < VX_R_CLASSES; k++)
		others |= c->mask[k] & (0 - (uint64_t)((conflicts[cls] >> k) & 1));
	if (others & ~me)
		return 0;
	uint64_t had = c->mask[cls];
	c->mask[cls] = had | me;
	if (had & me)
		return 1;
	uint32_t h = fold(had);
	if ((h & (h - 1)) == 0) {	/* none yet, or one */
		keep(c, o, cls, h != 0, pc, wave);
	}
	return 1;
}

static void shape_of(struct shape *h, const uint32_t *a, uint64_t exec)
{
	uint32_t a0 = a[__builtin_ctzll(exec)], lo = a0, hi = a0, odd = 0;
	uint64_t m = 0;
	VX_EACH_LANE(exec, {
		lo = a[l] < lo ? a[l] : lo;
		hi = a[l] > hi ? a[l] : hi;
		odd |= a[l] ^ a0;
	});
	h->ok = odd % 4 == 0 && hi - lo < 4 * RUN;
	if (h->ok)
		VX_EACH_LANE(exec, m |= 1ull << (a[l] - lo) / 4);
	memcpy(h->a, a, sizeof(h->a));
	h->exec = exec, h->lo = lo, h->dwords = m;
}

/* A wave's whole LDS dwords, nd a lane from a[lane] + o, all in one block
 * of RUN: the block and the dwords the lanes take as a mask (1), or 0.
 * The shapes of the last two address rows are kept: a tile's loop reads
 * from the same few rows at offsets that the instructions change. */
static int one_block(struct vx_race_shadow *s, const uint32_t *a, uint64_t exec, uint64_t o,
		     unsigned nd, uint64_t *block, uint64_t *mask)
{
	struct shape *h = &s->shapes[0];
	if (h->exec != exec || memcmp(h->a, a, sizeof(h->a))) {
		h = &s->shapes[1];
		if (h->exec != exec || memcmp(h->a, a, sizeof(h->a))) {
			h = &s->shapes[s->shape_next ^= 1];
			shape_of(h, a, exec);
		}
	}
	if (!h->ok)
		return 0;
	uint64_t x = h->lo + o, end = x + 4 * (uint64_t)(63 - __builtin_clzll(h->dwords) + nd) - 1;
	if (x % 4 || x / 4 / RUN != end / 4 / RUN)
		return 0;
	uint64_t m = 0;
	for (unsigned i = 0; i < nd; i++)
		m |= h->dwords << i;
	*block = x / 4 / RUN, *mask = m << (x / 4 % RUN);
	return 1;
}

/* A wave's LDS accesses of unit bytes at a[lane] + o, as
 * vx_race_wave takes global ones: each dword once and quietly, the lanes
 * shown one by one only when one races or an address is not a dword's.
 * A tile's row read by the lanes of a row is one look-up, not sixteen. */
void vx_race_lds_wave(struct vx_wave *w, const uint32_t *a, uint64_t exec, uint64_t o,
		      unsigned unit, int cls)
{
	struct vx_race_shadow *s = w->g->race;
	uint64_t block = UINT64_MAX, seen = 0;
	uint32_t pc = off(w);
	/* the usual access, a tile's row or column: its dwords gathered
	 * first, where all are in the shadow */
	if (exec && unit >= 4 && unit <= 16 && unit % 4 == 0 &&
	    one_block(s, a, exec, o, unit / 4, &block, &seen) &&
	    block * RUN + (63 - (unsigned)__builtin_clzll(seen)) < s->lds_cells) {
		struct cell *c = &s->lds[block * RUN];
		struct who *h = &s->lds_who[block * RUN];
		for (uint64_t m = seen; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctzll(m);
			if (!quiet(&c[i], &h[i], s->epoch, w->id, cls, pc))
				goto one_by_one;
		}
		return;
	}
	block = UINT64_MAX, seen = 0;
	for (uint64_t e = exec; e; e &= e - 1) {
		uint64_t x = a[__builtin_ctzll(e)] + o;
		if (x % 4)
			goto one_by_one;
		for (uint64_t d = x / 4; d < x / 4 + unit / 4 && d < s->lds_cells; d++) {
			/* as vx_race_wave's runs: a dword once an instruction */
			if (d / RUN != block)
				block = d / RUN, seen = 0;
			if ((seen >> (d % RUN)) & 1)
				continue;
			seen |= 1ull << (d % RUN);
			if (!quiet(&s->lds[d], &s->lds_who[d], s->epoch, w->id, cls, pc))
				goto one_by_one;
		}
	}
	return;
one_by_one:
	for (uint64_t e = exec; e; e &= e - 1)
		vx_race_lds(w, a[__builtin_ctzll(e)] + o, unit, cls);
}

/* The most runs a wave's access is gathered into: a tile's rows, one a
 * run, are a few. */
#define GATHER 8

/* A wave's nd dwords a lane from a[lane], gathered into the runs they
 * fall in, in the order the lanes first reach them: each run's number
 * and its dwords the lanes take, as a mask.  The runs' count, or 0 when
 * a lane's dwords cross a run's end or the runs are more than GATHER. */
static unsigned gather(const uint64_t *a, uint64_t exec, unsigned nd, uint64_t *run,
		       uint64_t *mask)
{
	uint64_t each = (1ull << nd) - 1, cross = 0, r0 = a[__builtin_ctzll(exec)] / 4 / RUN, m = 0;
	unsigned n = 1, at = 0;
	run[0] = r0, mask[0] = 0;
	VX_EACH_LANE(exec, {
		uint64_t d = a[l] / 4, r = d / RUN;
		cross |= (d + nd - 1) / RUN ^ r;
		if (r != r0) {	/* the run's mask kept in m while its lanes last */
			mask[at] |= m, m = 0;
			for (at = 0; at < n && run[at] != r; at++)
				;
			if (at == GATHER)
				return 0;
			if (at == n)
				run[n] = r, mask[n++] = 0;
			r0 = r;
		}
		m |= each << (d % RUN);
	});
	mask[at] |= m;
	return cross ? 0 : n;
}

/* The dwords of n runs, each taken quietly: 0 when one is not, or a run
 * finds no room.  The runs are found first and their cells fetched, so
 * that a group's first touches of them miss the cache together. */
static int runs_quietly(struct vx_wave *w, const uint64_t *run, const uint64_t *mask,
			unsigned n, int cls)
{
	struct vx_race_shadow *s = w->g->race;
	uint32_t pc = off(w);
	size_t at[GATHER];
	for (unsigned k = 0; k < n; k++) {
		if ((at[k] = find(s, run[k] + 1)) == NONE)
			return 0;
		for (uint64_t m = mask[k]; m; m &= m - 1)
			__builtin_prefetch(&s->cells[at[k] + (unsigned)__builtin_ctzll(m)], 1);
	}
	for (unsigned k = 0; k < n; k++) {
		struct cell *c = &s->cells[at[k]];
		struct who *h = &s->who[at[k]];
		for (uint64_t m = mask[k]; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctzll(m);
			if (!quiet(&c[i], &h[i], s->epoch, w->id, cls, pc))
				return 0;
		}
	}
	return 1;
}

/* A wave's aligned accesses of unit bytes, one a lane at a[lane], as the
 * lanes one by one would have shown them.  A lane's dword that the lanes
 * before it touched changes nothing but a race's count; so the dwords are
 * first taken quietly, each once, and only when one races or finds no
 * room are the lanes shown again one by one, for the rows and counts
 * they make (what the quiet pass did, they would have done first).  The
 * runs are claimed in the order the lanes reach them, as one by one. */
void vx_race_wave(struct vx_wave *w, const uint64_t *a, uint64_t exec, unsigned unit, int cls)
{
	struct vx_race_shadow *s = w->g->race;
	uint64_t prev = 0, key = 0, seen = 0;
	size_t run = NONE;
	uint32_t pc = off(w);
	/* the usual access, a dword or a few a lane in a few runs: the
	 * lanes' dwords gathered first, then each looked up once */
	uint64_t runs[GATHER], masks[GATHER];
	unsigned n = exec && unit >= 4 && unit <= 16 && unit % 4 == 0
			     ? gather(a, exec, unit / 4, runs, masks)
			     : 0;
	if (n) {
		if (!runs_quietly(w, runs, masks, n, cls))
			goto one_by_one;
		prev = a[63 - __builtin_clzll(exec)] / 4 + unit / 4;
		goto taken;
	}
	for (uint64_t e = exec; e; e &= e - 1) {
		uint64_t d0 = a[__builtin_ctzll(e)] / 4;
		for (uint64_t d = d0; d < d0 + unit / 4; d++) {
			prev = d + 1;
			if (d / RUN + 1 != key) {
				if ((run = find(s, key = d / RUN + 1)) == NONE)
					goto one_by_one;
				seen = 0;
			}
			/* lanes that repeat a dword of the run (a row broadcast
			 * to a tile's rows) find it as the first left it */
			if ((seen >> (d % RUN)) & 1)
				continue;
			seen |= 1ull << (d % RUN);
			size_t i = run + d % RUN;
			if (!quiet(&s->cells[i], &s->who[i], s->epoch, w->id, cls, pc))
				goto one_by_one;
		}
	}
taken:
	if (prev) {
		s->last_bytes = 0xf;
		s->last_key = prev, s->last_epoch = s->epoch, s->last_wave = w->id;
		s->last_cls = cls;
	}
	return;
one_by_one:
	for (uint64_t e = exec; e; e &= e - 1)
		vx_race_global(w, a[__builtin_ctzll(e)], unit, cls);
}
