/* SPDX-License-Identifier: MIT */
/* Each VALU operation's shape and its value on one lane (vx_vop.c), for
 * the frame that gathers operands and writes results (vx_valu.c). */
#ifndef VX_VOP_H
#define VX_VOP_H

#include "vx_int.h"

enum { VX_T_B32, VX_T_F32, VX_T_F64, VX_T_F16, VX_T_B64, VX_T_I16 };

enum vx_kind {
	VX_K_PLAIN,	/* a result per lane */
	VX_K_CMP,	/* a bit per lane to an SGPR pair (VCC for VOPC) */
	VX_K_CMPX,	/* the same, also to EXEC */
	VX_K_CARRY_OUT,	/* a result and a carry bit */
	VX_K_CARRY_IN,	/* the same, reading a carry bit in */
	VX_K_CNDMASK,	/* reads a mask bit, writes a result */
	VX_K_DIV_SCALE,	/* a result and VCC */
	VX_K_FMAS,	/* a result, reading VCC */
	VX_K_MADMK, VX_K_MADAK,	/* VOP2 with a constant operand */
	VX_K_LANE,	/* reads or writes across lanes (vx_vop_lane_op) */
};

struct vx_shape {
	uint8_t nsrc;
	uint8_t src64;		/* a bit per 64-bit source */
	uint8_t stype[3];	/* what abs/neg and inline constants mean */
	uint8_t dtype, dst64, d16;
	uint8_t kind;
	uint8_t mac;		/* the third source is the destination */
};

/* What the frame works out about an instruction once, kept beside its
 * decoded form in the instruction cache: a loop runs the same words many
 * times, and the name check and the shape are the same every time. */
struct vx_prep {
	uint8_t ready;		/* worked out */
	uint8_t known;		/* the family has the form */
	uint8_t fast;		/* a vx_fast form, 0 for the general frame */
	uint16_t op;		/* as a VOP3 opcode */
	struct vx_shape sh;
};

struct vx_slot {
	struct isa_insn in;
	struct vx_prep prep;
};

/* A float to a 32-bit integer, toward zero: NaN is 0, out of range
 * saturates (the general frame and vx_fast.c's loops). */
static inline uint32_t vx_cvt_i32(double f)
{
	return f != f ? 0 : f >= 2147483647.0 ? 0x7fffffffu
		: f <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)f;
}

static inline uint32_t vx_cvt_u32(double f)
{
	return f != f || f <= 0 ? 0 : f >= 4294967295.0 ? 0xffffffffu : (uint32_t)f;
}

/* 0, or -1 when op is not one the interpreter has for this family. */
int vx_vop_shape(enum isa_family fam, unsigned op, struct vx_shape *sh);
uint64_t vx_vop_eval(struct vx_wave *w, const struct vx_shape *sh, unsigned op,
		     int lane, uint64_t a, uint64_t b, uint64_t c, int cin, int *cout);
int vx_vop_lane_op(struct vx_wave *w, const struct isa_insn *in, unsigned op);

#endif
