/* SPDX-License-Identifier: MIT */
/*
 * The byte form of hg_pack.h: every word the writers pack reads back as
 * written, whatever its size, and undone (hg_unpack_v5_*) as given; each
 * writer's bytes are those of the format as its shape describes it
 * (ref_pack below, the format's model, and written_words, the transforms
 * of hg_pack_v5_* spelt out again); damaged bytes end the reading at the
 * last whole word instead of making one up; and bytes read all at once
 * (hg_unpack_all) cut into the words read a word at a time.
 */
#include <stdio.h>
#include <string.h>

#include "hg_pack.h"

#define MAXW (HG_LAUNCH_HEAD + HG_LAUNCH_WORDS * 64)

static int failed, n, agreed = 1;

static void check(const char *what, int cond)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
	failed |= !cond;
}

#define MAXB (HG_PACK_MAX(MAXW) + HG_PACK_STEP)

/*
 * Whether the values of bytes that end cleanly (hg_unpack_all), cut into
 * whole groups of words (the head, then the rep's), are the k words the
 * word-at-a-time reader read, w: all of them, or all but a group the
 * values fall short of.
 */
static int agree(const struct hg_shape *s, const uint8_t *t, size_t len,
		 const uint64_t *w, size_t k)
{
	static uint64_t v[2 * MAXB], x[MAXW];
	int nv = hg_unpack_all(t, len, v);
	unsigned at = 0;
	size_t nx = 0, group;

	if (nv < 0)
		return 1; /* not clean: hg_unpack_word's alone */
	if (hg_values_words(s->head, s->nhead, v, (unsigned)nv, &at, x)) {
		nx = s->nhead;
		while (s->nrep && nx + s->nrep <= MAXW &&
		       hg_values_words(s->rep, s->nrep, v, (unsigned)nv, &at,
				       x + nx))
			nx += s->nrep;
	}
	group = nx ? s->nrep : s->nhead;
	return nx <= k && !memcmp(x, w, nx * sizeof(*x)) &&
	       (k == nx || k < nx + group);
}

/* Words read back from len bytes, into w; returns how many.  The bytes
 * are copied first, behind bytes that are not zeros, so that the 8 the
 * reader may load past the end are not the writer's; the values read all
 * at once must agree (agreed). */
static size_t unpack(const struct hg_shape *s, const uint8_t *b, size_t len,
		     uint64_t *w)
{
	uint8_t t[MAXB + 8];
	struct hg_unpacker u = HG_UNPACK_INIT(len);
	size_t k = 0;

	memset(t, 0xa5, sizeof(t));
	memcpy(t, b, len);
	while (k < MAXW && hg_unpack_word(s, &u, t, &w[k]))
		k++;
	agreed &= agree(s, t, len, w, k);
	return k;
}

/*
 * The format, read off a shape: words cut into values, values in pairs
 * behind a tag byte of two lengths.  Slow, and plain on purpose.
 */
static size_t ref_pack(const struct hg_shape *s, const uint64_t *w, size_t nw,
		       uint8_t *out)
{
	uint64_t v[2 * MAXW + 1];
	size_t nv = 0, len = 0;

	for (size_t i = 0; i < nw; i++) {
		unsigned cut = hg_pack_split(s, i);

		v[nv++] = cut ? w[i] & ((1ull << cut) - 1) : w[i];
		if (cut)
			v[nv++] = w[i] >> cut;
	}
	for (size_t i = 0; i < nv; i += 2) {
		unsigned la = hg_pack_len(v[i]);
		unsigned lb = i + 1 < nv ? hg_pack_len(v[i + 1]) : 0;

		out[len++] = (uint8_t)(la | (i + 1 < nv ? lb : HG_PACK_NONE) << 4);
		for (unsigned k = 0; k < la; k++)
			out[len++] = (uint8_t)(v[i] >> 8 * k);
		for (unsigned k = 0; k < lb; k++)
			out[len++] = (uint8_t)(v[i + 1] >> 8 * k);
	}
	return len;
}

/*
 * The writer of a launch whole in `pack` (hg_shape_launch5), head and
 * all: the preload writes `ref` launches, and this one is the model of the
 * schema-5 traces old-traces-schema5 reads.
 * The head is transformed in place (dimensions and repeat less one, api XOR
 * hipLaunchKernel's), then four pairs, then the arguments.
 */
