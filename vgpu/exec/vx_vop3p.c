/* SPDX-License-Identifier: MIT */
/*
 * Packed math (VOP3P): two halves per register (16-bit types) or two
 * registers per operand (gfx90a's packed f32), op_sel choosing the inputs
 * of the low result and op_sel_hi those of the high one.
 */
#include <math.h>

#include "vx_fast.h"
#include "vx_int.h"
#include "vx_vop.h"

static uint64_t rd64(const struct vx_wave *w, unsigned src, uint32_t lit, int l)
{
	if (src >= ISA_SRC_VGPR) {
		unsigned v = src - ISA_SRC_VGPR;
		return w->v[v & 511][l] | (uint64_t)w->v[(v + 1) & 511][l] << 32;
	}
	/* a scalar pair, or a constant repeated in both halves */
	if (src < 128)
		return vx_sgpr64(w, src);
	uint32_t k = vx_sread(w, src, lit);
	return k | (uint64_t)k << 32;
}

static uint32_t rd32(const struct vx_wave *w, unsigned src, uint32_t lit, int l)
{
	return src >= ISA_SRC_VGPR ? w->v[(src - ISA_SRC_VGPR) & 511][l] : vx_sread(w, src, lit);
}

static float f32_half(uint64_t v, int hi, int neg)
{
	float f = vx_f32((uint32_t)(v >> (hi ? 32 : 0)));
	return neg ? -f : f;
}

static int pk_f32(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t exec = vx_exec(w);
	for (int l = 0; l < VX_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		uint64_t s[3];
		for (int i = 0; i < 3; i++)
			s[i] = rd64(w, in->src[i], in->lit, l);
		uint32_t r[2];
		for (int h = 0; h < 2; h++) {
			uint8_t sel = h ? in->opsel_hi : in->opsel, neg = h ? in->neg_hi : in->neg;
			float a = f32_half(s[0], sel & 1, neg & 1), b = f32_half(s[1], sel & 2, neg & 2);
			float c = f32_half(s[2], sel & 4, neg & 4);
			switch (in->op) {
			case ISA_VOP3P_v_pk_fma_f32: r[h] = vx_u32(fmaf(a, b, c)); break;
			case ISA_VOP3P_v_pk_mul_f32: r[h] = vx_u32(a * b); break;
			case ISA_VOP3P_v_pk_add_f32: r[h] = vx_u32(a + b); break;
			default: /* v_pk_mov_b32: op_sel alone picks each half */
				r[h] = (uint32_t)(s[h] >> (((in->opsel >> h) & 1) ? 32 : 0));
				break;
			}
		}
		w->v[in->dst & 511][l] = r[0];
		w->v[(in->dst + 1) & 511][l] = r[1];
	}
	return 0;
}

static uint16_t half_of(uint32_t v, int hi)
{
	return (uint16_t)(hi ? v >> 16 : v);
}

static uint16_t pk16(unsigned op, uint16_t a, uint16_t b, uint16_t c)
{
	float fa = vx_f16_to_f32(a), fb = vx_f16_to_f32(b), fc = vx_f16_to_f32(c);
	int16_t sa = (int16_t)a, sb = (int16_t)b;
	switch (op) {
	case ISA_VOP3P_v_pk_mad_i16: return (uint16_t)(sa * sb + (int16_t)c);
	case ISA_VOP3P_v_pk_mul_lo_u16: return (uint16_t)(a * b);
	case ISA_VOP3P_v_pk_add_i16: case ISA_VOP3P_v_pk_add_u16: return (uint16_t)(a + b);
	case ISA_VOP3P_v_pk_sub_i16: case ISA_VOP3P_v_pk_sub_u16: return (uint16_t)(a - b);
	case ISA_VOP3P_v_pk_lshlrev_b16: return (uint16_t)(b << (a & 15));
	case ISA_VOP3P_v_pk_lshrrev_b16: return (uint16_t)(b >> (a & 15));
	case ISA_VOP3P_v_pk_ashrrev_i16: return (uint16_t)(sb >> (a & 15));
	case ISA_VOP3P_v_pk_max_i16: return (uint16_t)(sa > sb ? sa : sb);
	case ISA_VOP3P_v_pk_min_i16: return (uint16_t)(sa < sb ? sa : sb);
	case ISA_VOP3P_v_pk_mad_u16: return (uint16_t)(a * b + c);
	case ISA_VOP3P_v_pk_max_u16: return a > b ? a : b;
	case ISA_VOP3P_v_pk_min_u16: return a < b ? a : b;
	case ISA_VOP3P_v_pk_fma_f16: return vx_f32_to_f16(fmaf(fa, fb, fc));
	case ISA_VOP3P_v_pk_add_f16: return vx_f32_to_f16(fa + fb);
	case ISA_VOP3P_v_pk_mul_f16: return vx_f32_to_f16(fa * fb);
	case ISA_VOP3P_v_pk_min_f16: return vx_f32_to_f16(vx_minf(fa, fb));
	default: return vx_f32_to_f16(vx_maxf(fa, fb));
	}
}

