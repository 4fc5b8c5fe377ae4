/* SPDX-License-Identifier: MIT */
/* The VALU's common forms without modifiers, a loop per operation
 * (vx_fast.c), for the frame (vx_valu.c). */
#ifndef VX_FAST_H
#define VX_FAST_H

#include "vx_vop.h"

/* The form for an instruction whose VOP3 opcode is op (0: none). */
uint8_t vx_fast_form(const struct isa_insn *in, unsigned op, const struct vx_shape *sh);
/* Run it: 0, or 1 when the wave's float mode asks for the general frame. */
int vx_fast_run(struct vx_wave *w, const struct isa_insn *in, unsigned form);

#endif
