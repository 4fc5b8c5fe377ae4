/* SPDX-License-Identifier: MIT */
/*
 * Scalar operands: registers, inline constants, the apertures, the
 * literal.  An inline float constant is read as the width of the
 * operation that reads it, as the hardware does.
 */
#include "vx_int.h"

static const uint32_t f32_consts[9] = {
	0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
	0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
};
static const uint64_t f64_consts[9] = {
	0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
	0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
	0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882,
};

static int64_t int_const(unsigned src)
{
	if (src >= ISA_SRC_INT_POS && src < ISA_SRC_INT_NEG)
		return (int64_t)(src - 128);
	return -(int64_t)(src - 192);
}

static uint64_t special(const struct vx_wave *w, unsigned src, int wide)
{
	const struct vx_device *d = w->c->dev;
	uint64_t v = 0;
	switch (src) {
	case ISA_SRC_SHARED_BASE: v = d->shared_base; break;
	case ISA_SRC_SHARED_LIMIT: v = d->shared_base + 0xffffffffull; break;
	case ISA_SRC_PRIVATE_BASE: v = d->private_base; break;
	case ISA_SRC_PRIVATE_LIMIT: v = d->private_base + 0xffffffffull; break;
	case ISA_SRC_VCCZ: return vx_vcc(w) == 0;
	case ISA_SRC_EXECZ: return vx_exec(w) == 0;
	case ISA_SRC_SCC: return (uint64_t)w->scc;
	default: return 0;
	}
	/* Read as 32 bits, an aperture gives its high half. */
	return wide ? v : v >> 32;
}

uint32_t vx_sread(const struct vx_wave *w, unsigned src, uint32_t lit)
{
	if (src < 128)
		return w->s[src];
	if (src == ISA_SRC_ZERO)
		return 0;
	if (src < 209)
		return (uint32_t)int_const(src);
	if (src >= ISA_SRC_HALF && src <= ISA_SRC_INV_2PI)
		return f32_consts[src - ISA_SRC_HALF];
	if (src == ISA_SRC_LITERAL)
		return lit;
	return (uint32_t)special(w, src, 0);
}

uint64_t vx_sread64(const struct vx_wave *w, unsigned src, uint32_t lit, int fp64)
{
	if (src < 128)
		return vx_sgpr64(w, src);
	if (src == ISA_SRC_ZERO)
		return 0;
	if (src < 209)
		return (uint64_t)int_const(src);
	if (src >= ISA_SRC_HALF && src <= ISA_SRC_INV_2PI)
		return f64_consts[src - ISA_SRC_HALF];
	if (src == ISA_SRC_LITERAL)
		return fp64 ? (uint64_t)lit << 32 : (uint64_t)lit;
	return special(w, src, 1);
}
