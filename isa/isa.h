/* SPDX-License-Identifier: MIT */
/*
 * The gfx9 instruction set as data: which forms exist (isa_ops.def), how a
 * word splits into named fields, and the kernel descriptor that starts a
 * kernel.  The scanner (codeobj/) and the virtual GPU's interpreter
 * (vgpu/exec/) both read code through this one decoder, so a decoding fix
 * reaches both and the comgr and LLVM cross-checks cover both.  No I/O, no
 * allocation: every function reads the bytes it is handed and nothing else.
 */
#ifndef ISA_H
#define ISA_H

#include <stddef.h>
#include <stdint.h>

/* Families, as a bit each so that a table row can name several. */
enum isa_family {
	ISA_UNKNOWN = 0,
	ISA_GFX908 = 1,		/* MI100 */
	ISA_GFX90A = 2,		/* MI200 */
	ISA_GFX940 = 4,		/* MI300: gfx940-942 and gfx9-4-generic */
};
enum isa_family isa_family_of(const char *proc);

enum isa_fmt {
	ISA_SOP2, ISA_SOPK, ISA_SOP1, ISA_SOPC, ISA_SOPP, ISA_SMEM,
	ISA_VOP2, ISA_VOP1, ISA_VOPC, ISA_VOP3, ISA_VOP3P,
	ISA_DS, ISA_FLAT, ISA_GLOBAL, ISA_SCRATCH, ISA_MUBUF,
	ISA_MTBUF, ISA_MIMG, ISA_EXP, ISA_VINTRP,
	ISA_NFMT
};

/* Opcode names as constants: ISA_<format>_<mnemonic>. */
enum {
#define ISA_OP(fmt, op, fams, name) ISA_##fmt##_##name = op,
#include "isa_ops.def"
#undef ISA_OP
};

/* VOP1, VOP2 and VOPC instructions in VOP3's opcode space, where the
 * interpreter executes all four. */
#define ISA_VOP3_FROM_VOPC(op) (op)
#define ISA_VOP3_FROM_VOP2(op) (0x100 + (op))
#define ISA_VOP3_FROM_VOP1(op) (0x140 + (op))

/* Operand encodings of the 9-bit source fields (and the scalar 8-bit
 * ones, which are the first 256). */
enum {
	ISA_SRC_FLAT_SCR_LO = 102, ISA_SRC_XNACK_MASK_LO = 104,
	ISA_SRC_VCC_LO = 106, ISA_SRC_VCC_HI = 107, ISA_SRC_TTMP0 = 108,
	ISA_SRC_M0 = 124, ISA_SRC_EXEC_LO = 126, ISA_SRC_EXEC_HI = 127,
	ISA_SRC_ZERO = 128, ISA_SRC_INT_POS = 129, ISA_SRC_INT_NEG = 193,
	ISA_SRC_SHARED_BASE = 235, ISA_SRC_SHARED_LIMIT = 236,
	ISA_SRC_PRIVATE_BASE = 237, ISA_SRC_PRIVATE_LIMIT = 238,
	ISA_SRC_POPS_EXITING = 239, ISA_SRC_HALF = 240, ISA_SRC_INV_2PI = 248,
	ISA_SRC_SDWA = 249, ISA_SRC_DPP = 250, ISA_SRC_VCCZ = 251,
	ISA_SRC_EXECZ = 252, ISA_SRC_SCC = 253, ISA_SRC_LDS_DIRECT = 254,
	ISA_SRC_LITERAL = 255, ISA_SRC_VGPR = 256,
};
/* GLOBAL's saddr when the address is the 64-bit vaddr alone. */
enum { ISA_SADDR_OFF = 0x7f };

/* SDWA's operand selects. */
enum { ISA_SEL_BYTE0, ISA_SEL_BYTE1, ISA_SEL_BYTE2, ISA_SEL_BYTE3,
       ISA_SEL_WORD0, ISA_SEL_WORD1, ISA_SEL_DWORD };

/* One decoded instruction.  Fields a format lacks are zero; sources use
 * the 9-bit encoding (a VGPR is ISA_SRC_VGPR + n) in every VALU form, so
 * the VOP1/VOP2/VOPC forms read as their VOP3 selves. */
