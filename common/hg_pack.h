/* SPDX-License-Identifier: MIT */
/*
 * The byte form of the alloc, free, memcpy, memset and launch words
 * (hg_events.h), as the preload writes it and the analyzer reads it, with the transforms that
 * make the usual values zeros (hg_pack_v5_*: a reader must undo them in
 * traces of schema 5 and later).
 *
 * Once a trace buffer is out of the cache, an event costs LTTng's floor
 * plus a little for every byte written (bench/README.md, launch), and most
 * of these words are small numbers or zeros, so each value takes only the
 * bytes it needs.  A launch's pointer arguments are three words each
 * (hg_launch_byte_word).
 *
 * The words are cut into values: a word is one value, or two where its
 * shape says so (`split` bits low, the rest high), because several words
 * pair two small numbers (grid.x | grid.y << 32).  Values go in pairs: a tag
 * byte whose low nibble is the first value's length in bytes (0 to 8; 0 for
 * zero) and whose high nibble is the second's, or HG_PACK_NONE when the
 * values ran out; then the two values' bytes, least significant first.
 * Writing needs no branch on a value, only its length (a count of leading
 * zeros), and reading needs no lookahead.
 */
#ifndef HG_PACK_H
#define HG_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hg_events.h"

#define HG_PACK_NONE 0xf

/* The most fixed words of any event (a memcpy's). */
#define HG_SHAPE_HEAD HG_MEMCPY_WORDS

/* Where each word is cut (0: it is one value): `head` for the first
 * words, then `rep` over again (a launch's arguments). */
struct hg_shape {
	uint8_t nhead, nrep;
	uint8_t head[HG_SHAPE_HEAD], rep[HG_LAUNCH_BYTE_WORDS];
};

static const struct hg_shape hg_shape_alloc = {
	HG_ALLOC_WORDS, 0, {0, 0, 0, 0, 0, 32, 32}, {0}};
static const struct hg_shape hg_shape_free = {
	HG_FREE_WORDS, 0, {0, 0, 0, 0, 32}, {0}};
static const struct hg_shape hg_shape_memcpy = {
	HG_MEMCPY_WORDS, 0, {0, 0, 0, 0, 0, 0, 0, 32, 0}, {0}};
static const struct hg_shape hg_shape_memset = {
	HG_MEMSET_WORDS, 0, {0, 0, 0, 0, 0, 32, 0}, {0}};
/* A launch's arguments as its bytes hold them (hg_launch_byte_word). */
static const struct hg_shape hg_shape_launch = {
	HG_LAUNCH_HEAD, HG_LAUNCH_BYTE_WORDS, {0, 0, 32, 32, 32, 32, 32},
	{0, 0, 16}};
/* A launch written whole in `pack` (schema 5 traces; the preload writes
 * `ref`, below), its head as HG_V5_LESS1 below: eight values in the head,
 * so that the arguments start on a tag of their own, and three an
 * argument, paired across arguments. */
static const struct hg_shape hg_shape_launch5 = {
	HG_LAUNCH_HEAD, HG_LAUNCH_BYTE_WORDS, {0, 0, 0, 0, 0, 32, 0},
	{0, 0, 0}};

/* A launch's `ref` (hg_pack_launch_ref): its head's number and its repeat
 * less one, then its arguments as hg_shape_launch5 has them. */
static const struct hg_shape hg_shape_launch6 = {
	2, HG_LAUNCH_BYTE_WORDS, {0, 0}, {0, 0, 0}};

/* The shape of an event's words in a `pack` field: the launch's is the
 * one with arguments (shapes are static, a copy in each file that includes
 * this one, so they are told apart by what they hold). */
static inline const struct hg_shape *hg_shape_v5(const struct hg_shape *s)
{
	return s->nrep ? &hg_shape_launch5 : s;
}

_Static_assert((int)HG_ALLOC_WORDS <= HG_SHAPE_HEAD &&
		       (int)HG_FREE_WORDS <= HG_SHAPE_HEAD &&
		       (int)HG_LAUNCH_HEAD <= HG_SHAPE_HEAD &&
		       (int)HG_MEMSET_WORDS <= HG_SHAPE_HEAD,
	       "hg_shape.head holds every fixed word");

