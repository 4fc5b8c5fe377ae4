/* SPDX-License-Identifier: MIT */
/*
 * What each VALU operation computes on one lane, and the shape that tells
 * the frame how to feed it.  Arithmetic is the host's IEEE arithmetic in
 * round-to-nearest-even; where the hardware approximates (rcp, rsq, exp,
 * log, sin, cos) the host's correctly rounded or libm value stands in
 * (doc/testing.md); the division helpers are in vx_fdiv.c.
 */
#include <math.h>

#include "vx_fdiv.h"
#include "vx_vop.h"

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

int vx_vop_shape(enum isa_family fam, unsigned op, struct vx_shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	if (op < 0x100)
		return cmp_shape(op, sh);
	switch (op) {
	case ISA_VOP3_v_cndmask_b32_e64: set(sh, 2, 0, B32, B32, 0, B32, 0, VX_K_CNDMASK); return 0;
	case ISA_VOP3_v_add_f32_e64: case ISA_VOP3_v_sub_f32_e64: case ISA_VOP3_v_subrev_f32_e64:
	case ISA_VOP3_v_mul_f32_e64: case ISA_VOP3_v_min_f32_e64: case ISA_VOP3_v_max_f32_e64:
	case ISA_VOP3_v_ldexp_f32: case ISA_VOP3_v_mul_legacy_f32:
		set(sh, 2, 0, F32, op == ISA_VOP3_v_ldexp_f32 ? B32 : F32, 0, F32, 0, VX_K_PLAIN); return 0;
	case 0x104: /* gfx908 v_mul_legacy_f32; gfx90a and later v_fmac_f64 */
		if (fam == ISA_GFX908)
			set(sh, 2, 0, F32, F32, 0, F32, 0, VX_K_PLAIN);
		else
			set(sh, 3, 7, F64, F64, F64, F64, 1, VX_K_PLAIN), sh->mac = 1;
		return 0;
	case ISA_VOP3_FROM_VOP2(ISA_VOP2_v_madmk_f32):
		set(sh, 2, 0, F32, F32, F32, F32, 0, VX_K_MADMK); return 0;
	case ISA_VOP3_FROM_VOP2(ISA_VOP2_v_madak_f32):
		set(sh, 2, 0, F32, F32, F32, F32, 0, VX_K_MADAK); return 0;
	case ISA_VOP3_v_mac_f32_e64: case ISA_VOP3_v_fmac_f32_e64:
		set(sh, 3, 0, F32, F32, F32, F32, 0, VX_K_PLAIN);
		sh->mac = 1;
		return 0;
	case ISA_VOP3_v_mul_i32_i24_e64: case ISA_VOP3_v_mul_hi_i32_i24_e64:
	case ISA_VOP3_v_mul_u32_u24_e64: case ISA_VOP3_v_mul_hi_u32_u24_e64:
	case ISA_VOP3_v_min_i32_e64: case ISA_VOP3_v_max_i32_e64: case ISA_VOP3_v_min_u32_e64:
	case ISA_VOP3_v_max_u32_e64: case ISA_VOP3_v_lshrrev_b32_e64: case ISA_VOP3_v_ashrrev_i32_e64:
	case ISA_VOP3_v_lshlrev_b32_e64: case ISA_VOP3_v_and_b32_e64: case ISA_VOP3_v_or_b32_e64:
	case ISA_VOP3_v_xor_b32_e64: case ISA_VOP3_v_xnor_b32_e64: case ISA_VOP3_v_add_u32_e64:
	case ISA_VOP3_v_sub_u32_e64: case ISA_VOP3_v_subrev_u32_e64: case ISA_VOP3_v_mul_lo_u32:
	case ISA_VOP3_v_mul_hi_u32: case ISA_VOP3_v_mul_hi_i32: case ISA_VOP3_v_bcnt_u32_b32:
	case ISA_VOP3_v_mbcnt_lo_u32_b32: case ISA_VOP3_v_mbcnt_hi_u32_b32: case ISA_VOP3_v_bfm_b32:
	case ISA_VOP3_v_add_i32: case ISA_VOP3_v_sub_i32:
		set(sh, 2, 0, B32, B32, 0, B32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_add_co_u32_e64: case ISA_VOP3_v_sub_co_u32_e64: case ISA_VOP3_v_subrev_co_u32_e64:
		set(sh, 2, 0, B32, B32, 0, B32, 0, VX_K_CARRY_OUT); return 0;
	case ISA_VOP3_v_addc_co_u32_e64: case ISA_VOP3_v_subb_co_u32_e64: case ISA_VOP3_v_subbrev_co_u32_e64:
		set(sh, 2, 0, B32, B32, 0, B32, 0, VX_K_CARRY_IN); return 0;
	case ISA_VOP3_v_add_u16_e64: case ISA_VOP3_v_sub_u16_e64: case ISA_VOP3_v_subrev_u16_e64:
	case ISA_VOP3_v_mul_lo_u16_e64: case ISA_VOP3_v_lshlrev_b16_e64: case ISA_VOP3_v_lshrrev_b16_e64:
	case ISA_VOP3_v_ashrrev_i16_e64: case ISA_VOP3_v_max_u16_e64: case ISA_VOP3_v_max_i16_e64:
	case ISA_VOP3_v_min_u16_e64: case ISA_VOP3_v_min_i16_e64:
		set(sh, 2, 0, I16, I16, 0, I16, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_add_f16_e64: case ISA_VOP3_v_sub_f16_e64: case ISA_VOP3_v_subrev_f16_e64:
	case ISA_VOP3_v_mul_f16_e64: case ISA_VOP3_v_max_f16_e64: case ISA_VOP3_v_min_f16_e64:
		set(sh, 2, 0, F16, F16, 0, F16, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_mov_b32_e64: case ISA_VOP3_v_not_b32_e64: case ISA_VOP3_v_bfrev_b32_e64:
	case ISA_VOP3_v_ffbh_u32_e64: case ISA_VOP3_v_ffbl_b32_e64: case ISA_VOP3_v_ffbh_i32_e64:
	case ISA_VOP3_v_cvt_f32_i32_e64: case ISA_VOP3_v_cvt_f32_u32_e64:
	case ISA_VOP3_v_cvt_f32_ubyte0_e64: case ISA_VOP3_v_cvt_f32_ubyte1_e64:
	case ISA_VOP3_v_cvt_f32_ubyte2_e64: case ISA_VOP3_v_cvt_f32_ubyte3_e64:
		set(sh, 1, 0, B32, 0, 0, op >= ISA_VOP3_v_cvt_f32_i32_e64 && op <= ISA_VOP3_v_cvt_f32_ubyte3_e64 ? F32 : B32, 0, VX_K_PLAIN);
		return 0;
	case ISA_VOP3_FROM_VOP1(ISA_VOP1_v_readfirstlane_b32):
		set(sh, 1, 0, B32, 0, 0, B32, 0, VX_K_LANE); return 0;
	case ISA_VOP3_v_readlane_b32: case ISA_VOP3_v_writelane_b32:
		set(sh, 2, 0, B32, B32, 0, B32, 0, VX_K_LANE); return 0;
	case ISA_VOP3_v_cvt_u32_f32_e64: case ISA_VOP3_v_cvt_i32_f32_e64: case ISA_VOP3_v_cvt_rpi_i32_f32_e64:
	case ISA_VOP3_v_cvt_flr_i32_f32_e64: case ISA_VOP3_v_frexp_exp_i32_f32_e64:
		set(sh, 1, 0, F32, 0, 0, B32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_fract_f32_e64: case ISA_VOP3_v_trunc_f32_e64: case ISA_VOP3_v_ceil_f32_e64:
	case ISA_VOP3_v_rndne_f32_e64: case ISA_VOP3_v_floor_f32_e64: case ISA_VOP3_v_exp_f32_e64:
	case ISA_VOP3_v_log_f32_e64: case ISA_VOP3_v_rcp_f32_e64: case ISA_VOP3_v_rcp_iflag_f32_e64:
	case ISA_VOP3_v_rsq_f32_e64: case ISA_VOP3_v_sqrt_f32_e64: case ISA_VOP3_v_sin_f32_e64:
	case ISA_VOP3_v_cos_f32_e64: case ISA_VOP3_v_frexp_mant_f32_e64:
		set(sh, 1, 0, F32, 0, 0, F32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_f16_f32_e64:
		set(sh, 1, 0, F32, 0, 0, F16, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_f32_f16_e64:
		set(sh, 1, 0, F16, 0, 0, F32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_i32_f64_e64: case ISA_VOP3_v_cvt_u32_f64_e64: case ISA_VOP3_v_frexp_exp_i32_f64_e64:
		set(sh, 1, 1, F64, 0, 0, B32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_f32_f64_e64:
		set(sh, 1, 1, F64, 0, 0, F32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_f64_i32_e64: case ISA_VOP3_v_cvt_f64_u32_e64:
		set(sh, 1, 0, B32, 0, 0, F64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_f64_f32_e64:
		set(sh, 1, 0, F32, 0, 0, F64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_trunc_f64_e64: case ISA_VOP3_v_ceil_f64_e64: case ISA_VOP3_v_rndne_f64_e64:
	case ISA_VOP3_v_floor_f64_e64: case ISA_VOP3_v_rcp_f64_e64: case ISA_VOP3_v_rsq_f64_e64:
	case ISA_VOP3_v_sqrt_f64_e64: case ISA_VOP3_v_frexp_mant_f64_e64: case ISA_VOP3_v_fract_f64_e64:
		set(sh, 1, 1, F64, 0, 0, F64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_mad_f32: case ISA_VOP3_v_mad_legacy_f32: case ISA_VOP3_v_fma_f32:
	case ISA_VOP3_v_min3_f32: case ISA_VOP3_v_max3_f32: case ISA_VOP3_v_med3_f32:
	case ISA_VOP3_v_div_fixup_f32:
		set(sh, 3, 0, F32, F32, F32, F32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_div_fmas_f32:
		set(sh, 3, 0, F32, F32, F32, F32, 0, VX_K_FMAS); return 0;
	case ISA_VOP3_v_div_fmas_f64:
		set(sh, 3, 7, F64, F64, F64, F64, 1, VX_K_FMAS); return 0;
	case ISA_VOP3_v_div_scale_f32:
		set(sh, 3, 0, F32, F32, F32, F32, 0, VX_K_DIV_SCALE); return 0;
	case ISA_VOP3_v_div_scale_f64:
		set(sh, 3, 7, F64, F64, F64, F64, 1, VX_K_DIV_SCALE); return 0;
	case ISA_VOP3_v_fma_f64: case ISA_VOP3_v_div_fixup_f64:
		set(sh, 3, 7, F64, F64, F64, F64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_mad_i32_i24: case ISA_VOP3_v_mad_u32_u24: case ISA_VOP3_v_bfe_u32:
	case ISA_VOP3_v_bfe_i32: case ISA_VOP3_v_bfi_b32: case ISA_VOP3_v_alignbit_b32:
	case ISA_VOP3_v_alignbyte_b32: case ISA_VOP3_v_min3_i32: case ISA_VOP3_v_min3_u32:
	case ISA_VOP3_v_max3_i32: case ISA_VOP3_v_max3_u32: case ISA_VOP3_v_med3_i32:
	case ISA_VOP3_v_med3_u32: case ISA_VOP3_v_perm_b32: case ISA_VOP3_v_xad_u32:
	case ISA_VOP3_v_lshl_add_u32: case ISA_VOP3_v_add_lshl_u32: case ISA_VOP3_v_add3_u32:
	case ISA_VOP3_v_lshl_or_b32: case ISA_VOP3_v_and_or_b32: case ISA_VOP3_v_or3_b32:
		set(sh, 3, 0, B32, B32, B32, B32, 0, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_mad_u64_u32: case ISA_VOP3_v_mad_i64_i32:
		set(sh, 3, 4, B32, B32, B64, B64, 1, VX_K_CARRY_OUT); return 0;
	case ISA_VOP3_v_add_f64: case ISA_VOP3_v_mul_f64: case ISA_VOP3_v_min_f64: case ISA_VOP3_v_max_f64:
		set(sh, 2, 3, F64, F64, 0, F64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_ldexp_f64:
		set(sh, 2, 1, F64, B32, 0, F64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_lshlrev_b64: case ISA_VOP3_v_lshrrev_b64: case ISA_VOP3_v_ashrrev_i64:
		set(sh, 2, 2, B32, B64, 0, B64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_mov_b64_e64:
		set(sh, 1, 1, B64, 0, 0, B64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_lshl_add_u64:
		set(sh, 3, 5, B64, B32, B64, B64, 1, VX_K_PLAIN); return 0;
	case ISA_VOP3_v_cvt_pkrtz_f16_f32: case ISA_VOP3_v_pack_b32_f16:
		set(sh, 2, 0, op == ISA_VOP3_v_pack_b32_f16 ? F16 : F32, op == ISA_VOP3_v_pack_b32_f16 ? F16 : F32, 0, B32, 0, VX_K_PLAIN);
		return 0;
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

static int cmp_i(int64_t a, int64_t b, uint64_t ua, uint64_t ub, int sign, unsigned cc)
{
	switch (cc & 7) {
	case 0: return 0;
	case 1: return sign ? a < b : ua < ub;
	case 2: return ua == ub;
	case 3: return sign ? a <= b : ua <= ub;
	case 4: return sign ? a > b : ua > ub;
	case 5: return ua != ub;
	case 6: return sign ? a >= b : ua >= ub;
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
		return cmp_i((int16_t)a, (int16_t)b, (uint16_t)a, (uint16_t)b, !(op & 8), op);
	if (op < 0xe0)
		return cmp_i((int32_t)a, (int32_t)b, (uint32_t)a, (uint32_t)b, !(op & 8), op);
	return cmp_i((int64_t)a, (int64_t)b, a, b, !(op & 8), op);
}

static float med3f(float a, float b, float c)
{
	return vx_maxf(vx_minf(a, b), vx_minf(vx_maxf(a, b), c));
}

static int64_t med3i(int64_t a, int64_t b, int64_t c)
{
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	return c < lo ? lo : c > hi ? hi : c;
}

static double fixup(double q, double den, double num)
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

static double fract(double v)
{
	double f = v - floor(v);
	return f >= 1.0 ? nextafter(1.0, 0.0) : f;
}

static uint32_t perm(uint32_t a, uint32_t b, uint32_t sel)
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

static uint64_t f16op(unsigned op, uint64_t a, uint64_t b)
{
	float x = vx_f16_to_f32((uint16_t)a), y = vx_f16_to_f32((uint16_t)b), r;
	switch (op) {
	case ISA_VOP3_v_add_f16_e64: r = x + y; break;
	case ISA_VOP3_v_sub_f16_e64: r = x - y; break;
	case ISA_VOP3_v_subrev_f16_e64: r = y - x; break;
	case ISA_VOP3_v_mul_f16_e64: r = x * y; break;
	case ISA_VOP3_v_max_f16_e64: r = vx_maxf(x, y); break;
	default: r = vx_minf(x, y); break;
	}
	return vx_f32_to_f16(r);
}

static uint64_t i16op(unsigned op, uint64_t a, uint64_t b)
{
	uint16_t x = (uint16_t)a, y = (uint16_t)b;
	int16_t sx = (int16_t)x, sy = (int16_t)y;
	switch (op) {
	case ISA_VOP3_v_add_u16_e64: return (uint16_t)(x + y);
	case ISA_VOP3_v_sub_u16_e64: return (uint16_t)(x - y);
	case ISA_VOP3_v_subrev_u16_e64: return (uint16_t)(y - x);
	case ISA_VOP3_v_mul_lo_u16_e64: return (uint16_t)(x * y);
	case ISA_VOP3_v_lshlrev_b16_e64: return (uint16_t)(y << (x & 15));
	case ISA_VOP3_v_lshrrev_b16_e64: return (uint16_t)(y >> (x & 15));
	case ISA_VOP3_v_ashrrev_i16_e64: return (uint16_t)(sy >> (x & 15));
	case ISA_VOP3_v_max_u16_e64: return x > y ? x : y;
	case ISA_VOP3_v_max_i16_e64: return (uint16_t)(sx > sy ? sx : sy);
	case ISA_VOP3_v_min_u16_e64: return x < y ? x : y;
	default: return (uint16_t)(sx < sy ? sx : sy);
	}
}

static uint64_t eval_f32(unsigned op, float x, float y, float z)
{
	switch (op) {
	case ISA_VOP3_v_add_f32_e64: return vx_u32(x + y);
	case ISA_VOP3_v_sub_f32_e64: return vx_u32(x - y);
	case ISA_VOP3_v_subrev_f32_e64: return vx_u32(y - x);
	case ISA_VOP3_v_mul_f32_e64: return vx_u32(x * y);
	case ISA_VOP3_v_mul_legacy_f32: case 0x104:
		return vx_u32(x == 0 || y == 0 ? 0.0f : x * y);
	case ISA_VOP3_v_min_f32_e64: return vx_u32(vx_minf(x, y));
	case ISA_VOP3_v_max_f32_e64: return vx_u32(vx_maxf(x, y));
	case ISA_VOP3_v_mac_f32_e64: case ISA_VOP3_v_mad_f32: case ISA_VOP3_v_mad_legacy_f32:
		return vx_u32(x * y + z);
	case ISA_VOP3_v_fmac_f32_e64: case ISA_VOP3_v_fma_f32:
		return vx_u32(fmaf(x, y, z));
	case ISA_VOP3_v_min3_f32: return vx_u32(vx_minf(vx_minf(x, y), z));
	case ISA_VOP3_v_max3_f32: return vx_u32(vx_maxf(vx_maxf(x, y), z));
	case ISA_VOP3_v_med3_f32: return vx_u32(med3f(x, y, z));
	case ISA_VOP3_v_div_fixup_f32: return vx_u32((float)fixup(x, y, z));
	case ISA_VOP3_v_fract_f32_e64: return vx_u32((float)fract(x));
	case ISA_VOP3_v_trunc_f32_e64: return vx_u32(truncf(x));
	case ISA_VOP3_v_ceil_f32_e64: return vx_u32(ceilf(x));
	case ISA_VOP3_v_rndne_f32_e64: return vx_u32(rintf(x));
	case ISA_VOP3_v_floor_f32_e64: return vx_u32(floorf(x));
	case ISA_VOP3_v_exp_f32_e64: return vx_u32(exp2f(x));
	case ISA_VOP3_v_log_f32_e64: return vx_u32(log2f(x));
	case ISA_VOP3_v_rcp_f32_e64: case ISA_VOP3_v_rcp_iflag_f32_e64: return vx_u32(1.0f / x);
	case ISA_VOP3_v_rsq_f32_e64: return vx_u32(1.0f / sqrtf(x));
	case ISA_VOP3_v_sqrt_f32_e64: return vx_u32(sqrtf(x));
	case ISA_VOP3_v_sin_f32_e64: return vx_u32((float)sin((double)x * 6.283185307179586));
	case ISA_VOP3_v_cos_f32_e64: return vx_u32((float)cos((double)x * 6.283185307179586));
	case ISA_VOP3_v_frexp_mant_f32_e64: {
		int e;
		return vx_u32(isinf(x) || isnan(x) ? x : frexpf(x, &e));
	}
	case ISA_VOP3_v_cvt_u32_f32_e64: return vx_cvt_u32(x);
	case ISA_VOP3_v_cvt_i32_f32_e64: return vx_cvt_i32(x);
	case ISA_VOP3_v_cvt_rpi_i32_f32_e64: return vx_cvt_i32(floorf(x + 0.5f));
	case ISA_VOP3_v_cvt_flr_i32_f32_e64: return vx_cvt_i32(floorf(x));
	case ISA_VOP3_v_frexp_exp_i32_f32_e64: {
		int e = 0;
		if (!isinf(x) && !isnan(x))
			frexpf(x, &e);
		return (uint32_t)e;
	}
	case ISA_VOP3_v_cvt_f16_f32_e64: return vx_f32_to_f16(x);
	case ISA_VOP3_v_cvt_f64_f32_e64: return vx_u64((double)x);
	}
	return 0;
}

static uint64_t eval_f64(unsigned op, double x, double y, double z, uint64_t b)
{
	int e = 0;
	switch (op) {
	case 0x104: case ISA_VOP3_v_fma_f64: return vx_u64(fma(x, y, z));
	case ISA_VOP3_v_add_f64: return vx_u64(x + y);
	case ISA_VOP3_v_mul_f64: return vx_u64(x * y);
	case ISA_VOP3_v_min_f64: return vx_u64(vx_min(x, y));
	case ISA_VOP3_v_max_f64: return vx_u64(vx_max(x, y));
	case ISA_VOP3_v_ldexp_f64: return vx_u64(ldexp(x, (int32_t)b));
	case ISA_VOP3_v_div_fixup_f64: return vx_u64(fixup(x, y, z));
	case ISA_VOP3_v_trunc_f64_e64: return vx_u64(trunc(x));
	case ISA_VOP3_v_ceil_f64_e64: return vx_u64(ceil(x));
	case ISA_VOP3_v_rndne_f64_e64: return vx_u64(rint(x));
	case ISA_VOP3_v_floor_f64_e64: return vx_u64(floor(x));
	case ISA_VOP3_v_rcp_f64_e64: return vx_u64(1.0 / x);
	case ISA_VOP3_v_rsq_f64_e64: return vx_u64(1.0 / sqrt(x));
	case ISA_VOP3_v_sqrt_f64_e64: return vx_u64(sqrt(x));
	case ISA_VOP3_v_fract_f64_e64: return vx_u64(fract(x));
	case ISA_VOP3_v_frexp_mant_f64_e64: return vx_u64(isinf(x) || isnan(x) ? x : frexp(x, &e));
	case ISA_VOP3_v_frexp_exp_i32_f64_e64:
		if (!isinf(x) && !isnan(x))
			frexp(x, &e);
		return (uint32_t)e;
	case ISA_VOP3_v_cvt_i32_f64_e64: return vx_cvt_i32(x);
	case ISA_VOP3_v_cvt_u32_f64_e64: return vx_cvt_u32(x);
	case ISA_VOP3_v_cvt_f32_f64_e64: return vx_u32((float)x);
	}
	return 0;
}

static uint64_t eval_int(struct vx_wave *w, unsigned op, int lane, uint64_t a,
			 uint64_t b, uint64_t c, int cin, int *cout)
{
	uint32_t x = (uint32_t)a, y = (uint32_t)b, z = (uint32_t)c;
	uint64_t wide;
	(void)w;
	switch (op) {
	case ISA_VOP3_v_cndmask_b32_e64: return cin ? y : x;
	case ISA_VOP3_v_mul_i32_i24_e64: return (uint32_t)((int64_t)((int32_t)(x << 8) >> 8) * ((int32_t)(y << 8) >> 8));
	case ISA_VOP3_v_mul_hi_i32_i24_e64: return (uint32_t)(((int64_t)((int32_t)(x << 8) >> 8) * ((int32_t)(y << 8) >> 8)) >> 32);
	case ISA_VOP3_v_mul_u32_u24_e64: return (uint32_t)((uint64_t)(x & 0xffffff) * (y & 0xffffff));
	case ISA_VOP3_v_mul_hi_u32_u24_e64: return (uint32_t)(((uint64_t)(x & 0xffffff) * (y & 0xffffff)) >> 32);
	case ISA_VOP3_v_min_i32_e64: return (int32_t)x < (int32_t)y ? x : y;
	case ISA_VOP3_v_max_i32_e64: return (int32_t)x > (int32_t)y ? x : y;
	case ISA_VOP3_v_min_u32_e64: return x < y ? x : y;
	case ISA_VOP3_v_max_u32_e64: return x > y ? x : y;
	case ISA_VOP3_v_lshrrev_b32_e64: return y >> (x & 31);
	case ISA_VOP3_v_ashrrev_i32_e64: return (uint32_t)((int32_t)y >> (x & 31));
	case ISA_VOP3_v_lshlrev_b32_e64: return y << (x & 31);
	case ISA_VOP3_v_and_b32_e64: return x & y;
	case ISA_VOP3_v_or_b32_e64: return x | y;
	case ISA_VOP3_v_xor_b32_e64: return x ^ y;
	case ISA_VOP3_v_xnor_b32_e64: return ~(x ^ y);
	case ISA_VOP3_v_add_u32_e64: case ISA_VOP3_v_add_i32: return x + y;
	case ISA_VOP3_v_sub_u32_e64: case ISA_VOP3_v_sub_i32: return x - y;
	case ISA_VOP3_v_subrev_u32_e64: return y - x;
	case ISA_VOP3_v_add_co_u32_e64: wide = (uint64_t)x + y; *cout = (int)(wide >> 32); return (uint32_t)wide;
	case ISA_VOP3_v_sub_co_u32_e64: *cout = y > x; return x - y;
	case ISA_VOP3_v_subrev_co_u32_e64: *cout = x > y; return y - x;
	case ISA_VOP3_v_addc_co_u32_e64: wide = (uint64_t)x + y + (unsigned)cin; *cout = (int)(wide >> 32); return (uint32_t)wide;
	case ISA_VOP3_v_subb_co_u32_e64: *cout = (uint64_t)y + (unsigned)cin > x; return x - y - (unsigned)cin;
	case ISA_VOP3_v_subbrev_co_u32_e64: *cout = (uint64_t)x + (unsigned)cin > y; return y - x - (unsigned)cin;
	case ISA_VOP3_v_mul_lo_u32: return x * y;
	case ISA_VOP3_v_mul_hi_u32: return (uint32_t)(((uint64_t)x * y) >> 32);
	case ISA_VOP3_v_mul_hi_i32: return (uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32);
	case ISA_VOP3_v_bcnt_u32_b32: return (uint32_t)__builtin_popcount(x) + y;
	case ISA_VOP3_v_mbcnt_lo_u32_b32: return (uint32_t)__builtin_popcount(lane >= 32 ? x : x & ((1u << lane) - 1)) + y;
	case ISA_VOP3_v_mbcnt_hi_u32_b32: return (uint32_t)__builtin_popcount(lane < 32 ? 0 : lane >= 64 ? x : x & ((1u << (lane - 32)) - 1)) + y;
	case ISA_VOP3_v_bfm_b32: return ((1u << (x & 31)) - 1) << (y & 31);
	case ISA_VOP3_v_mov_b32_e64: return x;
	case ISA_VOP3_v_not_b32_e64: return ~x;
	case ISA_VOP3_v_bfrev_b32_e64: {
		uint32_t r = 0;
		for (int i = 0; i < 32; i++)
			r |= ((x >> i) & 1) << (31 - i);
		return r;
	}
	case ISA_VOP3_v_ffbh_u32_e64: return x ? (uint32_t)__builtin_clz(x) : ~0u;
	case ISA_VOP3_v_ffbl_b32_e64: return x ? (uint32_t)__builtin_ctz(x) : ~0u;
	case ISA_VOP3_v_ffbh_i32_e64: {
		uint32_t v = (int32_t)x < 0 ? ~x : x;
		return v ? (uint32_t)__builtin_clz(v) : ~0u;
	}
	case ISA_VOP3_v_cvt_f32_i32_e64: return vx_u32((float)(int32_t)x);
	case ISA_VOP3_v_cvt_f32_u32_e64: return vx_u32((float)x);
	case ISA_VOP3_v_cvt_f32_ubyte0_e64: return vx_u32((float)(x & 0xff));
	case ISA_VOP3_v_cvt_f32_ubyte1_e64: return vx_u32((float)((x >> 8) & 0xff));
	case ISA_VOP3_v_cvt_f32_ubyte2_e64: return vx_u32((float)((x >> 16) & 0xff));
	case ISA_VOP3_v_cvt_f32_ubyte3_e64: return vx_u32((float)(x >> 24));
	case ISA_VOP3_v_cvt_f64_i32_e64: return vx_u64((double)(int32_t)x);
	case ISA_VOP3_v_cvt_f64_u32_e64: return vx_u64((double)x);
	case ISA_VOP3_v_mad_i32_i24: return (uint32_t)((int32_t)(x << 8) >> 8) * (uint32_t)((int32_t)(y << 8) >> 8) + z;
	case ISA_VOP3_v_mad_u32_u24: return (x & 0xffffff) * (y & 0xffffff) + z;
	case ISA_VOP3_v_bfe_u32: {
		uint32_t off = y & 31, wd = z & 31;
		return wd ? (x >> off) & ((1u << wd) - 1) : 0;
	}
	case ISA_VOP3_v_bfe_i32: {
		uint32_t off = y & 31, wd = z & 31;
		if (!wd)
			return 0;
		uint32_t v = (x >> off) & ((1u << wd) - 1);
		return (v >> (wd - 1)) & 1 ? v | ~((1u << wd) - 1) : v;
	}
	case ISA_VOP3_v_bfi_b32: return (x & y) | (~x & z);
	case ISA_VOP3_v_alignbit_b32: return (uint32_t)((((uint64_t)x << 32) | y) >> (z & 31));
	case ISA_VOP3_v_alignbyte_b32: return (uint32_t)((((uint64_t)x << 32) | y) >> (8 * (z & 3)));
	case ISA_VOP3_v_min3_i32: return (uint32_t)(int32_t)med3i((int32_t)x < (int32_t)y ? (int32_t)x : (int32_t)y, (int32_t)z, INT32_MIN);
	case ISA_VOP3_v_max3_i32: return (uint32_t)(int32_t)med3i((int32_t)x > (int32_t)y ? (int32_t)x : (int32_t)y, (int32_t)z, INT32_MAX);
	case ISA_VOP3_v_min3_u32: { uint32_t m = x < y ? x : y; return m < z ? m : z; }
	case ISA_VOP3_v_max3_u32: { uint32_t m = x > y ? x : y; return m > z ? m : z; }
	case ISA_VOP3_v_med3_i32: return (uint32_t)(int32_t)med3i((int32_t)x, (int32_t)y, (int32_t)z);
	case ISA_VOP3_v_med3_u32: return (uint32_t)med3i(x, y, z);
	case ISA_VOP3_v_perm_b32: return perm(x, y, z);
	case ISA_VOP3_v_xad_u32: return (x ^ y) + z;
	case ISA_VOP3_v_lshl_add_u32: return (x << (y & 31)) + z;
	case ISA_VOP3_v_add_lshl_u32: return (x + y) << (z & 31);
	case ISA_VOP3_v_add3_u32: return x + y + z;
	case ISA_VOP3_v_lshl_or_b32: return (x << (y & 31)) | z;
	case ISA_VOP3_v_and_or_b32: return (x & y) | z;
	case ISA_VOP3_v_or3_b32: return x | y | z;
	case ISA_VOP3_v_mad_u64_u32: {
		unsigned __int128 r = (unsigned __int128)((uint64_t)x * y) + c;
		*cout = (int)(r >> 64);
		return (uint64_t)r;
	}
	case ISA_VOP3_v_mad_i64_i32: {
		__int128 r = (__int128)((int64_t)(int32_t)x * (int32_t)y) + (int64_t)c;
		*cout = r > INT64_MAX || r < INT64_MIN;
		return (uint64_t)r;
	}
	case ISA_VOP3_v_lshlrev_b64: return b << (x & 63);
	case ISA_VOP3_v_lshrrev_b64: return b >> (x & 63);
	case ISA_VOP3_v_ashrrev_i64: return (uint64_t)((int64_t)b >> (x & 63));
	case ISA_VOP3_v_mov_b64_e64: return a;
	case ISA_VOP3_v_lshl_add_u64: return (a << (y & 7)) + c;
	case ISA_VOP3_v_cvt_pkrtz_f16_f32: {
		/* round toward zero: truncate the f32 before narrowing */
		float fx = vx_f32(x), fy = vx_f32(y);
		uint16_t hx = vx_f32_to_f16(fx), hy = vx_f32_to_f16(fy);
		if (fabsf(vx_f16_to_f32(hx)) > fabsf(fx) && !isinf(fx)) hx--;
		if (fabsf(vx_f16_to_f32(hy)) > fabsf(fy) && !isinf(fy)) hy--;
		return hx | (uint32_t)hy << 16;
	}
	case ISA_VOP3_v_pack_b32_f16: return (x & 0xffff) | (y & 0xffff) << 16;
	}
	return 0;
}

uint64_t vx_vop_eval(struct vx_wave *w, const struct vx_shape *sh, unsigned op,
		     int lane, uint64_t a, uint64_t b, uint64_t c, int cin, int *cout)
{
	if (op < 0x100) {
		*cout = cmp_eval(op, a, b);
		return 0;
	}
	if ((op >= ISA_VOP3_v_add_u16_e64 && op <= ISA_VOP3_v_ashrrev_i16_e64) ||
	    (op >= ISA_VOP3_v_max_u16_e64 && op <= ISA_VOP3_v_min_i16_e64))
		return i16op(op, a, b);
	if ((op >= ISA_VOP3_v_add_f16_e64 && op <= ISA_VOP3_v_mul_f16_e64) ||
	    op == ISA_VOP3_v_max_f16_e64 || op == ISA_VOP3_v_min_f16_e64)
		return f16op(op, a, b);
	if (op == ISA_VOP3_v_ldexp_f32)
		return vx_u32(ldexpf(vx_f32((uint32_t)a), (int32_t)b));
	if (op == ISA_VOP3_v_cvt_f32_f16_e64)
		return vx_u32(vx_f16_to_f32((uint16_t)a));
	switch (op) {
	case ISA_VOP3_v_div_scale_f32: return vx_div_scale32((uint32_t)a, (uint32_t)b, (uint32_t)c, cout);
	case ISA_VOP3_v_div_scale_f64: return vx_div_scale64(a, b, c, cout);
	case ISA_VOP3_v_div_fmas_f32: return vx_div_fmas32((uint32_t)a, (uint32_t)b, (uint32_t)c, cin);
	case ISA_VOP3_v_div_fmas_f64: return vx_div_fmas64(a, b, c, cin);
	}
	/* gfx940 renamed these fmamk/fmaak and fused them */
	if (op == ISA_VOP3_FROM_VOP2(ISA_VOP2_v_madmk_f32) ||
	    op == ISA_VOP3_FROM_VOP2(ISA_VOP2_v_madak_f32)) {
		float x = vx_f32((uint32_t)a), y = vx_f32((uint32_t)b), z = vx_f32((uint32_t)c);
		return vx_u32(w->c->dev->fam == ISA_GFX940 ? fmaf(x, y, z) : x * y + z);
	}
	if (sh->stype[0] == F64)
		return eval_f64(op, vx_f64(a), vx_f64(b), vx_f64(c), b);
	if (sh->stype[0] == F32 && op != ISA_VOP3_v_cvt_pkrtz_f16_f32)
		return eval_f32(op, vx_f32((uint32_t)a), vx_f32((uint32_t)b), vx_f32((uint32_t)c));
	return eval_int(w, op, lane, a, b, c, cin, cout);
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