static size_t launch5(uint64_t *w, size_t nptr, uint8_t *out)
{
	uint64_t gxy = w[HG_LW_GRID_XY], gzbx = w[HG_LW_GRID_Z_BLOCK_X];
	uint64_t byz = w[HG_LW_BLOCK_YZ], ra = w[HG_LW_REPEAT_API];
	uint8_t *p = out;

	w[2] = HG_V5_LESS1(gxy) | HG_V5_LESS1(gxy >> 32) << 32;
	w[3] = HG_V5_LESS1(gzbx >> 32) | HG_V5_LESS1(byz) << 32;
	w[4] = HG_V5_LESS1(gzbx) | HG_V5_LESS1(byz >> 32) << 32;
	w[6] = HG_V5_LESS1(ra) | ((ra >> 32) ^ HG_V5_API) << 32;
	p = hg_put2(p, w[HG_LW_HANDLE], w[HG_LW_STREAM]);
	p = hg_put2(p, w[2], w[3]);
	p = hg_put2(p, w[4], HG_LO32(w[5]));
	p = hg_put2(p, HG_HI32(w[5]), w[6]);
	return (size_t)(p - out) + hg_pack_launch_args(w + HG_LAUNCH_HEAD, nptr,
						      p);
}

/* The event's own writer (a launch: launch5, above). */
static size_t pack(const struct hg_shape *s, const uint64_t *w, size_t nw,
		   uint8_t *out)
{
	uint64_t c[MAXW];

	memcpy(c, w, nw * sizeof(*w));
	if (s == &hg_shape_alloc)
		return hg_pack_alloc(c, out);
	if (s == &hg_shape_free) {
		hg_pack_v5_free(c);
		return hg_pack_free(c, out);
	}
	if (s == &hg_shape_memcpy)
		return hg_pack_memcpy(c, out);
	if (s == &hg_shape_memset)
		return hg_pack_memset(c, out);
	return launch5(c, (nw - HG_LAUNCH_HEAD) / HG_LAUNCH_WORDS, out);
}

#define LAUNCH (&hg_shape_launch5) /* what a launch's writer writes */

static uint64_t rng = 0x2545f4914f6cdd1dull; /* fixed: the same words each run */

static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* Any size of value: 0, 1, all ones, and random ones of each length. */
static uint64_t any_word(void)
{
	unsigned bits = (unsigned)(next() % 66);

	return bits == 65 ? ~0ull : bits == 64 ? 0 : next() >> (63 - bits % 64) >> 1;
}

/* A 32-bit half less one, wrapping, and the other way. */
static uint64_t less1(uint64_t h)
{
	return (h + 0xffffffffu) & 0xffffffffu;
}

/*
 * The words a writer's bytes hold, from the words it was given (the
 * transforms of hg_pack.h): a free of a known block without its address and
 * size; a launch's head as grid.x-1 | grid.y-1 << 32, block.x-1 | block.y-1
 * << 32, grid.z-1 | block.z-1 << 32, shmem | rc << 32, repeat-1 | (api ^ 90)
 * << 32, and its arguments three words each (hg_launch_byte_word), the codes
 * word (mem | gran << 4) ^ 0x11, and above bit 8 the index's step from the
 * one after the argument before.  Returns how many.  A random word set makes
 * both kinds of argument: ids of 0 are one in 66.
 */
static size_t written_words(const struct hg_shape *s, const uint64_t *w,
			    size_t nw, uint64_t *bw)
{
	size_t k = 0;
	uint64_t after = 0;

	memcpy(bw, w, (s == LAUNCH ? HG_LAUNCH_HEAD : nw) * sizeof(*w));
	if (s == &hg_shape_free && w[HG_FW_ID])
		bw[HG_FW_ADDR] = bw[HG_FW_SIZE] = 0;
	if (s != LAUNCH)
		return nw;
	bw[2] = less1(w[2]) | less1(w[2] >> 32) << 32;
	bw[3] = less1(w[3] >> 32) | less1(w[4]) << 32;
	bw[4] = less1(w[3]) | less1(w[4] >> 32) << 32;
	bw[6] = less1(w[6]) | ((w[6] >> 32) ^ 90) << 32;
	k = HG_LAUNCH_HEAD;
	for (size_t i = HG_LAUNCH_HEAD; i + HG_LAUNCH_WORDS <= nw;
	     i += HG_LAUNCH_WORDS) {
		uint64_t idx = w[i + 3] & 0xffff;

		bw[k++] = w[i + 1];
		bw[k++] = w[i + 1] ? w[i + 2] : w[i];
		bw[k++] = (((w[i + 3] >> 16 & 0xf) | (w[i + 3] >> 24 & 0xf) << 4) ^
			   0x11) |
			  ((idx - after) & 0xffff) << 8;
		after = idx + 1;
	}
	return k;
}

