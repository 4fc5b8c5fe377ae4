/* SPDX-License-Identifier: MIT */
/*
 * The lane loops (vx_fast.c's forms): each FAST row of vx_vop.def
 * inlined into one skeleton over the wave's lanes, so it computes what
 * the general frame computes.  The file is compiled twice, for the
 * baseline of the host's architecture and, where the compiler and the
 * host have them, for wider vectors with fused multiply-adds (the table
 * it defines is named by VX_LANES_TABLE); vx_fast.c picks one.
 */
#include "vx_fast.h"
#include "vx_ops.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifndef VX_LANES_TABLE
#define VX_LANES_TABLE vx_lanes_base
#endif

/* Source i as a row of lanes (and hi, its upper halves, for a 64-bit
 * one): a VGPR's own row, or a scalar repeated. */
static const uint32_t *row(struct vx_wave *w, const struct isa_insn *in,
			   const struct vx_shape *sh, int i, const uint32_t **hi)
{
	unsigned src = in->src[i];
	int wide = (sh->src64 >> i) & 1;
	if (src >= ISA_SRC_VGPR) {
		*hi = w->v[(src - ISA_SRC_VGPR + 1) & 511];
		return w->v[(src - ISA_SRC_VGPR) & 511];
	}
	uint64_t k = wide ? vx_sread64(w, src, in->lit, sh->stype[i] == VX_T_F64)
			  : vx_sread(w, src, in->lit);
	struct vx_ctx *c = w->c;
	uint32_t *lo = c->konst[i], *up = c->konst_hi[i];
	if (!((c->konst_ok >> i) & 1) || c->konst_val[i] != k) {
		for (int l = 0; l < VX_LANES; l++)
			lo[l] = (uint32_t)k, up[l] = (uint32_t)(k >> 32);
		c->konst_val[i] = k;
		c->konst_ok |= 1u << i;
	}
	*hi = up;
	return lo;
}

/* The mask a VOP2 form reads from VCC, a VOP3 form from its third source. */
static uint64_t mask_in(const struct vx_wave *w, const struct isa_insn *in)
{
	return in->fmt == ISA_VOP3 ? vx_sread64(w, in->src[2], in->lit, 0) : vx_vcc(w);
}

#define LANES(...) VX_EACH_LANE(exec, __VA_ARGS__)

#define PAIR(lo, hi, i) (((sh->src64 >> (i)) & 1) ? (lo)[l] | (uint64_t)(hi)[l] << 32 : (lo)[l])

/* A mask as a byte a lane (0 or 1), and back: a loop over a full wave
 * keeps each lane's carry in a byte, as the host's vectors have no shift
 * by a different count in each element of 64-bit ones. */
static inline void unpack_bits(uint64_t m, uint8_t *b)
{
#ifdef __SSE2__
	/* each of 16 bytes its bit of the 16 lanes' two mask bytes */
	const __m128i bit = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1,
					 -128, 64, 32, 16, 8, 4, 2, 1);
	for (int i = 0; i < VX_LANES; i += 16) {
		__m128i v = _mm_cvtsi32_si128((int)(uint16_t)(m >> i));
		v = _mm_unpacklo_epi8(v, v);
		v = _mm_unpacklo_epi16(v, v);
		v = _mm_unpacklo_epi32(v, v);
		v = _mm_cmpeq_epi8(_mm_and_si128(v, bit), bit);
		_mm_storeu_si128((__m128i *)(b + i), _mm_and_si128(v, _mm_set1_epi8(1)));
	}
#else
	for (int l = 0; l < VX_LANES; l++)
		b[l] = (uint8_t)((m >> l) & 1);
#endif
}

static inline uint64_t pack_bits(const uint8_t *b)
{
	uint64_t m = 0;
#ifdef __SSE2__
	for (int i = 0; i < VX_LANES; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + i));
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) << i;
	}
#else
	for (int l = 0; l < VX_LANES; l++)
		m |= (uint64_t)b[l] << l;
#endif
	return m;
}

/* The row on every lane: each lane reads only its own element of each
 * source row and writes only its own of the destination's, so the
 * results can go to the stack first and the loop has no store that might
 * alias a source, which leaves the compiler free to widen it. */
static inline __attribute__((always_inline)) uint64_t
full_wave(struct vx_wave *w, const struct vx_shape *sh, vx_lane_fn *op, const uint32_t *a,
	  const uint32_t *ah, const uint32_t *b, const uint32_t *bh, const uint32_t *c,
	  const uint32_t *ch, uint64_t cin, uint32_t *d, uint32_t *dh)
{
	uint32_t lo[VX_LANES], hi[VX_LANES];
	uint8_t ci[VX_LANES], co[VX_LANES];
	int reads = sh->kind == VX_K_CARRY_IN || sh->kind == VX_K_CNDMASK;
	int writes = sh->kind == VX_K_CARRY_OUT || sh->kind == VX_K_CARRY_IN;
	if (reads)
		unpack_bits(cin, ci);
	for (int l = 0; l < VX_LANES; l++) {
		int k = 0;
		uint64_t r = op(w, l, PAIR(a, ah, 0), PAIR(b, bh, 1), PAIR(c, ch, 2),
				reads ? ci[l] : 0, &k);
		r = vx_default_nan(r, sh->dtype);
		lo[l] = (uint32_t)r;
		if (sh->dst64)
			hi[l] = (uint32_t)(r >> 32);
		if (writes)
			co[l] = (uint8_t)k;
	}
	memcpy(d, lo, sizeof(lo));
	if (sh->dst64)
		memcpy(dh, hi, sizeof(hi));
	return writes ? pack_bits(co) : 0;
}

