/* SPDX-License-Identifier: MIT */
/*
 * Each row of vx_vop.def as a function of one lane, vx_op_<mnemonic>, for
 * every way the VALU runs: the general frame (vx_vop.c) calls it per lane
 * after the modifiers, the lane loops (vx_fast.c) inline it into a loop
 * over the wave.  Arithmetic is the host's IEEE arithmetic in
 * round-to-nearest-even; where the hardware approximates (rcp, rsq, exp,
 * log, sin, cos) the host's correctly rounded or libm value stands in
 * (doc/testing.md); the division helpers are in vx_fdiv.c.
 */
#ifndef VX_OPS_H
#define VX_OPS_H

#include <math.h>

#include "vx_fdiv.h"
#include "vx_vop.h"

/* A float to a 32-bit integer, toward zero: NaN is 0, out of range
 * saturates. */
static inline uint32_t vx_cvt_i32(double f)
{
	return f != f ? 0 : f >= 2147483647.0 ? 0x7fffffffu
		: f <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)f;
}

static inline uint32_t vx_cvt_u32(double f)
{
	return f != f || f <= 0 ? 0 : f >= 4294967295.0 ? 0xffffffffu : (uint32_t)f;
}

/* The host's invalid operations give a negative quiet NaN; the hardware's
 * default NaN is positive. */
static inline uint64_t vx_default_nan(uint64_t v, int type)
{
	if (type == VX_T_F32 && (uint32_t)v == 0xffc00000u)
		return (v & ~0xffffffffull) | 0x7fc00000u;
	if (type == VX_T_F64 && v == 0xfff8000000000000ull)
		return 0x7ff8000000000000ull;
	if (type == VX_T_F16 && (v & 0xffff) == 0xfe00)
		return (v & ~0xffffull) | 0x7e00;
	return v;
}

/* An unfused multiply-add: the product rounds first. */
static inline float vx_mad(float x, float y, float z)
{
	float p = x * y;
	return p + z;
}

static inline int64_t vx_i24(uint32_t x)
{
	return (int32_t)(x << 8) >> 8;
}

/* x's bits below bit n (all of them from 32 on, none below 0). */
static inline uint32_t vx_below(uint32_t x, int n)
{
	return n <= 0 ? 0 : n >= 32 ? x : x & ((1u << n) - 1);
}

/* The carry out of x + y + cin (cin 0 or 1), kept to 32-bit arithmetic
 * so that a loop over lanes widens without 64-bit elements. */
static inline uint32_t vx_addc(uint32_t x, uint32_t y, unsigned cin, int *cout)
{
	uint32_t s = x + y, r = s + cin;
	*cout = (s < x) | (r < s);
	return r;
}

/* The borrow of x - y - cin, y + cin > x, in 32-bit arithmetic. */
static inline uint32_t vx_subb(uint32_t x, uint32_t y, unsigned cin, int *cout)
{
	*cout = (x < y) | (x - y < cin);
	return x - y - cin;
}

static inline uint32_t vx_bfe(uint32_t x, uint32_t y, uint32_t z, int sign)
{
	uint32_t off = y & 31, wd = z & 31;
	if (!wd)
		return 0;
	uint32_t v = (x >> off) & ((1u << wd) - 1);
	return sign && (v >> (wd - 1)) & 1 ? v | ~((1u << wd) - 1) : v;
}

static inline uint32_t vx_bitrev(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((x >> i) & 1) << (31 - i);
	return r;
}

/* The first bit from the top that differs from the sign. */
static inline uint32_t vx_ffbh_signed(uint32_t x)
{
	uint32_t v = (int32_t)x < 0 ? ~x : x;
	return v ? (uint32_t)__builtin_clz(v) : ~0u;
}

static inline float vx_med3f(float a, float b, float c)
{
	return vx_maxf(vx_minf(a, b), vx_minf(vx_maxf(a, b), c));
}

static inline int64_t vx_med3i(int64_t a, int64_t b, int64_t c)
{
	int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	return c < lo ? lo : c > hi ? hi : c;
}

static inline uint64_t vx_mad_u64(uint32_t x, uint32_t y, uint64_t c, int *cout)
{
	unsigned __int128 r = (unsigned __int128)((uint64_t)x * y) + c;
	*cout = (int)(r >> 64);
	return (uint64_t)r;
}

static inline uint64_t vx_mad_i64(uint32_t x, uint32_t y, uint64_t c, int *cout)
{
	__int128 r = (__int128)((int64_t)(int32_t)x * (int32_t)y) + (int64_t)c;
	*cout = r > INT64_MAX || r < INT64_MIN;
	return (uint64_t)r;
}

static inline double vx_fract(double v)
{
	double f = v - floor(v);
	return f >= 1.0 ? nextafter(1.0, 0.0) : f;
}

static inline double vx_frexp_mant(double x)
{
	int e;
	return isinf(x) || isnan(x) ? x : frexp(x, &e);
}

static inline uint32_t vx_frexp_exp(double x)
{
	int e = 0;
	if (!isinf(x) && !isnan(x))
		frexp(x, &e);
	return (uint32_t)e;
}

/* What x, y and z are, by a row's `in`. */
#define VX_IN_U uint32_t x = (uint32_t)a, y = (uint32_t)b, z = (uint32_t)c
#define VX_IN_W uint16_t x = (uint16_t)a, y = (uint16_t)b, z = 0;	\
	int16_t sx = (int16_t)x, sy = (int16_t)y; (void)sx; (void)sy
#define VX_IN_F float x = vx_f32((uint32_t)a), y = vx_f32((uint32_t)b), z = vx_f32((uint32_t)c)
#define VX_IN_H float x = vx_f16_to_f32((uint16_t)a), y = vx_f16_to_f32((uint16_t)b), z = 0
#define VX_IN_D double x = vx_f64(a), y = vx_f64(b), z = vx_f64(c)
#define VX_IN_R int x = 0, y = 0, z = 0

/* The result's bits, by a row's `out`. */
#define VX_OUT_B(v) ((uint64_t)(v))
#define VX_OUT_W(v) ((uint64_t)(uint16_t)(v))
#define VX_OUT_F(v) ((uint64_t)vx_u32((float)(v)))
#define VX_OUT_H(v) ((uint64_t)vx_f32_to_f16((float)(v)))
#define VX_OUT_D(v) vx_u64((double)(v))

typedef uint64_t vx_lane_fn(struct vx_wave *w, int lane, uint64_t a, uint64_t b,
			    uint64_t c, int cin, int *cout);

#define VX_OP(m, shape, in, out, tier, ...)					\
	static inline uint64_t vx_op_##m(struct vx_wave *w, int lane, uint64_t a,	\
					 uint64_t b, uint64_t c, int cin, int *cout)	\
	{									\
		VX_IN_##in;							\
		(void)x, (void)y, (void)z;					\
		return VX_OUT_##out(__VA_ARGS__);				\
	}
#include "vx_vop.def"

#endif