/*
 * A launch's words read back and undone: the head as given, and each
 * argument's index, memory class and granularity (the four bits each that
 * the codes word keeps of them); 0 if any differs.
 */
static int launch_undone(const uint64_t *w, size_t nw, const uint64_t *back)
{
	uint64_t head[HG_LAUNCH_HEAD];
	unsigned after = 0;
	size_t k = HG_LAUNCH_HEAD;

	memcpy(head, back, sizeof(head));
	hg_unpack_v5_launch_head(head);
	if (memcmp(head, w, sizeof(head)))
		return 0;
	for (size_t i = HG_LAUNCH_HEAD; i + HG_LAUNCH_WORDS <= nw;
	     i += HG_LAUNCH_WORDS, k += HG_LAUNCH_BYTE_WORDS) {
		uint64_t c = hg_unpack_v5_codes(back[k + HG_LB_CODES], &after);

		if (c != (w[i + 3] & (0xffff | 0xfull << 16 | 0xfull << 24)))
			return 0;
	}
	return 1;
}

/* What the writers are given is under 2^63 where hg_pack.h says so: ids,
 * call sites, and the offsets of resolved pointers. */
static void under63(const struct hg_shape *s, uint64_t *w, size_t nw)
{
	const uint64_t m = ~0ull >> 1;

	if (s == &hg_shape_alloc) {
		w[HG_AW_ID] &= m, w[HG_AW_CALLSITE] &= m;
	} else if (s == &hg_shape_free) {
		w[HG_FW_ID] &= m, w[HG_FW_CALLSITE] &= m;
	} else if (s == &hg_shape_memcpy) {
		w[HG_MW_DST_ID] &= m, w[HG_MW_SRC_ID] &= m;
		w[HG_MW_CALLSITE] &= m;
		w[HG_MW_CODES] &= 0xffffffffu; /* four 8-bit codes */
	} else if (s == &hg_shape_memset) {
		w[HG_SW_DST_ID] &= m, w[HG_SW_CALLSITE] &= m;
		w[HG_SW_CODES] &= 0xffffu; /* two 8-bit codes */
	} else {
		w[6] &= 0xffffffffu | 0xffull << 32; /* api: 8 bits */
		for (size_t i = HG_LAUNCH_HEAD; i + HG_LAUNCH_WORDS <= nw;
		     i += HG_LAUNCH_WORDS) {
			w[i + 1] &= m;
			if (w[i + 1])
				w[i + 2] &= m;
		}
	}
}

static void roundtrip(const char *name, const struct hg_shape *s, size_t nw)
{
	uint64_t w[MAXW], want[MAXW], back[MAXW];
	uint8_t b[HG_PACK_MAX(MAXW)], ref[HG_PACK_MAX(MAXW)];
	int same = 1, as_ref = 1;
	size_t most = 0, nb = 0;

	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < nw; i++)
			w[i] = any_word();
		under63(s, w, nw);
		size_t len = pack(s, w, nw, b);

		nb = written_words(s, w, nw, want);
		as_ref &= ref_pack(s, want, nb, ref) == len &&
			  !memcmp(b, ref, len);
		most = len > most ? len : most;
		same &= unpack(s, b, len, back) == nb &&
			!memcmp(want, back, nb * sizeof(*w));
		if (s == LAUNCH)
			same &= launch_undone(w, nw, back);
		/* Bytes cut short anywhere: only whole words, all right. */
		size_t cut = (size_t)(next() % (len + 1)), k;

		k = unpack(s, b, cut, back);
		same &= (cut == len) == (k == nb) && !memcmp(want, back, k * 8);
	}
	char what[160];

	snprintf(what, sizeof(what),
		 "%s: 2000 sets of %zu words read back as %zu, and cut short, "
		 "read up to the cut (at most %zu bytes)", name, nw, nb, most);
	check(what, same && most <= HG_PACK_MAX(nw) - 8);
	snprintf(what, sizeof(what),
		 "%s: the writer's bytes are the format's, in 2000 sets", name);
	check(what, as_ref);
}

