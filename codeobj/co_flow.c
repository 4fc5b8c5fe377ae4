/* SPDX-License-Identifier: MIT */
/*
 * Which kernel argument each atomic's address comes from.
 *
 * A forward dataflow over the gfx9 ISA, read through isa/'s decoder.  Each
 * 32-bit register (SGPRs and VGPRs) carries a tag: the kernarg segment
 * pointer's low or high half (the user SGPR pair the kernel descriptor sets
 * up), a pointer argument's low or high half (an s_load from the kernarg
 * segment at that argument's offset), or nothing known.  Moves copy tags;
 * 64-bit pointer arithmetic (add with carry, mad_u64_u32, lshl_add_u64)
 * keeps them when one side is a pointer and the other is not; every other
 * write forgets them.  Basic blocks meet at joins (a tag survives only where
 * all paths agree) until nothing changes.  An atomic is attributed when
 * both halves of its address (the global saddr pair, else the vaddr pair)
 * carry the same argument.
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
	return s < NSGPR ? (int)s : s >= ISA_SRC_VGPR ? (int)(NSGPR + s - ISA_SRC_VGPR) : -1;
}

static int vgpr(unsigned v)
{
	return NSGPR + (int)v;
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

/* A scalar destination: an SGPR, VCC or another pair below the VGPRs. */
static void forget_sgprs(uint16_t *r, unsigned s, int n)
{
	mark_unknown(r, (int)(s & (NSGPR - 1)), n);
}

static bool is_ptr(uint16_t t)
{
	return KIND(t) != T_UNK;
}

