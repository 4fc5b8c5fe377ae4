/* SPDX-License-Identifier: MIT */
/*
 * The general frame's half of vx_vop.def: each VALU operation's shape, and
 * its value on one lane, by opcode (the rows themselves are vx_ops.h's
 * functions); the compares' shapes and predicates by VOPC's opcode ranges;
 * the operations that read or write across lanes.
 */
#include "vx_ops.h"

#define F32 VX_T_F32
#define F64 VX_T_F64
#define F16 VX_T_F16
#define B32 VX_T_B32
#define B64 VX_T_B64
#define I16 VX_T_I16

static void set(struct vx_shape *sh, int n, int s64, int t0, int t1, int t2,
		int dt, int d64, int kind)
{
	sh->nsrc = (uint8_t)n;
	sh->src64 = (uint8_t)s64;
	sh->stype[0] = (uint8_t)t0;
	sh->stype[1] = (uint8_t)t1;
	sh->stype[2] = (uint8_t)t2;
	sh->dtype = (uint8_t)dt;
	sh->dst64 = (uint8_t)d64;
	sh->d16 = dt == F16 || dt == I16;
	sh->kind = (uint8_t)kind;
}

/* Compares: VOPC's opcode map by ranges (type, then cmp or cmpx). */
static int cmp_shape(unsigned op, struct vx_shape *sh)
{
	int t, wide = 0;
	if (op >= 0x10 && op <= 0x15)
		t = op < 0x12 ? F32 : op < 0x14 ? F64 : F16, wide = t == F64;
	else if (op >= 0x20 && op < 0x40)
		t = F16;
	else if (op >= 0x40 && op < 0x60)
		t = F32;
	else if (op >= 0x60 && op < 0x80)
		t = F64, wide = 1;
	else if (op >= 0xa0 && op < 0xc0)
		t = I16;
	else if (op >= 0xc0 && op < 0xe0)
		t = B32;
	else if (op >= 0xe0)
		t = B64, wide = 1;
	else
		return -1;
	int x = op <= 0x15 ? op & 1 : (op & 0x10) != 0;
	/* class reads its mask as a 32-bit integer */
	set(sh, 2, op <= 0x15 ? wide : wide * 3, t, op <= 0x15 ? B32 : t, 0, B32, 0,
	    x ? VX_K_CMPX : VX_K_CMP);
	return 0;
}

unsigned vx_vop_op(enum isa_family fam, const struct isa_insn *in)
{
	switch (in->fmt) {
	case ISA_VOP2:
		if (fam == ISA_GFX908 && in->op == ISA_VOP2_v_mul_legacy_f32_e32)
			return ISA_VOP3_v_mul_legacy_f32;
		return ISA_VOP3_FROM_VOP2(in->op);
	case ISA_VOP1: return ISA_VOP3_FROM_VOP1(in->op);
	case ISA_VOPC: return ISA_VOP3_FROM_VOPC(in->op);
	}
	if (fam == ISA_GFX908 && in->op == ISA_VOP3_v_mul_legacy_f32_e64)
		return ISA_VOP3_v_mul_legacy_f32;
	return in->op;
}

int vx_vop_shape(unsigned op, struct vx_shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	if (op < 0x100)
		return cmp_shape(op, sh);
	switch (op) {
#define VX_OP(m, shape, ...) VX_SHAPE(m, shape)
#define VX_ALIAS(m, shape, tier, same) VX_SHAPE(m, shape)
#define VX_SHAPE(m, shape) case ISA_VOP3_##m: *sh = (struct vx_shape)VX_SHAPE_OF(shape); return 0;
#include "vx_vop.def"
	}
	return -1;
}

static int cmp_f(double a, double b, unsigned cc)
{
	int un = isnan(a) || isnan(b);
	switch (cc & 15) {
	case 0: return 0;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return !un && a != b;
	case 6: return a >= b;
	case 7: return !un;
	case 8: return un;
	case 9: return !(a >= b);
	case 10: return un || a == b;
	case 11: return !(a > b);
	case 12: return !(a <= b);
	case 13: return !(a == b);
	case 14: return !(a < b);
	}
	return 1;
}

/* The integer compares' predicates (vx_vop.def), signed and unsigned. */
static int cmp_s(int64_t x, int64_t y, unsigned cc)
{
	switch (cc & 7) {
#define VX_CMPI(k, ...) case k: return __VA_ARGS__;
#include "vx_vop.def"
	}
	return 1;
}

static int cmp_u(uint64_t x, uint64_t y, unsigned cc)
{
	switch (cc & 7) {
#define VX_CMPI(k, ...) case k: return __VA_ARGS__;
#include "vx_vop.def"
	}
	return 1;
}

/* v_cmp_class: the mask's bits name the classes that match.  Whether the
 * value is a denormal is the caller's, from its own format's bits: the
 * widening to double makes every f32 and f16 denormal normal. */
static int fclass(double v, int is_signaling, int denorm, uint32_t mask)
{
	int bit;
	if (isnan(v))
		bit = is_signaling ? 0 : 1;
	else if (isinf(v))
		bit = signbit(v) ? 2 : 9;
	else if (v == 0)
		bit = signbit(v) ? 5 : 6;
	else if (denorm)
		bit = signbit(v) ? 4 : 7;
	else
		bit = signbit(v) ? 3 : 8;
	return (mask >> bit) & 1;
}