/*
 * The launch path packs an argument as it resolves it (pl_launch.c), from
 * its range's class (hg_pack_v5_class) and the id's length: the same bytes
 * as the writer's, for launches of 1 to 5 arguments of any offset, index,
 * memory class and granularity, within HG_PACK_ARG_MAX an argument.
 */
static void as_resolved(void)
{
	uint64_t a[5 * HG_LAUNCH_WORDS];
	uint8_t want[5 * HG_PACK_ARG_MAX + 8], got[5 * HG_PACK_ARG_MAX + 8];
	int same = 1, within = 1;

	for (int round = 0; round < 2000; round++) {
		size_t na = 1 + (size_t)(next() % 5), lw;
		struct hg_argpack ap = {got, NULL};
		unsigned after = 0;

		for (size_t i = 0; i < na; i++) {
			uint64_t *x = &a[i * HG_LAUNCH_WORDS];

			x[0] = any_word(), x[1] = 1 + (any_word() >> 2);
			x[2] = any_word() >> 1;
			x[3] = (next() & 0xffff) | (next() % 9) << 16 |
			       (next() % 4) << 24;
		}
		lw = hg_pack_launch_args(a, na, want);
		for (size_t i = 0; i < na; i++) {
			uint64_t *x = &a[i * HG_LAUNCH_WORDS];
			unsigned at = (unsigned)(x[3] & 0xffff);
			uint64_t code =
				hg_pack_v5_class((unsigned)(x[3] >> 16 & 0xff),
						 (unsigned)(x[3] >> 24)) |
				(uint64_t)((at - after) & 0xffff) << 8;

			hg_argpack_put(&ap, x[1], hg_pack_len63(x[1]), x[2],
				       hg_pack_len63(x[2]), code,
				       hg_pack_len63(code));
			after = at + 1;
		}
		size_t lg = (size_t)(hg_argpack_end(&ap) - got);

		same &= lg == lw && !memcmp(want, got, lw);
		within &= lw <= na * HG_PACK_ARG_MAX;
	}
	check("arguments packed as the launch path resolves them: the "
	      "writer's bytes, in 2000 launches",
	      same);
	check("an argument takes HG_PACK_ARG_MAX bytes at most", within);
}

/* The record's bytes widened by k (hg_pack_*_widen), or whole
 * (hg_pack_*_whole) when k is 0: the writer of each event. */
static size_t widen(const struct hg_shape *s, uint64_t *c, uint8_t *b,
		    unsigned k)
{
	if (s == &hg_shape_alloc)
		return k ? hg_pack_alloc_widen(c, b, hg_pack_alloc(c, b), k)
			 : hg_pack_alloc_whole(c, b);
	if (s == &hg_shape_memcpy)
		return k ? hg_pack_memcpy_widen(c, b, hg_pack_memcpy(c, b), k)
			 : hg_pack_memcpy_whole(c, b);
	if (s == &hg_shape_memset)
		return k ? hg_pack_memset_widen(c, b, hg_pack_memset(c, b), k)
			 : hg_pack_memset_whole(c, b);
	hg_pack_v5_free(c);
	return k ? hg_pack_free_widen(c, b, hg_pack_free(c, b), k)
		 : hg_pack_free_whole(c, b);
}

/*
 * An alloc, a free, a memcpy or a memset widened by 1 to HG_PACK_STEP - 1
 * bytes, as
 * the emitter does to fit an event's size (hg_pack_*_widen), is that many
 * bytes longer and reads as the same words, in 2000 sets each.
 */
