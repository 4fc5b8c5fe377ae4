/* SPDX-License-Identifier: MIT */
/*
 * The VALU's common forms without modifiers (no SDWA, DPP, abs, neg,
 * omod, clamp or op_sel), as one loop per operation over the wave's
 * lanes (vx_lanes.c): compiled code spends most of its vector
 * instructions on these integer and address forms and the f32
 * multiply-adds, and the general frame (vx_valu.c) widens every operand
 * and dispatches every lane.  The exec tests run every kernel through
 * both, and through each build of the loops (a form with a modifier
 * takes the general frame).
 */
#include "vx_fast.h"

static uint8_t form_of(unsigned op)
{
	switch (op) {
#define VX_OP(m, shape, in, out, tier, ...) VX_CASE_##tier(m)
#define VX_ALIAS(m, shape, tier, same) VX_CASE_##tier(m)
#define VX_CASE_GEN(m)
#define VX_CASE_FAST(m) case ISA_VOP3_##m: return VX_F_##m;
#include "vx_vop.def"
	}
	return op >= 0xc0 && op < 0xe0 ? VX_F_CMP : VX_F_NONE;
}

uint8_t vx_fast_form(const struct isa_insn *in, unsigned op, const struct vx_shape *sh)
{
	if (in->ext || in->abs || in->neg || in->omod || in->clamp || in->opsel || sh->d16)
		return VX_F_NONE;
	return form_of(op);
}

vx_loop_fn *const *vx_fast_table(const struct vx_device *dev)
{
#ifdef VX_LANES_WIDE
	/* the wide build's instructions, where the host has them all */
	__builtin_cpu_init();
	if (!dev->baseline_loops && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return vx_lanes_wide;
#endif
	(void)dev;
	return vx_lanes_base;
}

int vx_fast_run(struct vx_wave *w, const struct isa_insn *in, unsigned form)
{
	return w->c->lanes[form](w, in);
}