static int cmp_eval(unsigned op, uint64_t a, uint64_t b)
{
	if (op <= 0x15) {
		if (op < 0x12)
			return fclass(vx_f32((uint32_t)a), !((a >> 22) & 1),
				      !(a & 0x7f800000u), (uint32_t)b);
		if (op < 0x14)
			return fclass(vx_f64(a), !((a >> 51) & 1),
				      !(a & 0x7ff0000000000000ull), (uint32_t)b);
		return fclass(vx_f16_to_f32((uint16_t)a), !((a >> 9) & 1), !(a & 0x7c00),
			      (uint32_t)b);
	}
	if (op < 0x40)
		return cmp_f(vx_f16_to_f32((uint16_t)a), vx_f16_to_f32((uint16_t)b), op);
	if (op < 0x60)
		return cmp_f(vx_f32((uint32_t)a), vx_f32((uint32_t)b), op);
	if (op < 0x80)
		return cmp_f(vx_f64(a), vx_f64(b), op);
	if (op < 0xc0)
		return op & 8 ? cmp_u((uint16_t)a, (uint16_t)b, op) : cmp_s((int16_t)a, (int16_t)b, op);
	if (op < 0xe0)
		return op & 8 ? cmp_u((uint32_t)a, (uint32_t)b, op) : cmp_s((int32_t)a, (int32_t)b, op);
	return op & 8 ? cmp_u(a, b, op) : cmp_s((int64_t)a, (int64_t)b, op);
}

double vx_fixup(double q, double den, double num)
{
	int neg = signbit(den) != signbit(num);
	if (isnan(den))
		return den;
	if (isnan(num))
		return num;
	if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0)
		return neg ? -0.0 : 0.0;
	/* A quotient beyond the range overflows inside the fma chain to
	 * inf - inf; it is the infinity or the zero the operands imply. */
	if (isnan(q))
		return fabs(num) > fabs(den) ? (neg ? -INFINITY : INFINITY) : (neg ? -0.0 : 0.0);
	return neg ? -fabs(q) : fabs(q);
}

uint32_t vx_perm(uint32_t a, uint32_t b, uint32_t sel)
{
	uint64_t both = (uint64_t)a << 32 | b;
	uint32_t r = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t s = (sel >> (8 * i)) & 0xff, byte;
		if (s < 8)
			byte = (uint32_t)(both >> (8 * s)) & 0xff;
		else if (s < 12)
			byte = ((uint32_t)(both >> (16 * (s - 8) + 15)) & 1) ? 0xff : 0;
		else
			byte = s == 12 ? 0 : 0xff;
		r |= byte << (8 * i);
	}
	return r;
}

/* Both to f16, rounding toward zero: the f32 truncated before narrowing. */
uint32_t vx_pkrtz(uint32_t x, uint32_t y)
{
	float fx = vx_f32(x), fy = vx_f32(y);
	uint16_t hx = vx_f32_to_f16(fx), hy = vx_f32_to_f16(fy);
	if (fabsf(vx_f16_to_f32(hx)) > fabsf(fx) && !isinf(fx))
		hx--;
	if (fabsf(vx_f16_to_f32(hy)) > fabsf(fy) && !isinf(fy))
		hy--;
	return hx | (uint32_t)hy << 16;
}

uint64_t vx_vop_eval(struct vx_wave *w, unsigned op, int lane, uint64_t a, uint64_t b,
		     uint64_t c, int cin, int *cout)
{
	if (op < 0x100) {
		*cout = cmp_eval(op, a, b);
		return 0;
	}
	switch (op) {
#define VX_OP(m, ...) case ISA_VOP3_##m: return vx_op_##m(w, lane, a, b, c, cin, cout);
#define VX_ALIAS(m, shape, tier, same) case ISA_VOP3_##m: return vx_op_##same(w, lane, a, b, c, cin, cout);
#include "vx_vop.def"
	}
	return 0;
}

int vx_vop_lane_op(struct vx_wave *w, const struct isa_insn *in, unsigned op)
{
	uint64_t exec = vx_exec(w);
	unsigned s0 = in->src[0];
	switch (op) {
	case ISA_VOP3_FROM_VOP1(ISA_VOP1_v_readfirstlane_b32): {
		int l = exec ? __builtin_ctzll(exec) : 0;
		uint32_t v = s0 >= ISA_SRC_VGPR ? w->v[(s0 - ISA_SRC_VGPR) & 511][l] : vx_sread(w, s0, in->lit);
		vx_set_sgpr(w, in->dst, v);
		return 0;
	}
	case ISA_VOP3_v_readlane_b32: {
		unsigned l = vx_sread(w, in->src[1], in->lit) & 63;
		uint32_t v = s0 >= ISA_SRC_VGPR ? w->v[(s0 - ISA_SRC_VGPR) & 511][l] : vx_sread(w, s0, in->lit);
		vx_set_sgpr(w, in->dst, v);
		return 0;
	}
	case ISA_VOP3_v_writelane_b32: {
		unsigned l = vx_sread(w, in->src[1], in->lit) & 63;
		w->v[in->dst & 511][l] = vx_sread(w, s0, in->lit);
		return 0;
	}
	}
	return vx_unknown(w, in);
}
