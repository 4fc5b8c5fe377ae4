/* SPDX-License-Identifier: MIT */
/*
 * Which kernel argument each atomic's address comes from.
 *
 * A forward dataflow over the gfx9 ISA.  Each 32-bit register (SGPRs and
 * VGPRs) carries a tag: the kernarg segment pointer's low or high half (the
 * user SGPR pair the kernel descriptor sets up), a pointer argument's low or
 * high half (an s_load from the kernarg segment at that argument's offset),
 * or nothing known.  Moves copy tags; 64-bit pointer arithmetic (add with
 * carry, mad_u64_u32, lshl_add_u64) keeps them when one side is a pointer
 * and the other is not; every other write forgets them.  Basic blocks meet
 * at joins (a tag survives only where all paths agree) until nothing
 * changes.  An atomic is attributed when both halves of its address (the
 * global saddr pair, else the vaddr pair) carry the same argument.
 *
 * Only writes are modelled precisely where a pointer can flow; elsewhere a
 * write forgets at least its destination, so a stale tag cannot survive a
 * write the model knows nothing of, and anything unclear says "unknown".
 */
#include <string.h>

#include "co_flow.h"

#define NSGPR 128
#define NREG  CO_FLOW_NREG

enum { T_UNK, T_KA_LO, T_KA_HI, T_LO, T_HI };
#define TAG(k, a) ((uint16_t)((k) << 12 | (a)))
#define KIND(t)	  ((t) >> 12)
#define ARG(t)	  ((t)&0xfff)

/* A 9-bit VALU source or 8-bit scalar one as a register index, or -1. */
static int vsrc(unsigned s)
{
	return s < NSGPR ? (int)s : s >= 256 ? (int)(NSGPR + s - 256) : -1;
}

static uint16_t get(const uint16_t *r, int i)
{
	return i >= 0 && i < NREG ? r[i] : T_UNK;
}

static void set(uint16_t *r, int i, uint16_t t)
{
	if (i >= 0 && i < NREG)
		r[i] = t;
}

static void mark_unknown(uint16_t *r, int i, int n)
{
	for (int j = 0; j < n; j++)
		set(r, i + j, T_UNK);
}

static bool is_ptr(uint16_t t)
{
	return KIND(t) != T_UNK;
}

/* lo/hi half of pointer + something that is no pointer: still the pointer. */
static uint16_t add_half(uint16_t a, uint16_t b, unsigned kind)
{
	if (KIND(a) == kind && !is_ptr(b))
		return a;
	if (KIND(b) == kind && !is_ptr(a))
		return b;
	return T_UNK;
}

/* The explicit pointer argument at kernarg offset off, or -1. */
static int arg_at(const struct co_kernel *k, uint32_t off)
{
	for (uint32_t i = 0; i < k->nargs && i < 0xfff; i++)
		if (k->args[i].offset == off && k->args[i].size == 8 &&
		    k->args[i].value_kind == HG_VK_GLOBAL_BUFFER)
			return (int)i;
	return -1;
}

static void smem(const struct co_flow *f, uint16_t *r, uint32_t w0, uint32_t w1)
{
	static const int width[] = {1, 2, 4, 8, 16};
	unsigned op = (w0 >> 18) & 0xff, sdata = (w0 >> 6) & 0x7f;
	unsigned sbase = (w0 & 0x3f) << 1;
	bool imm = (w0 >> 17) & 1, soe = (w0 >> 14) & 1;
	uint32_t off = w1 & 0xfffff;

	if (op > 4) {
		mark_unknown(r, (int)sdata, op >= 8 && op <= 12 ? width[op - 8] : 2);
		return;
	}
	/* The base is read before the load overwrites it (s[0:3] from s[2:3]).
	 */
	bool kernarg = imm && !soe && KIND(get(r, (int)sbase)) == T_KA_LO &&
		       KIND(get(r, (int)sbase + 1)) == T_KA_HI;

	mark_unknown(r, (int)sdata, width[op]);
	if (!kernarg)
		return;
	for (int i = 0; i + 1 < width[op]; i++) {
		int a = arg_at(f->k, off + 4u * (unsigned)i);

		if (a < 0)
			continue;
		set(r, (int)sdata + i, TAG(T_LO, a));
		set(r, (int)sdata + i + 1, TAG(T_HI, a));
		i++;
	}
}