static void widened(const char *name, const struct hg_shape *s, size_t nw)
{
	uint64_t w[MAXW], c[MAXW], want[MAXW], back[MAXW];
	uint8_t b[HG_PACK_MAX(MAXW) + HG_PACK_STEP];
	int same = 1, whole = 1;

	for (int round = 0; round < 2000; round++) {
		unsigned k = 1 + (unsigned)(next() % (HG_PACK_STEP - 1));
		size_t len, nb, got, plain;

		for (size_t i = 0; i < nw; i++)
			w[i] = any_word();
		under63(s, w, nw);
		nb = unpack(s, b, pack(s, w, nw, b), want);
		memcpy(c, w, nw * sizeof(*w));
		len = widen(s, c, b, k);
		got = unpack(s, b, len, back);
		plain = pack(s, w, nw, (uint8_t[HG_PACK_MAX(MAXW)]){0});
		same &= got == nb && !memcmp(want, back, nb * sizeof(*w)) &&
			len == plain + k;
		memcpy(c, w, nw * sizeof(*w));
		len = widen(s, c, b, 0);
		got = unpack(s, b, len, back);
		whole &= got == nb && !memcmp(want, back, nb * sizeof(*w)) &&
			 len % HG_PACK_STEP == 0 && len >= plain &&
			 len < plain + HG_PACK_STEP;
	}
	char what[120];

	snprintf(what, sizeof(what),
		 "%s: widened by 1 to %d bytes, reads as the same words, in "
		 "2000 sets", name, HG_PACK_STEP - 1);
	check(what, same);
	snprintf(what, sizeof(what),
		 "%s: as written, a whole number of %d-byte elements, reads as "
		 "the same words, in 2000 sets", name, HG_PACK_STEP);
	check(what, whole);
}

/*
 * A launch's `ref`: its head's number and repeat less one, written before
 * its arguments (hg_pack_launch_ref), widened by 0 to HG_PACK_STEP - 1
 * bytes, read back as written with the arguments after them, in 2000
 * launches of 0 to 5 arguments.
 */
static void launch_ref(void)
{
	uint64_t a[5 * HG_LAUNCH_WORDS], want[MAXW], back[MAXW];
	uint8_t b[HG_PACK_REF_MAX + 5 * HG_PACK_ARG_MAX + 8];
	uint8_t *args = b + HG_PACK_REF_MAX;
	int same = 1, whole = 1;

	for (int round = 0; round < 2000; round++) {
		size_t na = (size_t)(next() % 6), la, nref, got, len, plain;
		unsigned k = (unsigned)(next() % HG_PACK_STEP);
		uint32_t id = (uint32_t)(next() >> 33) + 1;
		uint32_t rep = (uint32_t)next() >> (next() % 32);

		for (size_t i = 0; i < na * HG_LAUNCH_WORDS; i += 4) {
			a[i] = any_word(), a[i + 1] = 1 + (any_word() >> 2);
			a[i + 2] = any_word() >> 1, a[i + 3] = next() & 0xffff;
		}
		la = hg_pack_launch_args(a, na, args);
		nref = hg_pack_launch_ref(args, id, rep, 0);
		same &= unpack(&hg_shape_launch6, args - nref, nref + la, want) ==
				2 + 3 * na &&
			want[0] == id && want[1] == rep;
		nref = hg_pack_launch_ref(args, id, rep, k) - k;
		got = unpack(&hg_shape_launch6, args - nref - k, nref + k + la,
			     back);
		same &= got == 2 + 3 * na &&
			!memcmp(want, back, got * sizeof(*back));
		plain = nref + la;
		len = hg_pack_launch_whole(args, id, rep, la, &nref);
		got = unpack(&hg_shape_launch6, args - nref, len, back);
		whole &= got == 2 + 3 * na && len % HG_PACK_STEP == 0 &&
			 nref + la == len && len < plain + HG_PACK_STEP &&
			 !memcmp(want, back, got * sizeof(*back));
	}
	check("a launch's head number and repeat, widened by 0 to 3 bytes, "
	      "read back before its arguments, in 2000 launches",
	      same);
	check("a launch as written, a whole number of elements, reads as "
	      "the same words, in 2000 launches", whole);
}