/* Bytes n words may take, with the 8 the writer may store past the end. */
#define HG_PACK_MAX(n) (2 * (size_t)(n) * 9 + 8)

static inline unsigned hg_pack_split(const struct hg_shape *s, uint64_t i)
{
	if (i < s->nhead)
		return s->head[i];
	return s->nrep ? s->rep[(i - s->nhead) % s->nrep] : 0;
}

/* Bytes that hold v: 0 for zero, else (bits + 7) / 8.  63 ^ clz is the
 * highest bit's index (one bsr). */
static inline unsigned hg_pack_len(uint64_t v)
{
	return ((unsigned)(63 ^ __builtin_clzll(v | 1)) + 8) / 8 -
	       (unsigned)(v == 0);
}

/* The same for a value under 2^63 (an id, a count, an offset, a 32-bit
 * half), two instructions fewer: doubled and ored with 1, zero needs no
 * case of its own. */
static inline unsigned hg_pack_len63(uint64_t v)
{
	return ((unsigned)(63 ^ __builtin_clzll(v << 1 | 1)) + 7) / 8;
}

/*
 * The writers are one per event, with the shape spelt out in the order of
 * the calls: a writer that reads the shape as data costs about as much as
 * the LTTng event it fills, these a fraction of it.
 * tests/analyzer/pack_words holds the shape-driven writer they must match
 * byte for byte.  Ids, call sites and a resolved pointer's offset are
 * under 2^63 (counts, and an offset into a range), as is every 32-bit
 * half: their lengths take hg_pack_len63.
 * Each store writes 8 bytes, whatever the length: the buffer has
 * HG_PACK_MAX's 8 to spare.
 */
static inline __attribute__((always_inline)) uint8_t *
hg_put2_len(uint8_t *p, uint64_t a, unsigned la, uint64_t b, unsigned lb)
{
	*p++ = (uint8_t)(la | lb << 4);
	/* little-endian: x86-64, as LTTng's buffers */
	memcpy(p, &a, sizeof(a));
	memcpy(p + la, &b, sizeof(b));
	return p + la + lb;
}

static inline __attribute__((always_inline)) uint8_t *
hg_put2(uint8_t *p, uint64_t a, uint64_t b)
{
	return hg_put2_len(p, a, hg_pack_len(a), b, hg_pack_len(b));
}

/* Both values under 2^63. */
static inline __attribute__((always_inline)) uint8_t *
hg_put2s(uint8_t *p, uint64_t a, uint64_t b)
{
	return hg_put2_len(p, a, hg_pack_len63(a), b, hg_pack_len63(b));
}

/* The last value when there is an odd number (a 32-bit half). */
static inline __attribute__((always_inline)) uint8_t *hg_put1(uint8_t *p,
							       uint64_t a)
{
	unsigned la = hg_pack_len63(a);

	*p++ = (uint8_t)(la | HG_PACK_NONE << 4);
	memcpy(p, &a, sizeof(a));
	return p + la;
}

#define HG_LO32(w) ((w) & 0xffffffffu)
#define HG_HI32(w) ((w) >> 32)

/* An alloc's HG_ALLOC_WORDS words (hg_shape_alloc). */
static inline size_t hg_pack_alloc(const uint64_t *w, uint8_t *out)
{
	uint8_t *p = out;

	p = hg_put2_len(p, w[HG_AW_ID], hg_pack_len63(w[HG_AW_ID]),
			w[HG_AW_ADDR], hg_pack_len(w[HG_AW_ADDR]));
	p = hg_put2(p, w[HG_AW_SIZE], w[HG_AW_EXTRA]);
	p = hg_put2s(p, w[HG_AW_CALLSITE], HG_LO32(w[HG_AW_FLAGS_RC]));
	p = hg_put2s(p, HG_HI32(w[HG_AW_FLAGS_RC]), HG_LO32(w[HG_AW_CODES]));
	p = hg_put1(p, HG_HI32(w[HG_AW_CODES]));
	return (size_t)(p - out);
}

/*
 * A free of a known allocation leaves its address and size to the
 * allocation's event (a block is freed by its address, and whole): a
 * reader takes them from the alloc of its id.
 */