static bool sop2_wide(unsigned op)
{
	return (op >= 0x0b && op <= 0x23 && (op & 1)) || op == 0x27 ||
	       op == 0x28 || op == 0x2b;
}

static void salu(uint16_t *r, uint32_t w)
{
	unsigned top9 = w >> 23, sdst = (w >> 16) & 0x7f;
	uint16_t s0 = get(r, vsrc(w & 0xff)),
		 s1 = get(r, vsrc((w >> 8) & 0xff));

	if (top9 == 0x17e || top9 == 0x17f)
		return;	     /* SOPC, SOPP: SCC or control only */
	if (top9 == 0x17d) { /* SOP1 */
		unsigned op = (w >> 8) & 0xff;
		int src = vsrc(w & 0xff);

		if (op == 0) /* s_mov_b32 */
			set(r, (int)sdst, s0);
		else if (op == 1) { /* s_mov_b64 */
			set(r, (int)sdst, get(r, src));
			set(r, (int)sdst + 1,
			    src >= 0 ? get(r, src + 1) : T_UNK);
		} else if (op == 0x1e) /* s_swappc_b64: a call clobbers all */
			memset(r, 0, NREG * sizeof(*r));
		else
			mark_unknown(r, (int)sdst, 2);
		return;
	}
	if ((w >> 28) == 0xb) { /* SOPK */
		unsigned op = (w >> 23) & 0x1f;

		if (op == 0x15)
			memset(r, 0, NREG * sizeof(*r)); /* s_call_b64 */
		else if (op <= 1 || op == 0xe || op == 0xf || op == 0x11)
			mark_unknown(r, (int)sdst, 1);
		return;
	}
	switch ((w >> 23) & 0x7f) { /* SOP2 */
	case 0x00:
		set(r, (int)sdst, add_half(s0, s1, T_LO));
		break;
	case 0x04:
		set(r, (int)sdst, add_half(s0, s1, T_HI));
		break;
	case 0x01:
		set(r, (int)sdst, KIND(s0) == T_LO && !is_ptr(s1) ? s0 : 0);
		break;
	case 0x05:
		set(r, (int)sdst, KIND(s0) == T_HI && !is_ptr(s1) ? s0 : 0);
		break;
	default:
		mark_unknown(r, (int)sdst, sop2_wide((w >> 23) & 0x7f) ? 2 : 1);
	}
}

/* VOP2 semantics (also VOP3-promoted, op - 0x100). */
static void vop2(const struct co_flow *f, uint16_t *r, unsigned op, int dst,
		 uint16_t s0, uint16_t s1)
{
	switch (op) {
	case 0x19:
		set(r, dst, add_half(s0, s1, T_LO));
		break; /* v_add_co_u32 */
	case 0x1c:
		set(r, dst, add_half(s0, s1, T_HI));
		break; /* v_addc_co_u32 */
	case 0x1a:
		set(r, dst, KIND(s0) == T_LO && !is_ptr(s1) ? s0 : 0);
		break;
	case 0x1d:
		set(r, dst, KIND(s0) == T_HI && !is_ptr(s1) ? s0 : 0);
		break;
	case 0x1b:
		set(r, dst, KIND(s1) == T_LO && !is_ptr(s0) ? s1 : 0);
		break;
	case 0x1e:
		set(r, dst, KIND(s1) == T_HI && !is_ptr(s0) ? s1 : 0);
		break;
	case 0x04:
		mark_unknown(r, dst, f->fam >= CO_ISA_GFX90A ? 2 : 1);
		break;
	default:
		mark_unknown(r, dst, 1);
	}
}

static bool vop1_wide(unsigned op)
{
	static const uint8_t w[] = {0x04, 0x10, 0x16, 0x17, 0x18, 0x19,
				    0x1a, 0x25, 0x26, 0x28, 0x31, 0x32};

	for (size_t i = 0; i < sizeof(w); i++)
		if (w[i] == op)
			return true;
	return false;
}

