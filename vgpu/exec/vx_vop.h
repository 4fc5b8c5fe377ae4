/* SPDX-License-Identifier: MIT */
/* Each VALU operation's shape and its value on one lane (vx_vop.def,
 * expanded in vx_vop.c), for the frame that gathers operands and writes
 * results (vx_valu.c). */
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

/* The shapes vx_vop.def's rows name: the sources' types, then the
 * result's (I a 32-bit integer, L a 64-bit one, W a 16-bit one, F f32, D
 * f64, H f16), then what else the instruction reads or writes.  Each is
 * nsrc, src64, stype[3], dtype, dst64, kind, mac. */
#define VX_SH_I_I 1, 0, VX_T_B32, 0, 0, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_I_F 1, 0, VX_T_B32, 0, 0, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_I_D 1, 0, VX_T_B32, 0, 0, VX_T_F64, 1, VX_K_PLAIN, 0
#define VX_SH_F_I 1, 0, VX_T_F32, 0, 0, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_F_F 1, 0, VX_T_F32, 0, 0, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_F_H 1, 0, VX_T_F32, 0, 0, VX_T_F16, 0, VX_K_PLAIN, 0
#define VX_SH_F_D 1, 0, VX_T_F32, 0, 0, VX_T_F64, 1, VX_K_PLAIN, 0
#define VX_SH_H_F 1, 0, VX_T_F16, 0, 0, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_D_I 1, 1, VX_T_F64, 0, 0, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_D_F 1, 1, VX_T_F64, 0, 0, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_D_D 1, 1, VX_T_F64, 0, 0, VX_T_F64, 1, VX_K_PLAIN, 0
#define VX_SH_L_L 1, 1, VX_T_B64, 0, 0, VX_T_B64, 1, VX_K_PLAIN, 0
#define VX_SH_II_I 2, 0, VX_T_B32, VX_T_B32, 0, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_II_I_CO 2, 0, VX_T_B32, VX_T_B32, 0, VX_T_B32, 0, VX_K_CARRY_OUT, 0
#define VX_SH_II_I_CI 2, 0, VX_T_B32, VX_T_B32, 0, VX_T_B32, 0, VX_K_CARRY_IN, 0
#define VX_SH_II_I_SEL 2, 0, VX_T_B32, VX_T_B32, 0, VX_T_B32, 0, VX_K_CNDMASK, 0
#define VX_SH_WW_W 2, 0, VX_T_I16, VX_T_I16, 0, VX_T_I16, 0, VX_K_PLAIN, 0
#define VX_SH_HH_H 2, 0, VX_T_F16, VX_T_F16, 0, VX_T_F16, 0, VX_K_PLAIN, 0
#define VX_SH_HH_I 2, 0, VX_T_F16, VX_T_F16, 0, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_FF_F 2, 0, VX_T_F32, VX_T_F32, 0, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_FF_I 2, 0, VX_T_F32, VX_T_F32, 0, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_FI_F 2, 0, VX_T_F32, VX_T_B32, 0, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_FF_F_MADMK 2, 0, VX_T_F32, VX_T_F32, VX_T_F32, VX_T_F32, 0, VX_K_MADMK, 0
#define VX_SH_FF_F_MADAK 2, 0, VX_T_F32, VX_T_F32, VX_T_F32, VX_T_F32, 0, VX_K_MADAK, 0
#define VX_SH_DD_D 2, 3, VX_T_F64, VX_T_F64, 0, VX_T_F64, 1, VX_K_PLAIN, 0
#define VX_SH_DI_D 2, 1, VX_T_F64, VX_T_B32, 0, VX_T_F64, 1, VX_K_PLAIN, 0
#define VX_SH_IL_L 2, 2, VX_T_B32, VX_T_B64, 0, VX_T_B64, 1, VX_K_PLAIN, 0
#define VX_SH_III_I 3, 0, VX_T_B32, VX_T_B32, VX_T_B32, VX_T_B32, 0, VX_K_PLAIN, 0
#define VX_SH_IIL_L_CO 3, 4, VX_T_B32, VX_T_B32, VX_T_B64, VX_T_B64, 1, VX_K_CARRY_OUT, 0
#define VX_SH_LIL_L 3, 5, VX_T_B64, VX_T_B32, VX_T_B64, VX_T_B64, 1, VX_K_PLAIN, 0
#define VX_SH_FFF_F 3, 0, VX_T_F32, VX_T_F32, VX_T_F32, VX_T_F32, 0, VX_K_PLAIN, 0
#define VX_SH_FFF_F_MAC 3, 0, VX_T_F32, VX_T_F32, VX_T_F32, VX_T_F32, 0, VX_K_PLAIN, 1
#define VX_SH_FFF_F_FMAS 3, 0, VX_T_F32, VX_T_F32, VX_T_F32, VX_T_F32, 0, VX_K_FMAS, 0
#define VX_SH_FFF_F_SCALE 3, 0, VX_T_F32, VX_T_F32, VX_T_F32, VX_T_F32, 0, VX_K_DIV_SCALE, 0
#define VX_SH_DDD_D 3, 7, VX_T_F64, VX_T_F64, VX_T_F64, VX_T_F64, 1, VX_K_PLAIN, 0
#define VX_SH_DDD_D_MAC 3, 7, VX_T_F64, VX_T_F64, VX_T_F64, VX_T_F64, 1, VX_K_PLAIN, 1
#define VX_SH_DDD_D_FMAS 3, 7, VX_T_F64, VX_T_F64, VX_T_F64, VX_T_F64, 1, VX_K_FMAS, 0
#define VX_SH_DDD_D_SCALE 3, 7, VX_T_F64, VX_T_F64, VX_T_F64, VX_T_F64, 1, VX_K_DIV_SCALE, 0
#define VX_SH_LANE1 1, 0, VX_T_B32, 0, 0, VX_T_B32, 0, VX_K_LANE, 0
#define VX_SH_LANE2 2, 0, VX_T_B32, VX_T_B32, 0, VX_T_B32, 0, VX_K_LANE, 0