static inline void hg_pack_v5_free(uint64_t *w)
{
	if (w[HG_FW_ID])
		w[HG_FW_ADDR] = w[HG_FW_SIZE] = 0;
}

/*
 * The head of a launch written whole in `pack` (hg_shape_launch5), at the
 * positions of HG_LW_*: handle, stream, then grid.x | grid.y << 32,
 * block.x | block.y << 32, grid.z | block.z << 32 (each dimension less
 * one, 32-bit, wrapping: the usual 1 takes nothing, and a 1-D launch's
 * pair is one small value), shmem | rc << 32 (cut at 32), and repeat less
 * one | (api ^ hipLaunchKernel's) << 32.
 */
#define HG_V5_LESS1(h) (((h) - 1) & 0xffffffffu)
#define HG_V5_PLUS1(h) (((h) + 1) & 0xffffffffu)
#define HG_V5_API HG_API_HIP_LAUNCH_KERNEL /* the usual api */

static inline void hg_unpack_v5_launch_head(uint64_t *w)
{
	uint64_t g = w[2], b = w[3], z = w[4], ra = w[6];

	w[HG_LW_GRID_XY] = HG_V5_PLUS1(g) | HG_V5_PLUS1(g >> 32) << 32;
	w[HG_LW_GRID_Z_BLOCK_X] = HG_V5_PLUS1(z) | HG_V5_PLUS1(b) << 32;
	w[HG_LW_BLOCK_YZ] = HG_V5_PLUS1(b >> 32) | HG_V5_PLUS1(z >> 32) << 32;
	w[HG_LW_REPEAT_API] = HG_V5_PLUS1(ra) | ((ra >> 32) ^ HG_V5_API) << 32;
}

/*
 * An argument's codes word in `pack` and `ref` (HG_LB_CODES) is (mem |
 * gran << 4) ^ 0x11 (device memory, coarse: the usual, takes nothing),
 * then above bit 8 its index less the one after the last argument's (the
 * kernel's pointer arguments mostly follow one another: 0).  `next` is the
 * index after the last argument's, 0 at the first.
 */
_Static_assert(HG_MEM_NULLPTR < 16 && HG_GRAN_MIXED < 16,
	       "a memory class and a granularity fit four bits each");
#define HG_V5_USUAL (HG_MEM_DEVICE | HG_GRAN_COARSE << 4)

/* mem | gran << 4, less the usual: what a range's arguments write. */
static inline unsigned hg_pack_v5_class(unsigned mem, unsigned gran)
{
	return ((mem & 0xf) | (gran & 0xf) << 4) ^ HG_V5_USUAL;
}

static inline uint64_t hg_pack_v5_codes(uint64_t codes, unsigned *next)
{
	unsigned idx = (unsigned)(codes & 0xffff);
	uint64_t c = hg_pack_v5_class((unsigned)(codes >> 16 & 0xff),
				      (unsigned)(codes >> 24 & 0xff)) |
		     (uint64_t)((idx - *next) & 0xffff) << 8;

	*next = idx + 1;
	return c;
}

/* Back to index | mem << 16 | gran << 24; 0 if wider than 24 bits. */
static inline uint64_t hg_unpack_v5_codes(uint64_t c, unsigned *next)
{
	unsigned idx = (unsigned)((c >> 8) + *next) & 0xffff;
	unsigned cls = ((unsigned)c & 0xff) ^ HG_V5_USUAL;

	*next = idx + 1;
	if (c >> 24)
		return 0; /* damaged */
	return idx | (uint64_t)(cls & 0xf) << 16 | (uint64_t)(cls >> 4) << 24;
}

/* A free's HG_FREE_WORDS words (hg_shape_free). */
static inline size_t hg_pack_free(const uint64_t *w, uint8_t *out)
{
	uint8_t *p = out;

	p = hg_put2_len(p, w[HG_FW_ID], hg_pack_len63(w[HG_FW_ID]),
			w[HG_FW_ADDR], hg_pack_len(w[HG_FW_ADDR]));
	p = hg_put2_len(p, w[HG_FW_SIZE], hg_pack_len(w[HG_FW_SIZE]),
			w[HG_FW_CALLSITE], hg_pack_len63(w[HG_FW_CALLSITE]));
	p = hg_put2s(p, HG_LO32(w[HG_FW_CODES]), HG_HI32(w[HG_FW_CODES]));
	return (size_t)(p - out);
}

