/* SPDX-License-Identifier: MIT */
/*
 * Words to fields.  Bit positions are those of AMD's Vega, CDNA and CDNA3
 * ISA documents (the microcode formats chapter); where the CDNA3 names
 * differ (sc0, sc1, nt for glc, slc, scc) the field keeps its position and
 * takes both names in isa.h.
 */
#include <string.h>

#include "isa.h"

#define BITS(w, hi, lo) (((w) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

static int32_t sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);
	return (int32_t)((v ^ m) - m);
}

static int has_literal(uint32_t src)
{
	return src == ISA_SRC_LITERAL;
}

/* VOP2 forms that always carry a constant after the word. */
static int vop2_literal(unsigned op)
{
	return op == 0x17 || op == 0x18 || op == 0x24 || op == 0x25;
}

/* isa_fmt_of, inlined where this file steps over code. */
static inline __attribute__((always_inline)) unsigned fmt_of(uint32_t w)
{
	if (!(w >> 31)) {
		unsigned top = BITS(w, 30, 25);
		return top == 0x3f ? ISA_VOP1 : top == 0x3e ? ISA_VOPC : ISA_VOP2;
	}
	if ((w >> 30) == 2) {
		switch (w >> 23) {
		case 0x17d: return ISA_SOP1;
		case 0x17e: return ISA_SOPC;
		case 0x17f: return ISA_SOPP;
		}
		return (w >> 28) == 0xb ? ISA_SOPK : ISA_SOP2;
	}
	switch (w >> 26) {
	case 0x30: return ISA_SMEM;
	case 0x34: return BITS(w, 25, 16) >= 0x380 ? ISA_VOP3P : ISA_VOP3;
	case 0x36: return ISA_DS;
	case 0x37:
		switch (BITS(w, 15, 14)) {
		case 1: return ISA_SCRATCH;
		case 2: return ISA_GLOBAL;
		}
		return ISA_FLAT;
	case 0x38: return ISA_MUBUF;
	case 0x3a: return ISA_MTBUF;
	case 0x3c: return ISA_MIMG;
	case 0x31: return ISA_EXP;
	}
	return ISA_VINTRP;
}

/* The length the format of w gives it (isa_len), inlined likewise. */
static inline __attribute__((always_inline)) unsigned len_for(unsigned fmt,
							      uint32_t w)
{
	switch (fmt) {
	case ISA_VOP1: case ISA_VOPC: case ISA_VOP2: {
		unsigned src0 = w & 0x1ff;
		if (src0 == ISA_SRC_LITERAL || src0 == ISA_SRC_SDWA || src0 == ISA_SRC_DPP)
			return 8;
		return fmt == ISA_VOP2 && vop2_literal(BITS(w, 30, 25)) ? 8 : 4;
	}
	case ISA_SOP1:
		return has_literal(w & 0xff) ? 8 : 4;
	case ISA_SOPC: case ISA_SOP2:
		return has_literal(w & 0xff) || has_literal(BITS(w, 15, 8)) ? 8 : 4;
	case ISA_SOPP:
		return 4;
	case ISA_SOPK:
		return BITS(w, 27, 23) == 0x14 ? 8 : 4;	/* s_setreg_imm32_b32 */
	case ISA_VINTRP:	/* and the words no format starts with */
		return (w >> 26) == 0x35 ? 4 : 0;
	}
	return 8;
}

static inline __attribute__((always_inline)) unsigned len_of(uint32_t w)
{
	return len_for(fmt_of(w), w);
}

unsigned isa_len(uint32_t w)
{
	return len_of(w);
}

unsigned isa_fmt_of(uint32_t w)
{
	return fmt_of(w);
}

unsigned isa_op_of(uint32_t w)
{
	switch (fmt_of(w)) {
	case ISA_VOP1: return BITS(w, 16, 9);
	case ISA_VOPC: return BITS(w, 24, 17);
	case ISA_VOP2: return BITS(w, 30, 25);
	case ISA_SOP1: return BITS(w, 15, 8);
	case ISA_SOPC: case ISA_SOPP: return BITS(w, 22, 16);
	case ISA_SOPK: return BITS(w, 27, 23);
	case ISA_SOP2: return BITS(w, 29, 23);
	case ISA_SMEM: return BITS(w, 25, 18);
	case ISA_VOP3: return BITS(w, 25, 16);
	case ISA_VOP3P: return BITS(w, 22, 16);
	case ISA_DS: return BITS(w, 24, 17);
	case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: case ISA_MUBUF:
		return BITS(w, 24, 18);
	}
	return 0;
}

