/* SPDX-License-Identifier: MIT */
/*
 * A wave's plain dword loads or stores of global memory whose active
 * lanes all reach one page of device memory: the common shape of a
 * kernel's rows and tiles.  The wave takes one translation, one count of
 * its bytes and one pass of the race check, where the lanes' path
 * (vx_vmem.c) takes each once a lane; and when the lanes' bytes lie side
 * by side, lane after lane, one copy between the page and the registers.
 * A page the L2 holds lines of (vx_hold.c) goes the lanes' way, so that
 * its stale reads are told lane by lane as before.  Lanes over a few
 * pages (a tile's rows, a column's lanes a row apart) take a translation
 * a page, each lane's dwords within its page; anything the lanes' path
 * would do differently (a page not backed, or held, or a translation
 * that pushed out another's) leaves the wave to it, untouched.
 */
#include "vx_int.h"

#ifdef __SSE2__
#include <emmintrin.h>

/* The lowest and highest of v's eight 16-bit elements. */
static int16_t low16(__m128i v)
{
	v = _mm_min_epi16(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
	v = _mm_min_epi16(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
	v = _mm_min_epi16(v, _mm_srli_epi32(v, 16));
	return (int16_t)_mm_cvtsi128_si32(v);
}

static int16_t high16(__m128i v)
{
	v = _mm_max_epi16(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
	v = _mm_max_epi16(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
	v = _mm_max_epi16(v, _mm_srli_epi32(v, 16));
	return (int16_t)_mm_cvtsi128_si32(v);
}

/* one_page for a whole wave, two lanes a step, none waiting on the lane
 * before: the lanes are in the first one's page when none differs from
 * it above the page's bits, and only then are their offsets from the
 * page's start, narrowed to 16 bits (what lies beyond saturates), their
 * span. */
static int one_page_wave(const uint64_t *a, unsigned unit, uint64_t *lo, uint64_t *hi)
{
	uint64_t first = a[0], base = first - first % VX_PAGE;
	const __m128i f = _mm_set1_epi64x((long long)first);
	const __m128i b = _mm_set1_epi64x((long long)base);
	const __m128i step = _mm_set1_epi64x(2 * (long long)unit);
	__m128i want = _mm_set_epi64x((long long)(first + unit), (long long)first);
	__m128i odd = _mm_setzero_si128(), page = odd, gap = odd;
	__m128i mn = _mm_set1_epi16(INT16_MAX), mx = _mm_set1_epi16(INT16_MIN);
	for (int l = 0; l < 64; l += 8) {
		__m128i off[4];
		for (int k = 0; k < 4; k++) {
			__m128i x = _mm_loadu_si128((const __m128i *)(a + l + 2 * k));
			odd = _mm_or_si128(odd, x);
			page = _mm_or_si128(page, _mm_xor_si128(x, f));
			gap = _mm_or_si128(gap, _mm_xor_si128(x, want));
			want = _mm_add_epi64(want, step);
			off[k] = _mm_shuffle_epi32(_mm_sub_epi64(x, b), _MM_SHUFFLE(3, 1, 2, 0));
		}
		__m128i o = _mm_packs_epi32(_mm_unpacklo_epi64(off[0], off[1]),
					    _mm_unpacklo_epi64(off[2], off[3]));
		mn = _mm_min_epi16(mn, o);
		mx = _mm_max_epi16(mx, o);
	}
	uint64_t bits[2], far[2], apart[2];
	_mm_storeu_si128((__m128i *)bits, odd);
	_mm_storeu_si128((__m128i *)far, page);
	_mm_storeu_si128((__m128i *)apart, gap);
	if ((bits[0] | bits[1]) % 4 || (far[0] | far[1]) / VX_PAGE)
		return 0;
	*lo = base + (uint64_t)low16(mn);
	*hi = base + (uint64_t)high16(mx) + unit - 1;
	return *hi - base < VX_PAGE ? 1 + !(apart[0] | apart[1]) : 0;
}
#endif

/* Whether the active lanes' addresses are aligned and in one page: 1,
 * with the lowest and the page's offset; 2 when they are side by side,
 * lane after lane, too. */
static int one_page(const uint64_t *a, uint64_t exec, unsigned unit, uint64_t *lo, uint64_t *hi)
{
	uint64_t first = a[__builtin_ctzll(exec)], next = first, min = first, max = first;
	uint64_t odd = 0;
	int run = 1;
#ifdef __SSE2__
	if (exec == ~0ull)
		return one_page_wave(a, unit, lo, hi);
#endif
	for (uint64_t e = exec; e; e &= e - 1) {
		uint64_t x = a[__builtin_ctzll(e)];
		odd |= x;
		run &= x == next;
		next = x + unit;
		min = x < min ? x : min;
		max = x > max ? x : max;
	}
	if (odd % 4)
		return 0;
	*lo = min, *hi = max + unit - 1;
	return min / VX_PAGE == *hi / VX_PAGE ? 1 + run : 0;
}

/* Between the page (p: the page's first byte) and the registers, one way
 * or the other; one copy when the lanes are side by side in memory and in
 * EXEC, and each moves one dword. */
static void move(uint32_t *const *r, uint8_t *p, const uint64_t *a, uint64_t exec, unsigned n,
		 int side, int st)
{
	int l0 = __builtin_ctzll(exec);
	unsigned k = (unsigned)__builtin_popcountll(exec);
	if (side && n == 1 && exec >> l0 == (k == 64 ? ~0ull : (1ull << k) - 1)) {
		uint8_t *q = p + a[l0] % VX_PAGE;
		if (st)
			memcpy(q, r[0] + l0, 4 * k);
		else
			memcpy(r[0] + l0, q, 4 * k);
		return;
	}
	if (n == 1) {	/* a dword a lane: the common case, its branches out of the loop */
		uint32_t *r0 = r[0];
		/* a whole wave walks no mask */
		if (st)
			VX_EACH_LANE(exec, memcpy(p + a[l] % VX_PAGE, &r0[l], 4));
		else
			VX_EACH_LANE(exec, memcpy(&r0[l], p + a[l] % VX_PAGE, 4));
		return;
	}
	for (uint64_t e = exec; e; e &= e - 1) {
		int l = __builtin_ctzll(e);
		uint8_t *q = p + a[l] % VX_PAGE;
		for (unsigned i = 0; i < n; i++, q += 4) {
			if (st)
				memcpy(q, &r[i][l], 4);
			else
				memcpy(&r[i][l], q, 4);
		}
	}
}

#define VX_RUNS 16	/* pages a wave's lanes may change to, in lanes' order */

/* A run of lanes in one page, as the lanes' path counts it. */
struct run {
	uint64_t page;
	uint32_t lo, hi;
	uint64_t bytes;
};

/* Each active lane's first byte in the host's memory, found with a
 * translation a run of lanes in one page: 0 when a lane is unaligned or
 * leaves its page, a page is not backed or its lines are held, or there
 * are more runs than VX_RUNS; else the runs. */
static unsigned page_runs(struct vx_wave *w, const uint64_t *a, uint64_t exec, unsigned unit,
			  int st, uint8_t **q, struct run *r)
{
	unsigned k = 0;
	uint8_t *base = NULL;
	for (uint64_t e = exec; e; e &= e - 1) {
		int l = __builtin_ctzll(e);
		uint64_t x = a[l], page = x / VX_PAGE;
		uint32_t off = (uint32_t)(x % VX_PAGE), kind;
		if (x % 4 || off + unit > VX_PAGE)
			return 0;
		if (!k || r[k - 1].page != page) {
			uint8_t *p = k == VX_RUNS ? NULL : vx_mem_try(w, x, st, &kind);
			if (!p || vx_held(kind))
				return 0;
			base = p - off;
			r[k++] = (struct run){ page, off, off + unit - 1, 0 };
		}
		struct run *cur = &r[k - 1];
		cur->lo = off < cur->lo ? off : cur->lo;
		cur->hi = off + unit - 1 > cur->hi ? off + unit - 1 : cur->hi;
		cur->bytes += unit;
		q[l] = base + off;
	}
	/* each run's slot still its page's, or its count would go astray */
	for (unsigned i = 0; i < k; i++)
		if (w->c->tlb.vpn[r[i].page % VX_TLB] != r[i].page + 1)
			return 0;
	return k;
}

static int few_pages(struct vx_wave *w, uint32_t *const *regs, const uint64_t *a, uint64_t exec,
		     unsigned n, int st)
{
	uint8_t *q[VX_LANES];
	struct run r[VX_RUNS];
	unsigned k = page_runs(w, a, exec, 4 * n, st, q, r);
	if (!k)
		return 0;
	if (w->g->race)
		vx_race_wave(w, a, exec, 4 * n, st ? VX_R_WRITE : VX_R_READ);
	for (unsigned i = 0; i < k; i++)
		vx_count_span(w, r[i].page, r[i].lo, r[i].hi, r[i].bytes, st);
	if (n == 1 && st)
		VX_EACH_LANE(exec, memcpy(q[l], &regs[0][l], 4));
	else if (n == 1)
		VX_EACH_LANE(exec, memcpy(&regs[0][l], q[l], 4));
	else	/* a lane's dwords before the next lane's: overlapping
		 * stores end as the lanes' path ends them */
		VX_EACH_LANE(exec, for (unsigned i = 0; i < n; i++) {
			if (st)
				memcpy(q[l] + 4 * i, &regs[i][l], 4);
			else
				memcpy(&regs[i][l], q[l] + 4 * i, 4);
		});
	return 1;
}

int vx_vmem_wave(struct vx_wave *w, uint32_t *const *regs, const uint64_t *a, uint64_t exec,
		 unsigned n, int st, int bypass)
{
	uint64_t lo, hi;
	int shape = exec ? one_page(a, exec, 4 * n, &lo, &hi) : 0;
	if (!shape)
		return exec ? few_pages(w, regs, a, exec, n, st) : 0;
	uint32_t kind;
	uint64_t va = a[__builtin_ctzll(exec)];
	uint8_t *p = vx_mem(w, va, st, &kind);	/* faults where the first lane would */
	if (!p)
		return -1;
	if (vx_held(kind))	/* its L2 lines, clean or dirty */
		return 0;
	if (w->g->race)
		vx_race_wave(w, a, exec, 4 * n, st ? VX_R_WRITE : VX_R_READ);
	uint32_t off = (uint32_t)(lo % VX_PAGE);
	vx_count_span(w, lo / VX_PAGE, off, off + (uint32_t)(hi - lo),
		      4ull * n * (unsigned)__builtin_popcountll(exec), st);
	move(regs, p - va % VX_PAGE, a, exec, n, shape == 2, st);
	return 1;
}