/* A memcpy's HG_MEMCPY_WORDS words (hg_shape_memcpy): ten values, the
 * last pair rc and the codes. */
static inline size_t hg_pack_memcpy(const uint64_t *w, uint8_t *out)
{
	uint8_t *p = out;

	p = hg_put2(p, w[HG_MW_DST], w[HG_MW_SRC]);
	p = hg_put2_len(p, w[HG_MW_SIZE], hg_pack_len(w[HG_MW_SIZE]),
			w[HG_MW_DST_ID], hg_pack_len63(w[HG_MW_DST_ID]));
	p = hg_put2_len(p, w[HG_MW_SRC_ID], hg_pack_len63(w[HG_MW_SRC_ID]),
			w[HG_MW_STREAM], hg_pack_len(w[HG_MW_STREAM]));
	p = hg_put2s(p, w[HG_MW_CALLSITE], HG_LO32(w[HG_MW_KIND_RC]));
	p = hg_put2s(p, HG_HI32(w[HG_MW_KIND_RC]), w[HG_MW_CODES]);
	return (size_t)(p - out);
}

/* A memset's HG_MEMSET_WORDS words (hg_shape_memset): eight values, the
 * last pair rc and the codes. */
static inline size_t hg_pack_memset(const uint64_t *w, uint8_t *out)
{
	uint8_t *p = out;

	p = hg_put2_len(p, w[HG_SW_DST], hg_pack_len(w[HG_SW_DST]),
			w[HG_SW_SIZE], hg_pack_len(w[HG_SW_SIZE]));
	p = hg_put2_len(p, w[HG_SW_DST_ID], hg_pack_len63(w[HG_SW_DST_ID]),
			w[HG_SW_STREAM], hg_pack_len(w[HG_SW_STREAM]));
	p = hg_put2s(p, w[HG_SW_CALLSITE], HG_LO32(w[HG_SW_VALUE_RC]));
	p = hg_put2s(p, HG_HI32(w[HG_SW_VALUE_RC]), w[HG_SW_CODES]);
	return (size_t)(p - out);
}

/*
 * A launch's arguments, three values each (id; the offset, or for an
 * unknown pointer the value; codes), paired across arguments: two
 * arguments take three tags.  An argument takes HG_PACK_ARG_MAX bytes at
 * most, and 8 more are written past them.
 */
#define HG_PACK_ARG_MAX (2 + 8 + 8 + 3)

struct hg_argpack {
	uint8_t *p;
	uint8_t *pend; /* a tag whose second value is the next argument's id */
};

static inline __attribute__((always_inline)) void
hg_argpack_put(struct hg_argpack *ap, uint64_t id, unsigned lid,
	       uint64_t where, unsigned lwhere, uint64_t code, unsigned lcode)
{
	uint8_t *p = ap->p;

	if (!ap->pend) {
		p = hg_put2_len(p, id, lid, where, lwhere);
		ap->pend = p;
		*p++ = (uint8_t)lcode;
		memcpy(p, &code, sizeof(code));
		p += lcode;
	} else {
		*ap->pend |= (uint8_t)(lid << 4);
		memcpy(p, &id, sizeof(id));
		p = hg_put2_len(p + lid, where, lwhere, code, lcode);
		ap->pend = NULL;
	}
	ap->p = p;
}

/* The end of the arguments' bytes. */
static inline uint8_t *hg_argpack_end(struct hg_argpack *ap)
{
	if (ap->pend)
		*ap->pend |= (uint8_t)(HG_PACK_NONE << 4);
	return ap->p;
}

/* nptr arguments of HG_LAUNCH_WORDS words each (hg_tp_types.h), as `ref`
 * holds them (hg_pack_v5_codes). */
