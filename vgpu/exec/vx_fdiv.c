/* SPDX-License-Identifier: MIT */
/*
 * The division helpers as compiled division uses them: v_div_scale moves
 * numerator and denominator away from the ends of the exponent range
 * (and says in VCC when the quotient must be moved back), v_div_fmas does
 * the last fma and moves it back, v_div_fixup puts in the special cases.
 * The cases follow the pseudocode of AMD's CDNA ISA guides, so that the
 * reciprocal and the fma chain between them never see a denormal or an
 * overflow, and the quotient comes out correctly rounded.
 */
#include <math.h>

#include "vx_fdiv.h"

struct fmt {
	int bias, mant;		/* exponent bias, fraction bits */
	int scale;		/* the power of two operands move by */
	int far;		/* exponent gap that makes the quotient huge */
};

static const struct fmt F32 = { 127, 23, 64, 96 };
static const struct fmt F64 = { 1023, 52, 128, 768 };

static int biased(double x, const struct fmt *f)
{
	if (x == 0 || isnan(x) || isinf(x))
		return x == 0 ? 0 : 2 * f->bias + 1;
	int e;
	frexp(x, &e);
	int b = e - 1 + f->bias;
	return b < 0 ? 0 : b;
}

static int is_denorm(double x, const struct fmt *f)
{
	return x != 0 && isfinite(x) && fabs(x) < ldexp(1.0, 1 - f->bias);
}

/* Whether num/den, done exactly, lands below the normal range. */
static int quotient_denorm(double num, double den, const struct fmt *f)
{
	if (num == 0 || !isfinite(num) || !isfinite(den))
		return 0;
	/* the exponent of the exact quotient, from the operands' mantissas */
	int en, ed, eq;
	(void)frexp(frexp(num, &en) / frexp(den, &ed), &eq);
	return eq + en - ed <= 1 - f->bias;
}

/* s0 is the operand to scale (the numerator or the denominator), s1 the
 * denominator, s2 the numerator. */
static double scale(double s0, double s1, double s2, const struct fmt *f, int *vcc)
{
	*vcc = 0;
	if (s2 == 0 || s1 == 0)
		return NAN;
	int tiny_rcp = fabs(s1) > ldexp(1.0, f->bias - 1);	/* 1/s1 is a denormal */
	if (biased(s2, f) - biased(s1, f) >= f->far) {
		*vcc = 1;	/* near the largest value: the denominator grows */
		return s0 == s1 ? ldexp(s0, f->scale) : s0;
	}
	if (is_denorm(s1, f))
		return ldexp(s0, f->scale);
	if (tiny_rcp && quotient_denorm(s2, s1, f)) {
		*vcc = 1;	/* the denominator alone shrinks */
		return s0 == s1 ? ldexp(s0, -f->scale) : s0;
	}
	if (tiny_rcp)
		return ldexp(s0, -f->scale);
	if (quotient_denorm(s2, s1, f)) {
		*vcc = 1;	/* the numerator alone grows */
		return s0 == s2 ? ldexp(s0, f->scale) : s0;
	}
	if (biased(s2, f) <= f->mant)
		return ldexp(s0, f->scale);	/* a tiny numerator */
	return s0;
}

uint32_t vx_div_scale32(uint32_t s0, uint32_t s1, uint32_t s2, int *vcc)
{
	return vx_u32((float)scale(vx_f32(s0), vx_f32(s1), vx_f32(s2), &F32, vcc));
}

uint64_t vx_div_scale64(uint64_t s0, uint64_t s1, uint64_t s2, int *vcc)
{
	return vx_u64(scale(vx_f64(s0), vx_f64(s1), vx_f64(s2), &F64, vcc));
}

/* With VCC set the quotient (s2) was computed scaled: up when it was tiny,
 * down when it was huge, and the fma's result moves back. */
uint32_t vx_div_fmas32(uint32_t s0, uint32_t s1, uint32_t s2, int vcc)
{
	float r = fmaf(vx_f32(s0), vx_f32(s1), vx_f32(s2));
	if (vcc)
		r = ldexpf(r, biased(vx_f32(s2), &F32) >= F32.bias ? F32.scale : -F32.scale);
	return vx_u32(r);
}

uint64_t vx_div_fmas64(uint64_t s0, uint64_t s1, uint64_t s2, int vcc)
{
	double r = fma(vx_f64(s0), vx_f64(s1), vx_f64(s2));
	if (vcc)
		r = ldexp(r, biased(vx_f64(s2), &F64) >= F64.bias ? F64.scale : -F64.scale);
	return vx_u64(r);
}