/* VOP1 semantics (also VOP3-promoted, op - 0x140); src: the register. */
static void vop1(const struct co_flow *f, uint16_t *r, unsigned op,
		 unsigned vdst, int src)
{
	int dst = NSGPR + (int)vdst;

	if (op == 1) /* v_mov_b32 */
		set(r, dst, get(r, src));
	else if (op == 2) /* v_readfirstlane_b32: the destination is an SGPR */
		set(r, (int)(vdst & 0x7f), get(r, src));
	else if (op == 0x38 && f->fam >= CO_ISA_GFX940) { /* v_mov_b64 */
		set(r, dst, get(r, src));
		set(r, dst + 1, src >= 0 ? get(r, src + 1) : T_UNK);
	} else
		mark_unknown(r, dst, vop1_wide(op) ? 2 : 1);
}

static void valu32(const struct co_flow *f, uint16_t *r, uint32_t w,
		   uint32_t w1)
{
	unsigned op = (w >> 25) & 0x3f, src0 = w & 0x1ff;
	unsigned vdst = (w >> 17) & 0xff;
	bool ext = src0 == 0xf9 || src0 == 0xfa; /* SDWA, DPP */

	if (op == 0x3e) { /* VOPC: writes VCC */
		mark_unknown(r, 106, 2);
		return;
	}
	if (op == 0x3f) {
		vop1(f, r, (w >> 9) & 0xff, vdst, ext ? -1 : vsrc(src0));
		return;
	}
	if (ext) {
		mark_unknown(r, NSGPR + (int)vdst, 1);
		return;
	}
	vop2(f, r, op, NSGPR + (int)vdst, get(r, vsrc(src0)),
	     get(r, NSGPR + (int)((w >> 9) & 0xff)));
	if (op >= 0x19 && op <= 0x1e)
		mark_unknown(r, 106, 2); /* carry in VCC */
	(void)w1;
}

static bool vop3_wide(unsigned op)
{
	return op == 0x1cc || op == 0x1df || op == 0x1e3 ||
	       (op >= 0x280 && op <= 0x284) || (op >= 0x28f && op <= 0x292);
}

/* A 64-bit pointer operand: both halves of one argument. */
static int pair_arg(const uint16_t *r, int reg)
{
	uint16_t lo = get(r, reg), hi = reg >= 0 ? get(r, reg + 1) : T_UNK;

	if (KIND(lo) == T_LO && KIND(hi) == T_HI && ARG(lo) == ARG(hi))
		return (int)ARG(lo);
	return -1;
}

static void set_pair(uint16_t *r, int dst, int a)
{
	set(r, dst, a >= 0 ? TAG(T_LO, a) : T_UNK);
	set(r, dst + 1, a >= 0 ? TAG(T_HI, a) : T_UNK);
}

static void vop3(const struct co_flow *f, uint16_t *r, uint32_t w0, uint32_t w1)
{
	unsigned op = (w0 >> 16) & 0x3ff, vdst = w0 & 0xff;
	int dst = NSGPR + (int)vdst, s0 = vsrc(w1 & 0x1ff);
	int s1 = vsrc((w1 >> 9) & 0x1ff), s2 = vsrc((w1 >> 18) & 0x1ff);
	bool vop3b = (op >= 0x119 && op <= 0x11e) || op == 0x1e0 ||
		     op == 0x1e1 || op == 0x1e8 || op == 0x1e9;

	if (vop3b)
		mark_unknown(r, (int)((w0 >> 8) & 0x7f), 2);
	if (op < 0x100)
		mark_unknown(r, (int)(vdst & 0x7f), 2); /* VOPC: an SGPR pair */
	else if (op < 0x140)
		vop2(f, r, op - 0x100, dst, get(r, s0), get(r, s1));
	else if (op < 0x180)
		vop1(f, r, op - 0x140, vdst, s0);
	else if (op == 0x1e8 || op == 0x1e9) /* v_mad_u64_u32: s0*s1 + s2 */
		set_pair(r, dst,
			 is_ptr(get(r, s0)) || is_ptr(get(r, s1))
			     ? -1
			     : pair_arg(r, s2));
	else if (op == 0x208 && f->fam >= CO_ISA_GFX940) /* v_lshl_add_u64 */
		set_pair(r, dst, pair_arg(r, s0) < 0 ? pair_arg(r, s2) : -1);
	else if (op == 0x289)
		mark_unknown(r, (int)(vdst & 0x7f), 1); /* v_readlane_b32: an SGPR */
	else if (op == 0x3b3 && f->fam >= CO_ISA_GFX90A) { /* v_pk_mov_b32 */
		/* Each half from either half of its source, as op_sel says. */
		set(r, dst, s0 >= 0 ? get(r, s0 + (int)((w0 >> 11) & 1)) : 0);
		set(r, dst + 1,
		    s1 >= 0 ? get(r, s1 + (int)((w0 >> 12) & 1)) : 0);
	} else if (op >= 0x380)
		mark_unknown(r, dst, 2); /* VOP3P: packed pairs */
	else
		mark_unknown(r, dst, vop3_wide(op) ? 2 : 1);
}