static inline size_t hg_pack_launch_args(const uint64_t *a, size_t nptr,
					 uint8_t *out)
{
	struct hg_argpack ap = {out, NULL};
	unsigned next = 0;

	_Static_assert(HG_LAUNCH_WORDS == 4 && HG_LAUNCH_BYTE_WORDS == 3,
		       "an argument is four values");
	for (; nptr; nptr--, a += HG_LAUNCH_WORDS) {
		uint64_t c = hg_pack_v5_codes(a[3], &next);
		uint64_t where = a[1] ? a[2] : a[0];

		hg_argpack_put(&ap, a[1], hg_pack_len63(a[1]), where,
			       hg_pack_len(where), c, hg_pack_len63(c));
	}
	return (size_t)(hg_argpack_end(&ap) - out);
}

/*
 * An alloc, a free or a launch is written as HG_PACK_STEP-byte elements
 * (schema 7), and as a fixed array when one of its sizes fits (hg_tp.h):
 * LTTng then writes one field, not a length and then a sequence, a call
 * and two bytes less an event.  The bytes a record lacks widen one of its
 * values (an alloc's, a free's, a memcpy's or a memset's last, a launch's
 * repeat)
 * with zero bytes on top, which read the same, as a value may take any length up to 8:
 * each of these values is under 2^33, so HG_PACK_STEP - 1 more bytes
 * always fit.  The elements are the bytes read as little-endian words, as
 * the reader's loads read them; a big-endian writer would need its own
 * form.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "hg_pack.h: the packed bytes are written and read as little-endian"
#endif
#define HG_PACK_STEP 4

static inline size_t hg_pack_class(size_t n)
{
	return (n + HG_PACK_STEP - 1) & ~(size_t)(HG_PACK_STEP - 1);
}

/* The value ending n bytes at out, whose tag is `back` bytes before the
 * end (its high nibble when hi), k bytes wider; the 8 bytes past the end
 * are the writer's. */
static inline size_t hg_pack_widen(uint8_t *out, size_t n, unsigned back,
				   int hi, unsigned k)
{
	static const uint32_t zero;

	out[n - back] = (uint8_t)(out[n - back] + (hi ? k << 4 : k));
	memcpy(out + n, &zero, sizeof(zero));
	return n + k;
}

/* An alloc's last value is the high half of its codes, alone. */
static inline size_t hg_pack_alloc_widen(const uint64_t *w, uint8_t *out,
					 size_t n, unsigned k)
{
	return hg_pack_widen(out, n,
			     1 + hg_pack_len63(HG_HI32(w[HG_AW_CODES])), 0, k);
}

/* A free's is its codes' high half, paired with their low half. */
static inline size_t hg_pack_free_widen(const uint64_t *w, uint8_t *out,
					size_t n, unsigned k)
{
	return hg_pack_widen(out, n,
			     1 + hg_pack_len63(HG_LO32(w[HG_FW_CODES])) +
				     hg_pack_len63(HG_HI32(w[HG_FW_CODES])),
			     1, k);
}

/* A memcpy's and a memset's are their codes, paired with rc. */
static inline size_t hg_pack_memcpy_widen(const uint64_t *w, uint8_t *out,
					  size_t n, unsigned k)
{
	return hg_pack_widen(out, n,
			     1 + hg_pack_len63(HG_HI32(w[HG_MW_KIND_RC])) +
				     hg_pack_len63(w[HG_MW_CODES]),
			     1, k);
}

static inline size_t hg_pack_memset_widen(const uint64_t *w, uint8_t *out,
					  size_t n, unsigned k)
{
	return hg_pack_widen(out, n,
			     1 + hg_pack_len63(HG_HI32(w[HG_SW_VALUE_RC])) +
				     hg_pack_len63(w[HG_SW_CODES]),
			     1, k);
}

/*
 * A launch's `ref`: its head is declared once, by a `head` event of its
 * own (kernel, stream, dimensions, shmem, rc, api) under a number unique
 * in its process, and a launch starts with a tag, that number and its
 * repeat less one, then its arguments (hg_pack_launch_args).  Writes
 * that start right-aligned before end (the 16 bytes before it are the
 * writer's), the repeat widened by k; returns its length.
 */
#define HG_PACK_REF_MAX 16