int isa_seek(const uint8_t *p, size_t n, size_t *pos, uint32_t fmts,
	     unsigned long *count)
{
	size_t at = *pos;
	unsigned len;

	for (; at < n; at += len, ++*count) {
		uint32_t w;
		if (n - at < 4)
			return -1;
		memcpy(&w, p + at, 4);
		unsigned fmt = fmt_of(w);
		len = len_for(fmt, w);
		if (!len || len > n - at)
			return -1;
		if (fmts >> fmt & 1) {
			*pos = at;
			return (int)fmt;
		}
	}
	*pos = at;
	return ISA_NFMT;
}

static void vop_sdwa(struct isa_insn *in, uint32_t e)
{
	in->ext = 1;
	in->src[0] = (uint16_t)(BITS(e, 7, 0) + (BITS(e, 23, 23) ? 0 : ISA_SRC_VGPR));
	in->dst_sel = (uint8_t)BITS(e, 10, 8);
	in->dst_unused = (uint8_t)BITS(e, 12, 11);
	in->clamp = (uint8_t)BITS(e, 13, 13);
	in->omod = (uint8_t)BITS(e, 15, 14);
	in->src_sel[0] = (uint8_t)BITS(e, 18, 16);
	in->src_sext[0] = (uint8_t)BITS(e, 19, 19);
	in->neg = (uint8_t)(BITS(e, 20, 20) | BITS(e, 28, 28) << 1);
	in->abs = (uint8_t)(BITS(e, 21, 21) | BITS(e, 29, 29) << 1);
	in->src_sel[1] = (uint8_t)BITS(e, 26, 24);
	in->src_sext[1] = (uint8_t)BITS(e, 27, 27);
	if (BITS(e, 31, 31) && in->src[1] >= ISA_SRC_VGPR)
		in->src[1] = (uint16_t)(in->src[1] - ISA_SRC_VGPR);
	if (in->fmt == ISA_VOPC) {
		/* VOPC's SDWA word names its mask target where dst_sel is. */
		in->sdwa_sdst = BITS(e, 15, 15) ? (uint8_t)BITS(e, 14, 8) : 0;
		in->sdst = BITS(e, 15, 15) ? (uint8_t)BITS(e, 14, 8) : ISA_SRC_VCC_LO;
		in->dst_sel = ISA_SEL_DWORD;
		in->omod = 0;
	}
}

static void vop_dpp(struct isa_insn *in, uint32_t e)
{
	in->ext = 2;
	in->src[0] = (uint16_t)(BITS(e, 7, 0) + ISA_SRC_VGPR);
	in->dpp_ctrl = (uint16_t)BITS(e, 16, 8);
	in->bound_ctrl = (uint8_t)BITS(e, 19, 19);
	in->neg = (uint8_t)(BITS(e, 20, 20) | BITS(e, 22, 22) << 1);
	in->abs = (uint8_t)(BITS(e, 21, 21) | BITS(e, 23, 23) << 1);
	in->bank_mask = (uint8_t)BITS(e, 27, 24);
	in->row_mask = (uint8_t)BITS(e, 31, 28);
}

static void vop_short(struct isa_insn *in, uint32_t w)
{
	unsigned top = BITS(w, 30, 25);
	in->src[0] = (uint16_t)BITS(w, 8, 0);
	if (top == 0x3f) {
		in->fmt = ISA_VOP1;
		in->op = (uint16_t)BITS(w, 16, 9);
		in->dst = (uint16_t)BITS(w, 24, 17);
	} else if (top == 0x3e) {
		in->fmt = ISA_VOPC;
		in->op = (uint16_t)BITS(w, 24, 17);
		in->src[1] = (uint16_t)(BITS(w, 16, 9) + ISA_SRC_VGPR);
		in->sdst = ISA_SRC_VCC_LO;
	} else {
		in->fmt = ISA_VOP2;
		in->op = (uint16_t)top;
		in->dst = (uint16_t)BITS(w, 24, 17);
		in->src[1] = (uint16_t)(BITS(w, 16, 9) + ISA_SRC_VGPR);
	}
	if (in->src[0] == ISA_SRC_SDWA)
		vop_sdwa(in, in->w1);
	else if (in->src[0] == ISA_SRC_DPP)
		vop_dpp(in, in->w1);
	else if (in->len == 8)
		in->lit = in->w1;
}