static int is_f16(unsigned op)
{
	return op >= ISA_VOP3P_v_pk_fma_f16 && op <= ISA_VOP3P_v_pk_max_f16;
}

/* An operand of packed 16-bit math: an inline constant is a 16-bit value
 * (the float ones as halves) standing in both halves, whatever op_sel
 * picks, which is how LLVM encodes a splat. */
static uint32_t rd_pk16(const struct vx_wave *w, const struct isa_insn *in, unsigned src, int l)
{
	static const uint16_t halves[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
					    0xc000, 0x4400, 0xc400, 0x3118 };
	uint32_t k;
	if (src < ISA_SRC_ZERO || src >= ISA_SRC_SDWA)
		return rd32(w, src, in->lit, l);
	if (src >= ISA_SRC_HALF && src <= ISA_SRC_INV_2PI)
		k = halves[src - ISA_SRC_HALF];
	else if (src > ISA_SRC_INV_2PI)
		k = 0;
	else
		k = (uint16_t)vx_sread(w, src, in->lit);
	return k | k << 16;
}

static int pk_16(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t exec = vx_exec(w);
	for (int l = 0; l < VX_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		uint32_t s[3], r = 0;
		for (int i = 0; i < 3; i++)
			s[i] = rd_pk16(w, in, in->src[i], l);
		for (int h = 0; h < 2; h++) {
			uint8_t sel = h ? in->opsel_hi : in->opsel, neg = h ? in->neg_hi : in->neg;
			uint16_t x[3];
			for (int i = 0; i < 3; i++) {
				x[i] = half_of(s[i], (sel >> i) & 1);
				if (is_f16(in->op) && ((neg >> i) & 1))
					x[i] ^= 0x8000;
			}
			r |= (uint32_t)pk16(in->op, x[0], x[1], x[2]) << (16 * h);
		}
		w->v[in->dst & 511][l] = r;
	}
	return 0;
}

/* AccVGPRs live after the 256 architectural registers. */
static int accvgpr(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t exec = vx_exec(w);
	for (int l = 0; l < VX_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		if (in->op == ISA_VOP3P_v_accvgpr_read_b32)
			w->v[in->dst & 255][l] = w->v[256 + ((in->src[0] - ISA_SRC_VGPR) & 255)][l];
		else
			w->v[256 + (in->dst & 255)][l] = rd32(w, in->src[0], in->lit, l);
	}
	return 0;
}

/* The slot's fast byte for gfx90a's packed f32 forms: the form of the
 * lane loops (vx_lanes.c) that runs it, or an MFMA. */
enum { PK_NONE, PK_MFMA = VX_FORMS };
_Static_assert(VX_FORMS < 256, "a form fits the slot's fast byte");

static uint8_t form(const struct isa_insn *in, const char *name)
{
	if (!strncmp(name, "v_mfma_", 7))
		return PK_MFMA;
	switch (in->op) {
	case ISA_VOP3P_v_pk_fma_f32: return VX_F_PK_FMA;
	case ISA_VOP3P_v_pk_mul_f32: return VX_F_PK_MUL;
	case ISA_VOP3P_v_pk_add_f32: return VX_F_PK_ADD;
	case ISA_VOP3P_v_pk_mov_b32: return VX_F_PK_MOV;
	}
	return PK_NONE;
}

int vx_vop3p(struct vx_wave *w, struct vx_slot *s)
{
	const struct isa_insn *in = &s->in;
	if (!s->prep.ready) {
		const char *name = isa_name(w->c->dev->fam, ISA_VOP3P, in->op);
		s->prep.known = name != NULL;
		s->prep.fast = name ? form(in, name) : PK_NONE;
		if (s->prep.fast == PK_MFMA)
			vx_mfma_form(w->c->dev->fam, name, &s->prep.mfma);
		if (s->prep.fast != PK_MFMA && (in->clamp || w->c->dev->general_only))
			s->prep.fast = PK_NONE;
		s->prep.ready = 1;
	}
	if (!s->prep.known)
		return vx_unknown(w, in);
	if (s->prep.fast == PK_MFMA)
		return vx_mfma(w, in, &s->prep.mfma);
	if (in->clamp)
		return vx_unknown(w, in);	/* packed saturation: not here yet */
	if (s->prep.fast)
		return vx_fast_run(w, in, s->prep.fast);
	switch (in->op) {
	case ISA_VOP3P_v_pk_fma_f32: case ISA_VOP3P_v_pk_mul_f32:
	case ISA_VOP3P_v_pk_add_f32: case ISA_VOP3P_v_pk_mov_b32:
		return pk_f32(w, in);
	case ISA_VOP3P_v_accvgpr_read_b32: case ISA_VOP3P_v_accvgpr_write_b32:
		return accvgpr(w, in);
	}
	if (in->op <= ISA_VOP3P_v_pk_max_f16)
		return pk_16(w, in);
	return vx_unknown(w, in);
}