static inline size_t hg_pack_launch_ref(uint8_t *end, uint32_t head,
					uint32_t repeat1, unsigned k)
{
	uint8_t t[HG_PACK_REF_MAX + 8] = {0};
	uint64_t h = head, r = repeat1;
	unsigned lh = hg_pack_len63(h), lr = hg_pack_len63(r) + k;
	size_t n = 1 + lh + lr;

	t[HG_PACK_REF_MAX - n] = (uint8_t)(lh | lr << 4);
	memcpy(t + HG_PACK_REF_MAX + 1 - n, &h, sizeof(h));
	memcpy(t + HG_PACK_REF_MAX + 1 - n + lh, &r, sizeof(r));
	memcpy(end - HG_PACK_REF_MAX, t, HG_PACK_REF_MAX);
	return n;
}

/*
 * What the provider writes (schema 7 on): a record widened to a whole
 * number of HG_PACK_STEP-byte groups (schema 9 writes them as text,
 * hg_text.h).  Each returns the
 * record's length; hg_pack_launch_whole writes the `ref` before the nargb
 * bytes of arguments at end and returns the ref's length too, in *nref.
 */

static inline size_t hg_pack_alloc_whole(const uint64_t *w, uint8_t *out)
{
	size_t n = hg_pack_alloc(w, out);

	return hg_pack_alloc_widen(w, out, n, (unsigned)(hg_pack_class(n) - n));
}

static inline size_t hg_pack_free_whole(const uint64_t *w, uint8_t *out)
{
	size_t n = hg_pack_free(w, out);

	return hg_pack_free_widen(w, out, n, (unsigned)(hg_pack_class(n) - n));
}

static inline size_t hg_pack_memcpy_whole(const uint64_t *w, uint8_t *out)
{
	size_t n = hg_pack_memcpy(w, out);

	return hg_pack_memcpy_widen(w, out, n, (unsigned)(hg_pack_class(n) - n));
}

static inline size_t hg_pack_memset_whole(const uint64_t *w, uint8_t *out)
{
	size_t n = hg_pack_memset(w, out);

	return hg_pack_memset_widen(w, out, n, (unsigned)(hg_pack_class(n) - n));
}

static inline size_t hg_pack_launch_whole(uint8_t *end, uint32_t head,
					  uint32_t repeat1, size_t nargb,
					  size_t *nref)
{
	size_t n = 1 + hg_pack_len63(head) + hg_pack_len63(repeat1) + nargb;
	size_t c = hg_pack_class(n);

	*nref = hg_pack_launch_ref(end, head, repeat1, (unsigned)(c - n));
	return c;
}

/*
 * Reading, from bytes in memory: `len` of them, with 8 more readable past
 * them (the writer's HG_PACK_MAX leaves as many), so that a value is one
 * load masked to its length, not a loop over its bytes.
 *
 * hg_unpack_word reads a word at a time, only as far as asked, and says
 * where damaged bytes stop it.  hg_unpack_all reads every value of bytes
 * that end cleanly, the usual case, in one loop without that bookkeeping;
 * words are then cut from the values (hg_values_words) as hg_unpack_word
 * cuts them.
 */
struct hg_unpacker {
	uint64_t len, pos;
	unsigned pending; /* the high nibble still to read, or 0x10 */
	unsigned rep;	  /* where the next word is in the shape's `rep` */
	uint64_t word;	  /* words read so far */
};

#define HG_UNPACK_INIT(n) {(n), 0, 0x10, 0, 0}

/* The most bytes a word takes: two values of a tag and 8 bytes each. */
#define HG_UNPACK_WORD_MAX 18

/* Value len (0 to 8) bytes at p. */
static inline __attribute__((always_inline)) uint64_t
hg_unpack_load(const uint8_t *p, unsigned len)
{
	static const uint64_t mask[9] = {
		0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull,
		0xffffffffffffull, 0xffffffffffffffull, ~0ull};
	uint64_t x;

	/* little-endian, as the writer's stores */
	memcpy(&x, p, sizeof(x));
	return x & mask[len];
}

/* Where word `word` of shape s is cut, `rep` its place in the shape's
 * repeated part (hg_pack_split without its division). */
