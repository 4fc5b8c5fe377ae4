/* SPDX-License-Identifier: MIT */
/* The VALU's common forms without modifiers, a loop per operation
 * (vx_fast.c, the loops in vx_lanes.c), for the frame (vx_valu.c). */
#ifndef VX_FAST_H
#define VX_FAST_H

#include "vx_vop.h"

/* The forms: one per FAST row of vx_vop.def, then the 32-bit integer
 * compares, then gfx90a's packed f32 forms (VOP3P, op_sel and negations
 * allowed, no clamp). */
enum {
	VX_F_NONE,
#define VX_OP(m, shape, in, out, tier, ...) VX_FORM_##tier(m)
#define VX_ALIAS(m, shape, tier, same) VX_FORM_##tier(m)
#define VX_FORM_GEN(m)
#define VX_FORM_FAST(m) VX_F_##m,
#include "vx_vop.def"
	VX_F_CMP,
	VX_F_PK_FMA,
	VX_F_PK_MUL,
	VX_F_PK_ADD,
	VX_F_PK_MOV,
	VX_FORMS
};

/* A form's loop: 0, or 1 when the wave's float mode asks for the general
 * frame. */
typedef int vx_loop_fn(struct vx_wave *w, const struct isa_insn *in);
/* The loops by form, built for the architecture's baseline and, with
 * VX_LANES_WIDE, for AVX2 with FMA (vx_lanes.c). */
extern vx_loop_fn *const vx_lanes_base[VX_FORMS];
extern vx_loop_fn *const vx_lanes_wide[VX_FORMS];

/* The form for an instruction whose VOP3 opcode is op (0: none). */
uint8_t vx_fast_form(const struct isa_insn *in, unsigned op, const struct vx_shape *sh);
/* The loops a context of the device runs: the widest the host has. */
vx_loop_fn *const *vx_fast_table(const struct vx_device *dev);
/* Run it: 0, or 1 when the wave's float mode asks for the general frame. */
int vx_fast_run(struct vx_wave *w, const struct isa_insn *in, unsigned form);

#endif