/* One row's loop: inlined into each form with the row's shape and
 * operation as constants, so that what is left is the row's arithmetic
 * over the lanes. */
static inline __attribute__((always_inline)) void
lanes(struct vx_wave *w, const struct isa_insn *in, const struct vx_shape *sh, vx_lane_fn *op)
{
	uint64_t exec = vx_exec(w), cin = 0, out = 0;
	const uint32_t *ah, *bh, *ch;
	const uint32_t *a = row(w, in, sh, 0, &ah);
	const uint32_t *b = sh->nsrc > 1 ? row(w, in, sh, 1, &bh) : (bh = ah, a);
	uint32_t *d = w->v[in->dst & 511], *dh = w->v[(in->dst + 1) & 511];
	const uint32_t *c = sh->mac ? (ch = dh, d) : sh->nsrc > 2 ? row(w, in, sh, 2, &ch)
			    : (ch = ah, a);
	if (sh->kind == VX_K_CARRY_IN || sh->kind == VX_K_CNDMASK)
		cin = mask_in(w, in);
	if (exec == ~0ull) {
		out = full_wave(w, sh, op, a, ah, b, bh, c, ch, cin, d, dh);
	} else {
		for (uint64_t e = exec; e; e &= e - 1) {
			int l = __builtin_ctzll(e), co = 0;
			uint64_t r = op(w, l, PAIR(a, ah, 0), PAIR(b, bh, 1), PAIR(c, ch, 2),
					(int)((cin >> l) & 1), &co);
			r = vx_default_nan(r, sh->dtype);
			d[l] = (uint32_t)r;
			if (sh->dst64)
				dh[l] = (uint32_t)(r >> 32);
			out |= (uint64_t)co << l;
		}
	}
	if (sh->kind == VX_K_CARRY_OUT || sh->kind == VX_K_CARRY_IN)
		vx_set_sgpr64(w, in->fmt == ISA_VOP3 ? in->sdst : ISA_SRC_VCC_LO, out & exec);
}

/* Whether MODE keeps denormals in and out for every float type of the
 * shape: where it does not, the general frame flushes them. */
static inline int has_type(const struct vx_shape *sh, int t)
{
	return sh->stype[0] == t || sh->stype[1] == t || sh->stype[2] == t || sh->dtype == t;
}

static inline __attribute__((always_inline)) int
keeps_denormals(const struct vx_wave *w, const struct vx_shape *sh)
{
	if (has_type(sh, VX_T_F32) && ((w->mode >> 4) & 3) != 3)
		return 0;
	return !((has_type(sh, VX_T_F64) || has_type(sh, VX_T_F16)) && ((w->mode >> 6) & 3) != 3);
}

/* The forms' loops, each returning 1 when the wave's MODE asks for the
 * general frame. */