static inline __attribute__((always_inline)) unsigned
hg_unpack_cut(const struct hg_shape *s, uint64_t word, unsigned rep)
{
	return word < s->nhead ? s->head[word] : s->rep[rep];
}

/* The word of values lo and hi cut at split; 0 if either is wider than
 * its part. */
static inline __attribute__((always_inline)) int
hg_unpack_join(uint64_t lo, uint64_t hi, unsigned split, uint64_t *w)
{
	if ((lo >> split) || (split < 64 && hi >> (64 - split)))
		return 0;
	*w = lo | hi << split;
	return 1;
}

/* On to the next word; a shape of no `rep` has one cut of 0. */
static inline __attribute__((always_inline)) void
hg_unpack_next(const struct hg_shape *s, uint64_t *word, unsigned *rep)
{
	if ((*word)++ >= s->nhead && ++*rep >= s->nrep)
		*rep = 0;
}

/* The next value of b; 0 at the end or on damage (a length over 8, bytes
 * missing). */
static inline __attribute__((always_inline)) int
hg_unpack_value(struct hg_unpacker *u, const uint8_t *b, uint64_t *v)
{
	unsigned len;

	if (u->pending == 0x10) {
		if (u->pos >= u->len)
			return 0;
		len = b[u->pos++];
		u->pending = len >> 4;
		len &= 0xf;
	} else {
		len = u->pending;
		u->pending = 0x10;
	}
	if (len > 8 || u->len - u->pos < len)
		return 0;
	*v = hg_unpack_load(b + u->pos, len);
	u->pos += len;
	return 1;
}

/* The next word (shape s) of b; 0 at the end or on damage. */
static inline __attribute__((always_inline)) int
hg_unpack_word(const struct hg_shape *s, struct hg_unpacker *u,
	       const uint8_t *b, uint64_t *w)
{
	unsigned split = hg_unpack_cut(s, u->word, u->rep);
	uint64_t lo, hi;

	if (!hg_unpack_value(u, b, &lo))
		return 0;
	if (split) {
		if (!hg_unpack_value(u, b, &hi) ||
		    !hg_unpack_join(lo, hi, split, &lo))
			return 0;
	}
	*w = lo;
	hg_unpack_next(s, &u->word, &u->rep);
	return 1;
}

/* The values of len bytes at b into v (2 * len at most) when they end
 * cleanly: every pair whole, or the last one's second HG_PACK_NONE at the
 * end.  Returns how many, or -1 for any other bytes.  A second value
 * running past the end is found by the end's test alone. */
static inline int hg_unpack_all(const uint8_t *b, size_t len, uint64_t *v)
{
	const uint8_t *p = b, *end = b + len;
	uint64_t *o = v;
	int ok = 1;

	while (p < end) {
		unsigned lo = *p & 0xf, hi = *p >> 4;

		p++;
		if (lo > 8)
			return -1;
		*o++ = hg_unpack_load(p, lo);
		p += lo;
		if (hi > 8) {
			ok = hi == HG_PACK_NONE;
			break;
		}
		if (p > end)
			return -1;
		*o++ = hg_unpack_load(p, hi);
		p += hi;
	}
	return ok && p == end ? (int)(o - v) : -1;
}

/* n words cut as cut[] says (a shape's head, or its rep once) from the
 * values v[*at] on, of nv; 0 when their values run out or one is wider
 * than its part.  Inlined where cut and n are constants, it unrolls to a
 * load a value. */
static inline __attribute__((always_inline)) int
hg_values_words(const uint8_t *cut, unsigned n, const uint64_t *v,
		unsigned nv, unsigned *at, uint64_t *w)
{
	unsigned i = *at, need = n;

#pragma GCC unroll 8
	for (unsigned k = 0; k < n; k++)
		need += cut[k] != 0;
	if (nv - i < need)
		return 0;
#pragma GCC unroll 8
	for (unsigned k = 0; k < n; k++) {
		uint64_t lo = v[i++];

		if (cut[k] && !hg_unpack_join(lo, v[i++], cut[k], &lo))
			return 0;
		w[k] = lo;
	}
	*at = i;
	return 1;
}

#endif /* HG_PACK_H */
