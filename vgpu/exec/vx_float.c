/* SPDX-License-Identifier: MIT */
/* Half and bfloat16 conversions, rounding to nearest even as the
 * hardware's default mode does. */
#include <math.h>

#include "vx_int.h"

float vx_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 31, man = h & 1023;
	if (exp == 31)
		return vx_f32(sign | 0x7f800000u | man << 13);
	if (exp == 0) {
		if (!man)
			return vx_f32(sign);
		float f = (float)man / 16777216.0f;	/* man * 2^-24 */
		return sign ? -f : f;
	}
	return vx_f32(sign | (exp + 112) << 23 | man << 13);
}

uint16_t vx_f32_to_f16(float f)
{
	uint32_t u = vx_u32(f), sign = (u >> 16) & 0x8000;
	int32_t exp = (int32_t)((u >> 23) & 255) - 127 + 15;
	uint32_t man = u & 0x7fffff;
	if (((u >> 23) & 255) == 255)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {
		if (exp < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		unsigned shift = (unsigned)(14 - exp);
		uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
		if (rest > mid || (rest == mid && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	uint32_t half = (uint32_t)exp << 10 | man >> 13, rest = man & 0x1fff;
	if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
		half++;
	return (uint16_t)(sign | half);
}

float vx_bf16_to_f32(uint16_t h)
{
	return vx_f32((uint32_t)h << 16);
}

uint16_t vx_f32_to_bf16(float f)
{
	uint32_t u = vx_u32(f);
	if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffff))
		return (uint16_t)((u >> 16) | 0x40);
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float vx_minf(float a, float b)
{
	if (a == b)
		return signbit(a) ? a : b;
	return fminf(a, b);
}

float vx_maxf(float a, float b)
{
	if (a == b)
		return signbit(a) ? b : a;
	return fmaxf(a, b);
}

double vx_min(double a, double b)
{
	if (a == b)
		return signbit(a) ? a : b;
	return fmin(a, b);
}

double vx_max(double a, double b)
{
	if (a == b)
		return signbit(a) ? b : a;
	return fmax(a, b);
}