struct isa_insn {
	uint8_t fmt, len;	/* len: 4 or 8 bytes, literal included */
	uint16_t op;		/* the format's own opcode */
	uint32_t w0, w1;
	uint32_t lit;		/* the literal, when a source is 255 */
	uint16_t src[3];
	uint16_t dst;		/* SGPR or VGPR number (VGPRs without 256) */
	uint8_t sdst;		/* VOP3b's carry-out, VOPC's mask target */
	uint8_t abs, neg, neg_hi, opsel, opsel_hi, clamp, omod;
	/* SDWA (ext == 1) and DPP (ext == 2) */
	uint8_t ext;
	uint8_t dst_sel, dst_unused, src_sel[2], src_sext[2];
	uint8_t sdwa_sdst;	/* VOPC SDWA: SGPR pair written, 0 for VCC */
	uint16_t dpp_ctrl;
	uint8_t row_mask, bank_mask, bound_ctrl;
	/* SOPK, SOPP: simm16 as signed; memory formats: the byte offset */
	int32_t imm;
	/* memory */
	uint8_t seg;		/* FLAT: 0 flat, 1 scratch, 2 global */
	uint8_t addr, data0, data1, saddr, offen, idxen, srsrc, soffset;
	uint8_t glc, slc, scc, nt, acc, gds, soe, imm_off;
	uint8_t offset0, offset1;	/* DS */
	uint8_t lds;		/* MUBUF: the data go to LDS, not to VDATA */
};

/* The length in bytes of the instruction whose first word is w (0: a word
 * no gfx9 format starts with). */
unsigned isa_len(uint32_t w);
/* The format isa_decode gives the instruction whose first word is w (any
 * value, when isa_len(w) is 0), read from that word alone: for a reader
 * that steps over most instructions by their length and decodes the few
 * it needs. */
unsigned isa_fmt_of(uint32_t w);
/* The opcode isa_decode gives it, from the first word alone likewise (every
 * gfx9 format keeps its opcode there). */
unsigned isa_op_of(uint32_t w);
/* Steps over the instructions in p[*pos, n) up to the first whose format
 * is in fmts (a bit per enum isa_fmt), adding each one stepped over to
 * *count: a reader that wants a few formats from much code skips the rest
 * at the cost of their lengths alone.  Returns that format, with *pos at
 * it; ISA_NFMT at the end of the bytes; -1 at bytes that are no whole
 * instruction. */
int isa_seek(const uint8_t *p, size_t n, size_t *pos, uint32_t fmts,
	     unsigned long *count);
/* Decode the instruction at p (n bytes readable).  0, or -1 when the bytes
 * are not a whole instruction. */
int isa_decode(const uint8_t *p, size_t n, struct isa_insn *out);
/* Whether VOP3 opcode op is a VOP3b form, whose sdst (a carry or a flag
 * mask) takes the place of abs and op_sel. */
int isa_vop3b(unsigned op);
/* LLVM's mnemonic for fmt/op in that family; NULL for a form it lacks. */
const char *isa_name(enum isa_family fam, unsigned fmt, unsigned op);
const char *isa_fmt_name(unsigned fmt);

/* The kernel descriptor (AMDHSA, 64 bytes), as the LLVM AMDGPU usage
 * guide lays it out. */
struct isa_kd {
	uint32_t group_segment_fixed_size, private_segment_fixed_size;
	uint32_t kernarg_size;
	int64_t entry_offset;		/* code, from the descriptor's address */
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t code_properties;
	/* from rsrc1 */
	uint8_t float_round, float_denorm32, float_denorm16_64, dx10_clamp,
		ieee_mode;
	/* from rsrc2 */
	uint8_t user_sgprs, wg_id_x, wg_id_y, wg_id_z, wg_info, vgpr_wi_ids,
		private_segment;
	/* from code_properties: user SGPRs requested, in this order */
	uint8_t sgpr_private_buffer, sgpr_dispatch_ptr, sgpr_queue_ptr,
		sgpr_kernarg_ptr, sgpr_dispatch_id, sgpr_flat_scratch_init,
		sgpr_private_size, wave32;
	uint16_t accum_offset;		/* gfx90a+: first AccVGPR */
};
/* 0, or -1 when the 64 bytes cannot be a gfx9 descriptor. */
int isa_kd_parse(const uint8_t *kd, enum isa_family fam, struct isa_kd *out);

#endif