static bool gfx90a_on(enum isa_family fam)
{
	return fam & (ISA_GFX90A | ISA_GFX940);
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

/* Dwords a scalar load fills (each opcode doubles the last); other SMEM
 * forms forget a pair. */
static int smem_width(unsigned op)
{
	if (op <= ISA_SMEM_s_load_dwordx16)
		return 1 << (op - ISA_SMEM_s_load_dword);
	if (op >= ISA_SMEM_s_buffer_load_dword &&
	    op <= ISA_SMEM_s_buffer_load_dwordx16)
		return 1 << (op - ISA_SMEM_s_buffer_load_dword);
	return 2;
}

static void smem(const struct co_flow *f, uint16_t *r, const struct isa_insn *in)
{
	int width = smem_width(in->op), sdata = (int)in->dst;

	if (in->op > ISA_SMEM_s_load_dwordx16) {
		mark_unknown(r, sdata, width);
		return;
	}
	/* The base is read before the load overwrites it (s[0:3] from s[2:3]).
	 */
	bool kernarg = in->imm_off && !in->soe &&
		       KIND(get(r, in->addr)) == T_KA_LO &&
		       KIND(get(r, in->addr + 1)) == T_KA_HI;

	mark_unknown(r, sdata, width);
	if (!kernarg)
		return;
	for (int i = 0; i + 1 < width; i++) {
		int a = arg_at(f->k, (uint32_t)in->imm + 4u * (unsigned)i);

		if (a < 0)
			continue;
		set(r, sdata + i, TAG(T_LO, a));
		set(r, sdata + i + 1, TAG(T_HI, a));
		i++;
	}
}

#define FORM(fmt, op) ((unsigned)(fmt) << 10 | (op))

/* The forms with a 64-bit result among those whose result is unknown. */
static bool wide(unsigned fmt, unsigned op)
{
	switch (FORM(fmt, op)) {
	case FORM(ISA_SOP2, ISA_SOP2_s_cselect_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_and_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_or_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_xor_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_andn2_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_orn2_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_nand_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_nor_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_xnor_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_lshl_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_lshr_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_ashr_i64):
	case FORM(ISA_SOP2, ISA_SOP2_s_bfm_b64):
	case FORM(ISA_SOP2, ISA_SOP2_s_bfe_u64):
	case FORM(ISA_SOP2, ISA_SOP2_s_bfe_i64):
	case FORM(ISA_SOP2, ISA_SOP2_s_rfe_restore_b64):
	case FORM(ISA_VOP1, ISA_VOP1_v_cvt_f64_i32_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_cvt_f64_f32_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_cvt_f64_u32_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_trunc_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_ceil_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_rndne_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_floor_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_rcp_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_rsq_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_sqrt_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_frexp_mant_f64_e32):
	case FORM(ISA_VOP1, ISA_VOP1_v_fract_f64_e32):
	case FORM(ISA_VOP3, ISA_VOP3_v_fma_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_div_fixup_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_div_fmas_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_add_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_mul_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_min_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_max_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_ldexp_f64):
	case FORM(ISA_VOP3, ISA_VOP3_v_lshlrev_b64):
	case FORM(ISA_VOP3, ISA_VOP3_v_lshrrev_b64):
	case FORM(ISA_VOP3, ISA_VOP3_v_ashrrev_i64):
	case FORM(ISA_VOP3, ISA_VOP3_v_trig_preop_f64):
		return true;
	}
	return false;
}

/* The SOP1 forms that write one SGPR (a count or an index of a 64-bit
 * source among them): forgetting the next one too would lose a pointer
 * half kept there (LLVM 21 counts a wave's lanes with s_bcnt1_i32_b64
 * into the SGPR below a kernel argument it then uses). */
static bool sop1_narrow(unsigned op)
{
	switch (op) {
	case ISA_SOP1_s_cmov_b32: case ISA_SOP1_s_not_b32:
	case ISA_SOP1_s_wqm_b32: case ISA_SOP1_s_brev_b32:
	case ISA_SOP1_s_bcnt0_i32_b32: case ISA_SOP1_s_bcnt0_i32_b64:
	case ISA_SOP1_s_bcnt1_i32_b32: case ISA_SOP1_s_bcnt1_i32_b64:
	case ISA_SOP1_s_ff0_i32_b32: case ISA_SOP1_s_ff0_i32_b64:
	case ISA_SOP1_s_ff1_i32_b32: case ISA_SOP1_s_ff1_i32_b64:
	case ISA_SOP1_s_flbit_i32_b32: case ISA_SOP1_s_flbit_i32_b64:
	case ISA_SOP1_s_flbit_i32: case ISA_SOP1_s_flbit_i32_i64:
	case ISA_SOP1_s_sext_i32_i8: case ISA_SOP1_s_sext_i32_i16:
	case ISA_SOP1_s_bitset0_b32: case ISA_SOP1_s_bitset1_b32:
	case ISA_SOP1_s_quadmask_b32: case ISA_SOP1_s_movrels_b32:
	case ISA_SOP1_s_abs_i32:
		return true;
	}
	return false;
}

static void sop1(uint16_t *r, const struct isa_insn *in)
{
	int src = vsrc(in->src[0]), sdst = (int)in->dst;

	if (in->op == ISA_SOP1_s_mov_b32)
		set(r, sdst, get(r, src));
	else if (in->op == ISA_SOP1_s_mov_b64) {
		set(r, sdst, get(r, src));
		set(r, sdst + 1, src >= 0 ? get(r, src + 1) : T_UNK);
	} else if (in->op == ISA_SOP1_s_swappc_b64) /* a call clobbers all */
		memset(r, 0, NREG * sizeof(*r));
	else if (in->op == ISA_SOP1_s_movreld_b32 ||
		 in->op == ISA_SOP1_s_movreld_b64) /* written at sdst + M0 */
		mark_unknown(r, 0, NSGPR);
	else
		mark_unknown(r, sdst, sop1_narrow(in->op) ? 1 : 2);
}

static void sopk(uint16_t *r, const struct isa_insn *in)
{
	switch (in->op) {
	case ISA_SOPK_s_call_b64:
		memset(r, 0, NREG * sizeof(*r));
		break;
	case ISA_SOPK_s_movk_i32: case ISA_SOPK_s_cmovk_i32:
	case ISA_SOPK_s_addk_i32: case ISA_SOPK_s_mulk_i32:
	case ISA_SOPK_s_getreg_b32:
		mark_unknown(r, (int)in->dst, 1);
	}
}

static void sop2(uint16_t *r, const struct isa_insn *in)
{
	uint16_t s0 = get(r, vsrc(in->src[0])), s1 = get(r, vsrc(in->src[1]));
	int sdst = (int)in->dst;

	switch (in->op) {
	case ISA_SOP2_s_add_u32:
		set(r, sdst, add_half(s0, s1, T_LO));
		break;
	case ISA_SOP2_s_addc_u32:
		set(r, sdst, add_half(s0, s1, T_HI));
		break;
	case ISA_SOP2_s_sub_u32:
		set(r, sdst, KIND(s0) == T_LO && !is_ptr(s1) ? s0 : 0);
		break;
	case ISA_SOP2_s_subb_u32:
		set(r, sdst, KIND(s0) == T_HI && !is_ptr(s1) ? s0 : 0);
		break;
	default:
		mark_unknown(r, sdst, wide(ISA_SOP2, in->op) ? 2 : 1);
	}
}

/* VOP2 semantics (also VOP3-promoted); dst: the register index. */
static void vop2(const struct co_flow *f, uint16_t *r, unsigned op, int dst,
		 uint16_t s0, uint16_t s1)
{
	switch (op) {
	case ISA_VOP2_v_add_co_u32_e32:
		set(r, dst, add_half(s0, s1, T_LO));
		break;
	case ISA_VOP2_v_addc_co_u32_e32:
		set(r, dst, add_half(s0, s1, T_HI));
		break;
	case ISA_VOP2_v_sub_co_u32_e32:
		set(r, dst, KIND(s0) == T_LO && !is_ptr(s1) ? s0 : 0);
		break;
	case ISA_VOP2_v_subb_co_u32_e32:
		set(r, dst, KIND(s0) == T_HI && !is_ptr(s1) ? s0 : 0);
		break;
	case ISA_VOP2_v_subrev_co_u32_e32:
		set(r, dst, KIND(s1) == T_LO && !is_ptr(s0) ? s1 : 0);
		break;
	case ISA_VOP2_v_subbrev_co_u32_e32:
		set(r, dst, KIND(s1) == T_HI && !is_ptr(s0) ? s1 : 0);
		break;
	case ISA_VOP2_v_fmac_f64_e32: /* gfx908's v_mul_legacy_f32 there */
		mark_unknown(r, dst, gfx90a_on(f->fam) ? 2 : 1);
		break;
	default:
		mark_unknown(r, dst, 1);
	}
}

/* VOP1 semantics (also VOP3-promoted); src: the register. */
static void vop1(const struct co_flow *f, uint16_t *r, unsigned op,
		 unsigned vdst, int src)
{
	int dst = vgpr(vdst);

	if (op == ISA_VOP1_v_mov_b32_e32)
		set(r, dst, get(r, src));
	else if (op == ISA_VOP1_v_readfirstlane_b32) /* to an SGPR */
		set(r, (int)(vdst & (NSGPR - 1)), get(r, src));
	else if (op == ISA_VOP1_v_mov_b64_e32 && (f->fam & ISA_GFX940)) {
		set(r, dst, get(r, src));
		set(r, dst + 1, src >= 0 ? get(r, src + 1) : T_UNK);
	} else
		mark_unknown(r, dst, wide(ISA_VOP1, op) ? 2 : 1);
}

/* VOP1, VOP2 and VOPC in their 32-bit forms (SDWA and DPP included). */
static void valu32(const struct co_flow *f, uint16_t *r,
		   const struct isa_insn *in)
{
	if (in->fmt == ISA_VOPC) {
		forget_sgprs(r, in->sdst, 2);
		return;
	}
	if (in->fmt == ISA_VOP1) {
		vop1(f, r, in->op, in->dst, in->ext ? -1 : vsrc(in->src[0]));
		return;
	}
	if (in->ext) {
		mark_unknown(r, vgpr(in->dst), 1);
		return;
	}
	vop2(f, r, in->op, vgpr(in->dst), get(r, vsrc(in->src[0])),
	     get(r, vsrc(in->src[1])));
	if (in->op >= ISA_VOP2_v_add_co_u32_e32 &&
	    in->op <= ISA_VOP2_v_subbrev_co_u32_e32)
		mark_unknown(r, ISA_SRC_VCC_LO, 2); /* the carry */
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

/* VOP3P: packed pairs, and v_pk_mov_b32 moving a pointer's halves. */
static void vop3p(const struct co_flow *f, uint16_t *r,
		  const struct isa_insn *in)
{
	int dst = vgpr(in->dst), s0 = vsrc(in->src[0]), s1 = vsrc(in->src[1]);

	if (in->op == ISA_VOP3P_v_pk_mov_b32 && gfx90a_on(f->fam)) {
		/* Each half from either half of its source, as op_sel says. */
		set(r, dst, s0 >= 0 ? get(r, s0 + (in->opsel & 1)) : 0);
		set(r, dst + 1, s1 >= 0 ? get(r, s1 + (in->opsel >> 1 & 1)) : 0);
	} else
		mark_unknown(r, dst, 2);
}

static void vop3(const struct co_flow *f, uint16_t *r, const struct isa_insn *in)
{
	unsigned op = in->op;
	int dst = vgpr(in->dst), s0 = vsrc(in->src[0]);
	int s1 = vsrc(in->src[1]), s2 = vsrc(in->src[2]);

	if (isa_vop3b(op))
		forget_sgprs(r, in->sdst, 2);
	if (op < ISA_VOP3_FROM_VOP2(0))
		forget_sgprs(r, in->sdst, 2); /* VOPC: an SGPR pair */
	else if (op < ISA_VOP3_FROM_VOP1(0))
		vop2(f, r, op - ISA_VOP3_FROM_VOP2(0), dst, get(r, s0), get(r, s1));
	else if (op < ISA_VOP3_v_mad_legacy_f32) /* below the VOP3-only forms */
		vop1(f, r, op - ISA_VOP3_FROM_VOP1(0), in->dst, s0);
	else if (op == ISA_VOP3_v_mad_u64_u32 || op == ISA_VOP3_v_mad_i64_i32)
		set_pair(r, dst, /* s0*s1 + s2 */
			 is_ptr(get(r, s0)) || is_ptr(get(r, s1))
			     ? -1
			     : pair_arg(r, s2));
	else if (op == ISA_VOP3_v_lshl_add_u64 && (f->fam & ISA_GFX940))
		set_pair(r, dst, pair_arg(r, s0) < 0 ? pair_arg(r, s2) : -1);
	else if (op == ISA_VOP3_v_readlane_b32)
		forget_sgprs(r, in->dst, 1);
	else
		mark_unknown(r, dst, wide(ISA_VOP3, op) ? 2 : 1);
}

/* Registers a vector memory load or returning atomic fills.  FLAT's loads
 * and atomics have MUBUF's numbers; the formats and their d16 forms are
 * MUBUF's alone. */
_Static_assert(ISA_FLAT_flat_load_dword == ISA_MUBUF_buffer_load_dword &&
	       ISA_FLAT_flat_atomic_swap == ISA_MUBUF_buffer_atomic_swap &&
	       ISA_FLAT_flat_atomic_swap_x2 == ISA_MUBUF_buffer_atomic_swap_x2,
	       "FLAT and MUBUF number their loads and atomics alike");

static int vmem_width(unsigned op, bool ret)
{
	if (op >= ISA_MUBUF_buffer_atomic_swap)
		return !ret ? 0
		       : op >= ISA_MUBUF_buffer_atomic_swap_x2 ||
				 (op >= ISA_MUBUF_buffer_atomic_add_f64 &&
				  op <= ISA_MUBUF_buffer_atomic_max_f64)
			   ? 2
			   : 1;
	/* x to xyzw, and dword to dwordx4: a dword more at each opcode */
	if (op <= ISA_MUBUF_buffer_load_format_xyzw)
		return (int)(op - ISA_MUBUF_buffer_load_format_x) + 1;
	if (op >= ISA_MUBUF_buffer_load_dword && op <= ISA_MUBUF_buffer_load_dwordx4)
		return (int)(op - ISA_MUBUF_buffer_load_dword) + 1;
	if ((op >= ISA_MUBUF_buffer_load_ubyte && op < ISA_MUBUF_buffer_load_dword) ||
	    (op >= ISA_MUBUF_buffer_load_ubyte_d16 &&
	     op <= ISA_MUBUF_buffer_load_short_d16_hi))
		return 1;
	return op >= ISA_MUBUF_buffer_load_format_d16_x &&
	       op <= ISA_MUBUF_buffer_store_format_d16_xyzw ? 2 : 0;
}

/* Registers an LDS read or returning atomic fills. */
static int ds_width(unsigned op)
{
	if ((op >= ISA_DS_ds_add_rtn_u64 && op <= ISA_DS_ds_condxchg32_rtn_b64) ||
	    op >= ISA_DS_ds_read_b96)
		return 4;
	if ((op >= ISA_DS_ds_add_rtn_u32 && op <= ISA_DS_ds_bpermute_b32) ||
	    (op >= ISA_DS_ds_read_u8_d16 && op <= ISA_DS_ds_read_u16_d16_hi) ||
	    (op >= ISA_DS_ds_read_addtid_b32 && op <= ISA_DS_ds_ordered_count))
		return 2;
	return 0;
}

static void mem(uint16_t *r, const struct isa_insn *in)
{
	switch (in->fmt) {
	case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH:
		if (!in->acc) /* acc: the data are AGPRs */
			mark_unknown(r, vgpr(in->dst), vmem_width(in->op, in->glc));
		break;
	case ISA_MUBUF:
		if (!in->lds)
			mark_unknown(r, vgpr(in->dst), vmem_width(in->op, in->glc));
		break;
	case ISA_DS:
		mark_unknown(r, vgpr(in->dst), ds_width(in->op));
		break;
	case ISA_MTBUF: case ISA_MIMG:
		mark_unknown(r, vgpr(in->dst), 4);
		break;
	case ISA_VINTRP:
		mark_unknown(r, vgpr(in->dst), 1);
		break;
	}
}

void co_flow_step(const struct co_flow *f, uint16_t *r,
		  const struct isa_insn *in)
{
	switch (in->fmt) {
	case ISA_SOP2: sop2(r, in); break;
	case ISA_SOPK: sopk(r, in); break;
	case ISA_SOP1: sop1(r, in); break;
	case ISA_SOPC: case ISA_SOPP: break; /* SCC or control only */
	case ISA_SMEM: smem(f, r, in); break;
	case ISA_VOP2: case ISA_VOP1: case ISA_VOPC: valu32(f, r, in); break;
	case ISA_VOP3: vop3(f, r, in); break;
	case ISA_VOP3P: vop3p(f, r, in); break;
	default: mem(r, in);
	}
}

/* The argument a FLAT/GLOBAL atomic's address derives from, or -1. */
int co_flow_atomic_arg(const uint16_t *r, const struct isa_insn *in)
{
	if (in->fmt == ISA_MUBUF)
		return -1; /* buffer atomics: the base is in a descriptor */
	if (in->fmt == ISA_GLOBAL && in->saddr != ISA_SADDR_OFF)
		return pair_arg(r, (int)in->saddr);
	return pair_arg(r, vgpr(in->addr));
}

void co_flow_entry(const struct co_flow *f, uint16_t *r)
{
	memset(r, 0, NREG * sizeof(*r));
	if (f->k->kernarg_sgpr >= 0) {
		set(r, f->k->kernarg_sgpr, TAG(T_KA_LO, 0));
		set(r, f->k->kernarg_sgpr + 1, TAG(T_KA_HI, 0));
	}
}