int isa_vop3b(unsigned op)
{
	return (op >= 0x119 && op <= 0x11e) || op == 0x1e0 || op == 0x1e1 ||
	       op == 0x1e8 || op == 0x1e9;
}

static void vop3(struct isa_insn *in, uint32_t w, uint32_t e)
{
	in->op = (uint16_t)BITS(w, 25, 16);
	in->src[0] = (uint16_t)BITS(e, 8, 0);
	in->src[1] = (uint16_t)BITS(e, 17, 9);
	in->src[2] = (uint16_t)BITS(e, 26, 18);
	in->neg = (uint8_t)BITS(e, 31, 29);
	in->clamp = (uint8_t)BITS(w, 15, 15);
	if (in->op >= 0x380) {
		in->fmt = ISA_VOP3P;
		in->op = (uint16_t)BITS(w, 22, 16);
		in->dst = (uint16_t)BITS(w, 7, 0);
		in->neg_hi = (uint8_t)BITS(w, 10, 8);
		in->opsel = (uint8_t)BITS(w, 13, 11);
		in->opsel_hi = (uint8_t)(BITS(e, 28, 27) | BITS(w, 14, 14) << 2);
		return;
	}
	in->fmt = ISA_VOP3;
	in->omod = (uint8_t)BITS(e, 28, 27);
	if (in->op < 0x100) {
		in->sdst = (uint8_t)BITS(w, 7, 0);
		in->abs = (uint8_t)BITS(w, 10, 8);
	} else if (isa_vop3b(in->op)) {
		in->dst = (uint16_t)BITS(w, 7, 0);
		in->sdst = (uint8_t)BITS(w, 14, 8);
	} else {
		in->dst = (uint16_t)BITS(w, 7, 0);
		in->abs = (uint8_t)BITS(w, 10, 8);
		in->opsel = (uint8_t)BITS(w, 14, 11);
	}
}

static void scalar(struct isa_insn *in, uint32_t w)
{
	unsigned top9 = w >> 23;
	if (top9 == 0x17d) {
		in->fmt = ISA_SOP1;
		in->op = (uint16_t)BITS(w, 15, 8);
		in->dst = (uint16_t)BITS(w, 22, 16);
		in->src[0] = (uint16_t)BITS(w, 7, 0);
	} else if (top9 == 0x17e) {
		in->fmt = ISA_SOPC;
		in->op = (uint16_t)BITS(w, 22, 16);
		in->src[0] = (uint16_t)BITS(w, 7, 0);
		in->src[1] = (uint16_t)BITS(w, 15, 8);
	} else if (top9 == 0x17f) {
		in->fmt = ISA_SOPP;
		in->op = (uint16_t)BITS(w, 22, 16);
		in->imm = sext(BITS(w, 15, 0), 16);
	} else if ((w >> 28) == 0xb) {
		in->fmt = ISA_SOPK;
		in->op = (uint16_t)BITS(w, 27, 23);
		in->dst = (uint16_t)BITS(w, 22, 16);
		in->imm = sext(BITS(w, 15, 0), 16);
	} else {
		in->fmt = ISA_SOP2;
		in->op = (uint16_t)BITS(w, 29, 23);
		in->dst = (uint16_t)BITS(w, 22, 16);
		in->src[0] = (uint16_t)BITS(w, 7, 0);
		in->src[1] = (uint16_t)BITS(w, 15, 8);
	}
	if (in->len == 8)
		in->lit = in->w1;
}

static void smem(struct isa_insn *in, uint32_t w, uint32_t e)
{
	in->fmt = ISA_SMEM;
	in->op = (uint16_t)BITS(w, 25, 18);
	in->addr = (uint8_t)(BITS(w, 5, 0) * 2);
	in->dst = (uint16_t)BITS(w, 12, 6);
	in->soe = (uint8_t)BITS(w, 14, 14);
	in->glc = (uint8_t)BITS(w, 16, 16);
	in->imm_off = (uint8_t)BITS(w, 17, 17);
	in->imm = sext(BITS(e, 20, 0), 21);
	in->soffset = (uint8_t)BITS(e, 31, 25);
}