#define VX_OP(m, shape, in, out, tier, ...) VX_LOOP_##tier(m, m, shape)
#define VX_ALIAS(m, shape, tier, same) VX_LOOP_##tier(m, same, shape)
#define VX_LOOP_GEN(m, same, shape)
#define VX_LOOP_FAST(m, same, shape)						\
	static int loop_##m(struct vx_wave *w, const struct isa_insn *in)	\
	{									\
		static const struct vx_shape sh = VX_SHAPE_OF(shape);		\
		if (!keeps_denormals(w, &sh))					\
			return 1;						\
		lanes(w, in, &sh, vx_op_##same);				\
		return 0;							\
	}
#include "vx_vop.def"

/* The 32-bit integer compares, a loop per predicate of vx_vop.def. */
static int loop_cmp(struct vx_wave *w, const struct isa_insn *in)
{
	static const struct vx_shape sh = VX_SHAPE_OF(II_I);
	const uint32_t *ah, *bh;
	const uint32_t *a = row(w, in, &sh, 0, &ah), *b = row(w, in, &sh, 1, &bh);
	uint64_t exec = vx_exec(w), out = 0;
	/* a compare's VOP3 opcode is its VOPC one: bit 3 unsigned */
	switch (in->op & 15) {
#define VX_CMPI(cc, ...)							\
	case cc:								\
		LANES(int32_t x = (int32_t)a[l], y = (int32_t)b[l]; (void)x, (void)y;	\
		      out |= (uint64_t)(__VA_ARGS__) << l);			\
		break;								\
	case (cc) + 8:								\
		LANES(uint32_t x = a[l], y = b[l]; (void)x, (void)y;		\
		      out |= (uint64_t)(__VA_ARGS__) << l);			\
		break;
#include "vx_vop.def"
	}
	/* VOPC writes every lane's bit: inactive ones as 0. */
	vx_set_sgpr64(w, in->sdst, out & exec);
	if (in->op & 0x10)
		vx_set_exec(w, out & exec);
	return 0;
}

/* gfx90a's packed f32 forms: each half's operands are rows, picked once
 * by op_sel (a scalar or a constant spread over a row of its own), and
 * its negations are sign bits.  v_pk_mov_b32 takes half h from source h,
 * by op_sel alone. */
static const uint32_t *pk_row(struct vx_wave *w, const struct isa_insn *in, unsigned i,
			      int hi, uint32_t *k)
{
	unsigned src = in->src[i];
	if (src >= ISA_SRC_VGPR)
		return w->v[(src - ISA_SRC_VGPR + (unsigned)hi) & 511];
	uint64_t v = src < 128 ? vx_sgpr64(w, src) : vx_sread(w, src, in->lit);
	uint32_t word = src < 128 && hi ? (uint32_t)(v >> 32) : (uint32_t)v;
	for (int l = 0; l < VX_LANES; l++)
		k[l] = word;
	return k;
}

static inline __attribute__((always_inline)) uint32_t
pk_half(const uint32_t *const r[3], const uint32_t s[3], int l, int h, int f)
{
	float a = vx_f32(r[0][l] ^ s[0]), b = vx_f32(r[1][l] ^ s[1]);
	if (f == VX_F_PK_FMA)
		return vx_u32(fmaf(a, b, vx_f32(r[2][l] ^ s[2])));
	if (f == VX_F_PK_MOV)
		return r[h][l];
	return vx_u32(f == VX_F_PK_MUL ? a * b : a + b);
}

/* A full wave's results go to the stack first, as full_wave's do: a
 * destination that is also a source then keeps the loop a vector one. */
static inline __attribute__((always_inline)) int pk_loop(struct vx_wave *w,
							 const struct isa_insn *in, int f)
{
	const uint32_t *row[2][3];
	uint32_t sign[2][3], k[2][3][VX_LANES];
	unsigned n = f == VX_F_PK_FMA ? 3 : 2;
	for (int h = 0; h < 2; h++) {
		uint8_t sel = f == VX_F_PK_MOV ? in->opsel : h ? in->opsel_hi : in->opsel;
		uint8_t neg = f == VX_F_PK_MOV ? 0 : h ? in->neg_hi : in->neg;
		for (unsigned i = 0; i < 3; i++) {
			int hi = f == VX_F_PK_MOV ? (sel >> h) & 1 : (sel >> i) & 1;
			row[h][i] = i < n ? pk_row(w, in, i, hi, k[h][i]) : row[h][0];
			sign[h][i] = (uint32_t)((neg >> i) & 1) << 31;
		}
	}
	uint32_t *d0 = w->v[in->dst & 511], *d1 = w->v[(in->dst + 1) & 511];
	uint64_t exec = vx_exec(w);
	if (exec == ~0ull) {
		uint32_t r0[VX_LANES], r1[VX_LANES];
		for (int l = 0; l < VX_LANES; l++) {
			r0[l] = pk_half(row[0], sign[0], l, 0, f);
			r1[l] = pk_half(row[1], sign[1], l, 1, f);
		}
		memcpy(d0, r0, sizeof(r0));
		memcpy(d1, r1, sizeof(r1));
		return 0;
	}
	for (uint64_t e = exec; e; e &= e - 1) {
		int l = __builtin_ctzll(e);
		uint32_t lo = pk_half(row[0], sign[0], l, 0, f), hi = pk_half(row[1], sign[1], l, 1, f);
		d0[l] = lo;
		d1[l] = hi;
	}
	return 0;
}

static int loop_pk_fma(struct vx_wave *w, const struct isa_insn *in)
{
	return pk_loop(w, in, VX_F_PK_FMA);
}

static int loop_pk_mul(struct vx_wave *w, const struct isa_insn *in)
{
	return pk_loop(w, in, VX_F_PK_MUL);
}

static int loop_pk_add(struct vx_wave *w, const struct isa_insn *in)
{
	return pk_loop(w, in, VX_F_PK_ADD);
}

static int loop_pk_mov(struct vx_wave *w, const struct isa_insn *in)
{
	return pk_loop(w, in, VX_F_PK_MOV);
}

vx_loop_fn *const VX_LANES_TABLE[VX_FORMS] = {
#define VX_OP(m, shape, in, out, tier, ...) VX_ENTRY_##tier(m)
#define VX_ALIAS(m, shape, tier, same) VX_ENTRY_##tier(m)
#define VX_ENTRY_GEN(m)
#define VX_ENTRY_FAST(m) [VX_F_##m] = loop_##m,
#include "vx_vop.def"
	[VX_F_CMP] = loop_cmp,
	[VX_F_PK_FMA] = loop_pk_fma,
	[VX_F_PK_MUL] = loop_pk_mul,
	[VX_F_PK_ADD] = loop_pk_add,
	[VX_F_PK_MOV] = loop_pk_mov,
};