/* A struct vx_shape's initializer from one of them, by the name a row
 * gives (II_I for VX_SH_II_I: pasted, so that it reaches here unexpanded
 * through the macros between). */
#define VX_SHAPE_OF(shape) VX_SHAPE_INIT(VX_SH_##shape)
#define VX_SHAPE_INIT(...) VX_SHAPE_INIT_(__VA_ARGS__)
#define VX_SHAPE_INIT_(n, s64, t0, t1, t2, dt, d64, k, m)			\
	{ .nsrc = (n), .src64 = (s64), .stype = { (t0), (t1), (t2) }, .dtype = (dt),	\
	  .dst64 = (d64), .d16 = (dt) == VX_T_F16 || (dt) == VX_T_I16, .kind = (k), .mac = (m) }

/* The rows whose mnemonic has no VOP3 name of its own: VOP2 only, or a
 * VOP1 form LLVM prints without the suffix. */
#define ISA_VOP3_v_madmk_f32 ISA_VOP3_FROM_VOP2(ISA_VOP2_v_madmk_f32)
#define ISA_VOP3_v_madak_f32 ISA_VOP3_FROM_VOP2(ISA_VOP2_v_madak_f32)
#define ISA_VOP3_v_readfirstlane_b32_e64 ISA_VOP3_FROM_VOP1(ISA_VOP1_v_readfirstlane_b32)

/* What the frame works out about an instruction once, kept beside its
 * decoded form in the instruction cache: a loop runs the same words many
 * times, and the name check and the shape are the same every time. */
struct vx_prep {
	uint8_t ready;		/* worked out */
	uint8_t known;		/* the family has the form */
	uint8_t fast;		/* a vx_fast form, 0 for the general frame */
	uint16_t op;		/* as a VOP3 opcode */
	union {
		struct vx_shape sh;		/* the VALU's */
		struct vx_mfma_form mfma;	/* an MFMA's (vx_vop3p.c) */
	};
};

struct vx_slot;
/* A family's run of a decoded slot (vx_int.h's families). */
typedef int vx_step_fn(struct vx_wave *w, struct vx_slot *s);

struct vx_slot {
	struct isa_insn in;
	struct vx_prep prep;
	vx_step_fn *run;	/* its family, resolved as the slot is filled */
};

/* An instruction's opcode in VOP3's space, as the rows name it: gfx908's
 * VOP2 v_mul_legacy_f32 is where later families have v_fmac_f64. */
unsigned vx_vop_op(enum isa_family fam, const struct isa_insn *in);
/* 0, or -1 when op (vx_vop_op's) is not one the interpreter has. */
int vx_vop_shape(unsigned op, struct vx_shape *sh);
/* The value of op on one lane, from its sources' bits after the frame's
 * modifiers; *cout gets a carry, a compare's bit or VCC's. */
uint64_t vx_vop_eval(struct vx_wave *w, unsigned op, int lane, uint64_t a, uint64_t b,
		     uint64_t c, int cin, int *cout);
/* The rows' helpers too large to inline (vx_ops.h). */
uint32_t vx_perm(uint32_t a, uint32_t b, uint32_t sel);
double vx_fixup(double q, double den, double num);
uint32_t vx_pkrtz(uint32_t x, uint32_t y);
int vx_vop_lane_op(struct vx_wave *w, const struct isa_insn *in, unsigned op);

#endif