static void ds(struct isa_insn *in, uint32_t w, uint32_t e)
{
	in->fmt = ISA_DS;
	in->offset0 = (uint8_t)BITS(w, 7, 0);
	in->offset1 = (uint8_t)BITS(w, 15, 8);
	in->imm = (int32_t)BITS(w, 15, 0);
	in->gds = (uint8_t)BITS(w, 16, 16);
	in->op = (uint16_t)BITS(w, 24, 17);
	in->acc = (uint8_t)BITS(w, 25, 25);
	in->addr = (uint8_t)BITS(e, 7, 0);
	in->data0 = (uint8_t)BITS(e, 15, 8);
	in->data1 = (uint8_t)BITS(e, 23, 16);
	in->dst = (uint16_t)BITS(e, 31, 24);
}

static void flat(struct isa_insn *in, uint32_t w, uint32_t e)
{
	in->seg = (uint8_t)BITS(w, 15, 14);
	in->fmt = in->seg == 2 ? ISA_GLOBAL : in->seg == 1 ? ISA_SCRATCH : ISA_FLAT;
	in->imm = in->seg ? sext(BITS(w, 12, 0), 13) : (int32_t)BITS(w, 11, 0);
	in->glc = (uint8_t)BITS(w, 16, 16);
	in->slc = (uint8_t)BITS(w, 17, 17);
	in->op = (uint16_t)BITS(w, 24, 18);
	in->scc = (uint8_t)BITS(w, 25, 25);
	in->addr = (uint8_t)BITS(e, 7, 0);
	in->data0 = (uint8_t)BITS(e, 15, 8);
	in->saddr = (uint8_t)BITS(e, 22, 16);
	in->acc = (uint8_t)BITS(e, 23, 23);
	in->dst = (uint16_t)BITS(e, 31, 24);
}

static void mubuf(struct isa_insn *in, uint32_t w, uint32_t e)
{
	in->fmt = ISA_MUBUF;
	in->imm = (int32_t)BITS(w, 11, 0);
	in->offen = (uint8_t)BITS(w, 12, 12);
	in->idxen = (uint8_t)BITS(w, 13, 13);
	in->glc = (uint8_t)BITS(w, 14, 14);
	in->scc = (uint8_t)BITS(w, 15, 15);
	in->lds = (uint8_t)BITS(w, 16, 16);
	in->slc = (uint8_t)BITS(w, 17, 17);
	in->op = (uint16_t)BITS(w, 24, 18);
	in->addr = (uint8_t)BITS(e, 7, 0);
	in->data0 = (uint8_t)BITS(e, 15, 8);
	in->dst = in->data0;	/* VDATA: what a store writes and a load fills */
	in->srsrc = (uint8_t)(BITS(e, 20, 16) * 4);
	in->acc = (uint8_t)BITS(e, 23, 23);
	in->soffset = (uint8_t)BITS(e, 31, 24);
}

/* Image and typed-buffer forms: the registers they read and fill, for a
 * reader that tracks registers through code nothing here executes. */
static void image(struct isa_insn *in, unsigned fmt, uint32_t e)
{
	in->fmt = (uint8_t)fmt;
	in->addr = (uint8_t)BITS(e, 7, 0);
	in->data0 = (uint8_t)BITS(e, 15, 8);
	in->dst = in->data0;
}

int isa_decode(const uint8_t *p, size_t n, struct isa_insn *in)
{
	memset(in, 0, sizeof(*in));
	if (n < 4)
		return -1;
	uint32_t w;
	memcpy(&w, p, 4);
	unsigned len = len_of(w);
	if (!len || len > n)
		return -1;
	in->len = (uint8_t)len;
	in->w0 = w;
	if (len == 8)
		memcpy(&in->w1, p + 4, 4);
	if (!(w >> 31)) {
		vop_short(in, w);
		return 0;
	}
	if ((w >> 30) == 2) {
		scalar(in, w);
		return 0;
	}
	switch (w >> 26) {
	case 0x30: smem(in, w, in->w1); break;
	case 0x34: vop3(in, w, in->w1); break;
	case 0x36: ds(in, w, in->w1); break;
	case 0x37: flat(in, w, in->w1); break;
	case 0x38: mubuf(in, w, in->w1); break;
	case 0x3a: image(in, ISA_MTBUF, in->w1); break;
	case 0x3c: image(in, ISA_MIMG, in->w1); break;
	case 0x31: in->fmt = ISA_EXP; break;
	default:
		in->fmt = ISA_VINTRP;
		in->dst = (uint16_t)BITS(w, 25, 18);
		break;
	}
	return 0;
}