int main(void)
{
	uint64_t w[MAXW], small[HG_LAUNCH_HEAD + HG_LAUNCH_WORDS] = {
		0x55d0c8a4b010, 0, 4 | 1ull << 32, 1 | 256ull << 32,
		1 | 1ull << 32, 0, 1 | 90ull << 32,
		0x7f16a8845000, 18, 0, 1 | 1 << 16 | 1 << 24};
	uint8_t b[HG_PACK_MAX(MAXW)];
	size_t len;

	roundtrip("alloc", &hg_shape_alloc, HG_ALLOC_WORDS);
	roundtrip("free", &hg_shape_free, HG_FREE_WORDS);
	roundtrip("memcpy", &hg_shape_memcpy, HG_MEMCPY_WORDS);
	roundtrip("memset", &hg_shape_memset, HG_MEMSET_WORDS);
	roundtrip("launch with 64 arguments", LAUNCH, MAXW);
	roundtrip("launch with 1 argument", LAUNCH,
		  HG_LAUNCH_HEAD + HG_LAUNCH_WORDS);
	roundtrip("launch with 2 arguments", LAUNCH,
		  HG_LAUNCH_HEAD + 2 * HG_LAUNCH_WORDS);
	roundtrip("launch with 3 arguments", LAUNCH,
		  HG_LAUNCH_HEAD + 3 * HG_LAUNCH_WORDS);
	roundtrip("launch with no argument", LAUNCH, HG_LAUNCH_HEAD);
	as_resolved();
	widened("alloc", &hg_shape_alloc, HG_ALLOC_WORDS);
	widened("free", &hg_shape_free, HG_FREE_WORDS);
	widened("memcpy", &hg_shape_memcpy, HG_MEMCPY_WORDS);
	widened("memset", &hg_shape_memset, HG_MEMSET_WORDS);
	launch_ref();

	len = pack(LAUNCH, small, HG_LAUNCH_HEAD + HG_LAUNCH_WORDS, b);
	printf("# a launch of one argument: %zu bytes\n", len);
	check("a typical launch of one argument takes 17 bytes (schema 4: 27; "
	      "3: 88)",
	      len == 17);
	small[HG_LAUNCH_HEAD + 1] = 0; /* in no allocation: the value, whole */
	check("an unknown pointer's value is written, 5 bytes more",
	      pack(LAUNCH, small, HG_LAUNCH_HEAD + HG_LAUNCH_WORDS, b) == 22 &&
		      unpack(LAUNCH, b, 22, w) ==
			      HG_LAUNCH_HEAD + HG_LAUNCH_BYTE_WORDS &&
		      w[HG_LAUNCH_HEAD + HG_LB_WHERE] == 0x7f16a8845000);
	small[HG_LAUNCH_HEAD + 1] = 18;
	uint64_t four[HG_LAUNCH_HEAD + 4 * HG_LAUNCH_WORDS];

	memcpy(four, small, HG_LAUNCH_HEAD * sizeof(*four));
	for (int i = 0; i < 4; i++) {
		uint64_t *x = &four[HG_LAUNCH_HEAD + i * HG_LAUNCH_WORDS];

		x[0] = 0x7f16a8845000 + 4096u * (unsigned)i;
		x[1] = 18 + (unsigned)i, x[2] = 0;
		x[3] = (unsigned)i | 1 << 16 | 1 << 24;
	}
	len = pack(LAUNCH, four, HG_LAUNCH_HEAD + 4 * HG_LAUNCH_WORDS, b);
	printf("# a launch of four device buffers: %zu bytes\n", len);
	check("a launch of four device buffers takes 22 bytes (schema 4: 45)",
	      len == 22);
	uint64_t fr[HG_FREE_WORDS] = {4242, 0x7f16a8845000, 4096, 3,
				      (uint64_t)HG_API_HIP_FREE << 32 |
					      (uint64_t)HG_API_HIP_MALLOC << 40};

	len = pack(&hg_shape_free, fr, HG_FREE_WORDS, b);
	printf("# a free of a known block: %zu bytes\n", len);
	check("a free of a known block takes 8 bytes (schema 4: 16)", len == 8);
	fr[HG_FW_ID] = 0;
	check("a free of an unknown pointer keeps its address and size",
	      pack(&hg_shape_free, fr, HG_FREE_WORDS, b) == 14 &&
		      unpack(&hg_shape_free, b, 14, w) == HG_FREE_WORDS &&
		      w[HG_FW_ADDR] == 0x7f16a8845000 && w[HG_FW_SIZE] == 4096);
	len = pack(LAUNCH, small, HG_LAUNCH_HEAD + HG_LAUNCH_WORDS, b);
	b[0] = (uint8_t)((b[0] & 0xf0) | 9); /* the handle: 9 bytes long */
	check("a length over 8 reads nothing", unpack(LAUNCH, b, len, w) == 0);
	b[0] = 0xff;
	check("a tag alone reads nothing", unpack(LAUNCH, b, 1, w) == 0);
	check("bytes that end cleanly read all at once as a word at a time, "
	      "whole, cut short or widened",
	      agreed);
	return failed;
}