/* Registers a VMEM load or returning atomic writes (FLAT and MUBUF ops). */
static int vmem_width(unsigned op, bool ret)
{
	if (op >= 0x40)
		return !ret					    ? 0
		       : (op >= 0x60 || (op >= 0x4f && op <= 0x51)) ? 2
								    : 1;
	if (op == 0x15)
		return 2;
	if (op == 0x16)
		return 3;
	if (op == 0x17 || op <= 0x03)
		return op == 0x17 ? 4 : (int)op + 1; /* MUBUF formats x..xyzw */
	if ((op >= 0x10 && op <= 0x14) || (op >= 0x20 && op <= 0x25))
		return 1;
	return op >= 0x08 && op <= 0x0f ? 2 : 0; /* d16 formats */
}

static int ds_width(unsigned op)
{
	if ((op >= 0x60 && op <= 0x7f) || op >= 0xfe)
		return 4;
	if ((op >= 0x20 && op <= 0x3f) || (op >= 0x56 && op <= 0x5b) ||
	    (op >= 0xb0 && op <= 0xbf))
		return 2;
	return 0;
}

static void mem(uint16_t *r, uint32_t w0, uint32_t w1)
{
	unsigned enc = w0 >> 26;

	if (enc == 0x37 && !((w1 >> 23) & 1)) /* FLAT; acc: AGPRs */
		mark_unknown(r, NSGPR + (int)(w1 >> 24),
		     vmem_width((w0 >> 18) & 0x7f, (w0 >> 16) & 1));
	else if (enc == 0x38 && !((w0 >> 16) & 1)) /* MUBUF, not to LDS */
		mark_unknown(r, NSGPR + (int)((w1 >> 8) & 0xff),
		     vmem_width((w0 >> 18) & 0x7f, (w0 >> 14) & 1));
	else if (enc == 0x36)
		mark_unknown(r, NSGPR + (int)(w1 >> 24), ds_width((w0 >> 17) & 0xff));
	else if (enc == 0x3a || enc == 0x3c)
		mark_unknown(r, NSGPR + (int)((w1 >> 8) & 0xff), 4);
	else if (enc == 0x35)
		mark_unknown(r, NSGPR + (int)((w0 >> 18) & 0xff), 1);
}

void co_flow_step(const struct co_flow *f, uint16_t *r,
		  const struct co_flow_insn *in)
{
	uint32_t w = in->w0;

	if (!(w >> 31))
		valu32(f, r, w, in->w1);
	else if ((w >> 30) == 2)
		salu(r, w);
	else if ((w >> 26) == 0x30)
		smem(f, r, w, in->w1);
	else if ((w >> 26) == 0x34)
		vop3(f, r, w, in->w1);
	else
		mem(r, w, in->w1);
}

/* The argument a FLAT/GLOBAL atomic's address derives from, or -1. */
int co_flow_atomic_arg(const uint16_t *r, const struct co_flow_insn *in)
{
	unsigned seg = (in->w0 >> 14) & 3, saddr = (in->w1 >> 16) & 0x7f;

	if ((in->w0 >> 26) != 0x37)
		return -1; /* buffer atomics: the base is in a descriptor */
	if (seg == 2 && saddr != 0x7f)
		return pair_arg(r, (int)saddr);
	return pair_arg(r, NSGPR + (int)(in->w1 & 0xff));
}

void co_flow_entry(const struct co_flow *f, uint16_t *r)
{
	memset(r, 0, NREG * sizeof(*r));
	if (f->k->kernarg_sgpr >= 0) {
		set(r, f->k->kernarg_sgpr, TAG(T_KA_LO, 0));
		set(r, f->k->kernarg_sgpr + 1, TAG(T_KA_HI, 0));
	}
}
