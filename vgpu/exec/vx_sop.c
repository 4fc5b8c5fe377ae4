/* SPDX-License-Identifier: MIT */
/*
 * The scalar ALU: SOP2, SOPK, SOP1, SOPC and SOPP.  One value per wave;
 * SCC is set where the ISA says each instruction sets it.
 */
#include <stdio.h>

#include "vx_int.h"

#define S(in, i) vx_sread(w, (in)->src[i], (in)->lit)
#define S64(in, i) vx_sread64(w, (in)->src[i], (in)->lit, 0)

static uint32_t bfe32(uint32_t v, uint32_t ctl, int sign)
{
	uint32_t off = ctl & 31, width = (ctl >> 16) & 127;
	if (!width)
		return 0;
	if (width + off >= 32 || width >= 32)
		width = 32 - off;
	uint32_t r = (v >> off) & (width >= 32 ? ~0u : (1u << width) - 1);
	if (sign && width < 32 && (r >> (width - 1)) & 1)
		r |= ~0u << width;
	return r;
}

static uint64_t bfe64(uint64_t v, uint32_t ctl, int sign)
{
	uint32_t off = ctl & 63, width = (ctl >> 16) & 127;
	if (!width)
		return 0;
	if (width + off >= 64 || width >= 64)
		width = 64 - off;
	uint64_t r = (v >> off) & (width >= 64 ? ~0ull : (1ull << width) - 1);
	if (sign && width < 64 && (r >> (width - 1)) & 1)
		r |= ~0ull << width;
	return r;
}

/* A helper's answer for an opcode it does not have: the caller goes on. */
#define NOT_64 (-2)

static int sop2_64(struct vx_wave *w, const struct isa_insn *in)
{
	/* Operands are read by the case that needs them: a 32-bit opcode,
	 * the common case, returns before reading any. */
#define A S64(in, 0)
#define B S64(in, 1)
#define B32 S(in, 1)
	uint64_t d;
	switch (in->op) {
	case ISA_SOP2_s_cselect_b64: d = w->scc ? A : B; vx_set_sgpr64(w, in->dst, d); return 0;
	case ISA_SOP2_s_and_b64: d = A & B; break;
	case ISA_SOP2_s_or_b64: d = A | B; break;
	case ISA_SOP2_s_xor_b64: d = A ^ B; break;
	case ISA_SOP2_s_andn2_b64: d = A & ~B; break;
	case ISA_SOP2_s_orn2_b64: d = A | ~B; break;
	case ISA_SOP2_s_nand_b64: d = ~(A & B); break;
	case ISA_SOP2_s_nor_b64: d = ~(A | B); break;
	case ISA_SOP2_s_xnor_b64: d = ~(A ^ B); break;
	case ISA_SOP2_s_lshl_b64: d = A << (B32 & 63); break;
	case ISA_SOP2_s_lshr_b64: d = A >> (B32 & 63); break;
	case ISA_SOP2_s_ashr_i64: d = (uint64_t)((int64_t)A >> (B32 & 63)); break;
	case ISA_SOP2_s_bfm_b64:
		vx_set_sgpr64(w, in->dst, ((1ull << (S(in, 0) & 63)) - 1) << (B32 & 63));
		return 0;
	case ISA_SOP2_s_bfe_u64: d = bfe64(A, B32, 0); break;
	case ISA_SOP2_s_bfe_i64: d = bfe64(A, B32, 1); break;
	default: return NOT_64;
	}
	w->scc = d != 0;
	vx_set_sgpr64(w, in->dst, d);
	return 0;
#undef A
#undef B
#undef B32
}

static int sop2(struct vx_wave *w, const struct isa_insn *in)
{
	int rc = sop2_64(w, in);
	if (rc != NOT_64)
		return rc;
	uint32_t a = S(in, 0), b = S(in, 1), d;
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	uint64_t wide;
	switch (in->op) {
	case ISA_SOP2_s_add_u32: wide = (uint64_t)a + b; d = (uint32_t)wide; w->scc = wide >> 32; break;
	case ISA_SOP2_s_sub_u32: d = a - b; w->scc = b > a; break;
	case ISA_SOP2_s_add_i32: d = a + b; w->scc = ((~(a ^ b)) & (a ^ d)) >> 31; break;
	case ISA_SOP2_s_sub_i32: d = a - b; w->scc = ((a ^ b) & (a ^ d)) >> 31; break;
	case ISA_SOP2_s_addc_u32: wide = (uint64_t)a + b + (unsigned)w->scc; d = (uint32_t)wide; w->scc = wide >> 32; break;
	case ISA_SOP2_s_subb_u32: wide = (uint64_t)a - b - (unsigned)w->scc; d = (uint32_t)wide; w->scc = (uint64_t)b + (unsigned)w->scc > a; break;
	case ISA_SOP2_s_min_i32: d = sa < sb ? a : b; w->scc = sa < sb; break;
	case ISA_SOP2_s_min_u32: d = a < b ? a : b; w->scc = a < b; break;
	case ISA_SOP2_s_max_i32: d = sa > sb ? a : b; w->scc = sa > sb; break;
	case ISA_SOP2_s_max_u32: d = a > b ? a : b; w->scc = a > b; break;
	case ISA_SOP2_s_cselect_b32: d = w->scc ? a : b; break;
	case ISA_SOP2_s_and_b32: d = a & b; w->scc = d != 0; break;
	case ISA_SOP2_s_or_b32: d = a | b; w->scc = d != 0; break;
	case ISA_SOP2_s_xor_b32: d = a ^ b; w->scc = d != 0; break;
	case ISA_SOP2_s_andn2_b32: d = a & ~b; w->scc = d != 0; break;
	case ISA_SOP2_s_orn2_b32: d = a | ~b; w->scc = d != 0; break;
	case ISA_SOP2_s_nand_b32: d = ~(a & b); w->scc = d != 0; break;
	case ISA_SOP2_s_nor_b32: d = ~(a | b); w->scc = d != 0; break;
	case ISA_SOP2_s_xnor_b32: d = ~(a ^ b); w->scc = d != 0; break;
	case ISA_SOP2_s_lshl_b32: d = a << (b & 31); w->scc = d != 0; break;
	case ISA_SOP2_s_lshr_b32: d = a >> (b & 31); w->scc = d != 0; break;
	case ISA_SOP2_s_ashr_i32: d = (uint32_t)(sa >> (b & 31)); w->scc = d != 0; break;
	case ISA_SOP2_s_bfm_b32: d = ((1u << (a & 31)) - 1) << (b & 31); break;
	case ISA_SOP2_s_mul_i32: d = a * b; break;
	case ISA_SOP2_s_bfe_u32: d = bfe32(a, b, 0); w->scc = d != 0; break;
	case ISA_SOP2_s_bfe_i32: d = bfe32(a, b, 1); w->scc = d != 0; break;
	case ISA_SOP2_s_absdiff_i32: d = sa > sb ? a - b : b - a; w->scc = d != 0; break;
	case ISA_SOP2_s_mul_hi_u32: d = (uint32_t)(((uint64_t)a * b) >> 32); break;
	case ISA_SOP2_s_mul_hi_i32: d = (uint32_t)(((int64_t)sa * sb) >> 32); break;
	case ISA_SOP2_s_lshl1_add_u32: wide = ((uint64_t)a << 1) + b; d = (uint32_t)wide; w->scc = wide >> 32; break;
	case ISA_SOP2_s_lshl2_add_u32: wide = ((uint64_t)a << 2) + b; d = (uint32_t)wide; w->scc = wide >> 32; break;
	case ISA_SOP2_s_lshl3_add_u32: wide = ((uint64_t)a << 3) + b; d = (uint32_t)wide; w->scc = wide >> 32; break;
	case ISA_SOP2_s_lshl4_add_u32: wide = ((uint64_t)a << 4) + b; d = (uint32_t)wide; w->scc = wide >> 32; break;
	case ISA_SOP2_s_pack_ll_b32_b16: d = (a & 0xffff) | b << 16; break;
	case ISA_SOP2_s_pack_lh_b32_b16: d = (a & 0xffff) | (b & 0xffff0000u); break;
	case ISA_SOP2_s_pack_hh_b32_b16: d = a >> 16 | (b & 0xffff0000u); break;
	default: return vx_unknown(w, in);
	}
	vx_set_sgpr(w, in->dst, d);
	return 0;
}

static int sopk(struct vx_wave *w, const struct isa_insn *in)
{
	uint32_t d = in->dst < 128 ? w->s[in->dst] : 0;
	int32_t k = in->imm;
	uint32_t uk = (uint16_t)k;
	switch (in->op) {
	case ISA_SOPK_s_movk_i32: vx_set_sgpr(w, in->dst, (uint32_t)k); return 0;
	case ISA_SOPK_s_cmovk_i32: if (w->scc) vx_set_sgpr(w, in->dst, (uint32_t)k); return 0;
	case ISA_SOPK_s_cmpk_eq_i32: w->scc = (int32_t)d == k; return 0;
	case ISA_SOPK_s_cmpk_lg_i32: w->scc = (int32_t)d != k; return 0;
	case ISA_SOPK_s_cmpk_gt_i32: w->scc = (int32_t)d > k; return 0;
	case ISA_SOPK_s_cmpk_ge_i32: w->scc = (int32_t)d >= k; return 0;
	case ISA_SOPK_s_cmpk_lt_i32: w->scc = (int32_t)d < k; return 0;
	case ISA_SOPK_s_cmpk_le_i32: w->scc = (int32_t)d <= k; return 0;
	case ISA_SOPK_s_cmpk_eq_u32: w->scc = d == uk; return 0;
	case ISA_SOPK_s_cmpk_lg_u32: w->scc = d != uk; return 0;
	case ISA_SOPK_s_cmpk_gt_u32: w->scc = d > uk; return 0;
	case ISA_SOPK_s_cmpk_ge_u32: w->scc = d >= uk; return 0;
	case ISA_SOPK_s_cmpk_lt_u32: w->scc = d < uk; return 0;
	case ISA_SOPK_s_cmpk_le_u32: w->scc = d <= uk; return 0;
	case ISA_SOPK_s_addk_i32: {
		uint32_t r = d + (uint32_t)k;
		w->scc = ((~(d ^ (uint32_t)k)) & (d ^ r)) >> 31;
		vx_set_sgpr(w, in->dst, r);
		return 0;
	}
	case ISA_SOPK_s_mulk_i32: vx_set_sgpr(w, in->dst, d * (uint32_t)k); return 0;
	case ISA_SOPK_s_getreg_b32: case ISA_SOPK_s_setreg_b32:
	case ISA_SOPK_s_setreg_imm32_b32: {
		unsigned id = uk & 63, off = (uk >> 6) & 31, size = ((uk >> 11) & 31) + 1;
		uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;
		if (in->op == ISA_SOPK_s_getreg_b32) {
			uint32_t v = 0;
			if (id == 1)
				v = w->mode;
			else if (id == 15) /* SH_MEM_BASES: the apertures' top halves */
				v = (uint32_t)(w->c->dev->private_base >> 48) |
				    (uint32_t)(w->c->dev->shared_base >> 48) << 16;
			vx_set_sgpr(w, in->dst, (v & mask) >> off);
			return 0;
		}
		uint32_t v = in->op == ISA_SOPK_s_setreg_imm32_b32 ? in->lit : d;
		if (id == 1)
			w->mode = (w->mode & ~mask) | ((v << off) & mask);
		return 0;
	}
	case ISA_SOPK_s_call_b64:
		vx_set_sgpr64(w, in->dst, w->pc + 4);
		w->pc += 4 + (int64_t)k * 4;
		return 1;
	}
	return vx_unknown(w, in);
}

static uint64_t saveexec(struct vx_wave *w, unsigned op, uint64_t s, uint64_t e)
{
	switch (op) {
	case ISA_SOP1_s_and_saveexec_b64: return s & e;
	case ISA_SOP1_s_or_saveexec_b64: return s | e;
	case ISA_SOP1_s_xor_saveexec_b64: return s ^ e;
	case ISA_SOP1_s_andn2_saveexec_b64: return s & ~e;
	case ISA_SOP1_s_orn2_saveexec_b64: return s | ~e;
	case ISA_SOP1_s_nand_saveexec_b64: return ~(s & e);
	case ISA_SOP1_s_nor_saveexec_b64: return ~(s | e);
	case ISA_SOP1_s_xnor_saveexec_b64: return ~(s ^ e);
	case ISA_SOP1_s_andn1_saveexec_b64: return ~s & e;
	case ISA_SOP1_s_orn1_saveexec_b64: return ~s | e;
	}
	(void)w;
	return e;
}

/* The bit counts and scans: a count sets SCC, a scan does not. */
static int sop1_count(struct vx_wave *w, const struct isa_insn *in)
{
	uint32_t a = S(in, 0);
	uint64_t a64 = S64(in, 0), r;
	switch (in->op) {
	case ISA_SOP1_s_bcnt1_i32_b32: r = (uint64_t)__builtin_popcount(a); vx_set_sgpr(w, in->dst, (uint32_t)r); w->scc = r != 0; return 0;
	case ISA_SOP1_s_bcnt1_i32_b64: r = (uint64_t)__builtin_popcountll(a64); vx_set_sgpr(w, in->dst, (uint32_t)r); w->scc = r != 0; return 0;
	case ISA_SOP1_s_bcnt0_i32_b32: r = (uint64_t)(32 - __builtin_popcount(a)); vx_set_sgpr(w, in->dst, (uint32_t)r); w->scc = r != 0; return 0;
	case ISA_SOP1_s_bcnt0_i32_b64: r = (uint64_t)(64 - __builtin_popcountll(a64)); vx_set_sgpr(w, in->dst, (uint32_t)r); w->scc = r != 0; return 0;
	case ISA_SOP1_s_ff1_i32_b32: vx_set_sgpr(w, in->dst, a ? (uint32_t)__builtin_ctz(a) : ~0u); return 0;
	case ISA_SOP1_s_ff1_i32_b64: vx_set_sgpr(w, in->dst, a64 ? (uint32_t)__builtin_ctzll(a64) : ~0u); return 0;
	case ISA_SOP1_s_ff0_i32_b32: vx_set_sgpr(w, in->dst, ~a ? (uint32_t)__builtin_ctz(~a) : ~0u); return 0;
	case ISA_SOP1_s_ff0_i32_b64: vx_set_sgpr(w, in->dst, ~a64 ? (uint32_t)__builtin_ctzll(~a64) : ~0u); return 0;
	case ISA_SOP1_s_flbit_i32_b32: vx_set_sgpr(w, in->dst, a ? (uint32_t)__builtin_clz(a) : ~0u); return 0;
	case ISA_SOP1_s_flbit_i32_b64: vx_set_sgpr(w, in->dst, a64 ? (uint32_t)__builtin_clzll(a64) : ~0u); return 0;
	case ISA_SOP1_s_flbit_i32: {
		/* the first bit from the top that differs from the sign */
		uint32_t v = (int32_t)a < 0 ? ~a : a;
		vx_set_sgpr(w, in->dst, v ? (uint32_t)__builtin_clz(v) : ~0u);
		return 0;
	}
	case ISA_SOP1_s_flbit_i32_i64: {
		uint64_t v = (int64_t)a64 < 0 ? ~a64 : a64;
		vx_set_sgpr(w, in->dst, v ? (uint32_t)__builtin_clzll(v) : ~0u);
		return 0;
	}
	}
	return NOT_64;
}

/* The quad masks: a quad of the result or a bit of it per quad of the
 * source, whether any of the source quad's four is set. */
static int sop1_quad(struct vx_wave *w, const struct isa_insn *in)
{
	uint32_t a = S(in, 0);
	uint64_t a64 = S64(in, 0), r;
	switch (in->op) {
	case ISA_SOP1_s_wqm_b64: {
		r = 0;
		for (int q = 0; q < 16; q++)
			if ((a64 >> (4 * q)) & 15)
				r |= 15ull << (4 * q);
		vx_set_sgpr64(w, in->dst, r);
		w->scc = r != 0;
		return 0;
	}
	case ISA_SOP1_s_quadmask_b32: case ISA_SOP1_s_quadmask_b64: {
		int wide = in->op == ISA_SOP1_s_quadmask_b64;
		uint64_t v = wide ? a64 : a;
		r = 0;
		for (int q = 0; q < (wide ? 16 : 8); q++)
			r |= (uint64_t)(((v >> (4 * q)) & 15) != 0) << q;
		if (wide)
			vx_set_sgpr64(w, in->dst, r);
		else
			vx_set_sgpr(w, in->dst, (uint32_t)r);
		w->scc = r != 0;
		return 0;
	}
	}
	return NOT_64;
}

/* EXEC's updates: the old EXEC saved, or the new one written too. */
static int sop1_exec(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t a64 = S64(in, 0), e = vx_exec(w), r;
	switch (in->op) {
	case ISA_SOP1_s_and_saveexec_b64: case ISA_SOP1_s_or_saveexec_b64:
	case ISA_SOP1_s_xor_saveexec_b64: case ISA_SOP1_s_andn2_saveexec_b64:
	case ISA_SOP1_s_orn2_saveexec_b64: case ISA_SOP1_s_nand_saveexec_b64:
	case ISA_SOP1_s_nor_saveexec_b64: case ISA_SOP1_s_xnor_saveexec_b64:
	case ISA_SOP1_s_andn1_saveexec_b64: case ISA_SOP1_s_orn1_saveexec_b64:
		r = saveexec(w, in->op, a64, e);
		vx_set_sgpr64(w, in->dst, e);
		vx_set_exec(w, r);
		w->scc = r != 0;
		return 0;
	case ISA_SOP1_s_andn1_wrexec_b64: r = ~a64 & e; vx_set_exec(w, r); vx_set_sgpr64(w, in->dst, r); w->scc = r != 0; return 0;
	case ISA_SOP1_s_andn2_wrexec_b64: r = a64 & ~e; vx_set_exec(w, r); vx_set_sgpr64(w, in->dst, r); w->scc = r != 0; return 0;
	}
	return NOT_64;
}

static int sop1(struct vx_wave *w, const struct isa_insn *in)
{
	uint32_t a = S(in, 0);
	uint64_t a64 = S64(in, 0);
	switch (in->op) {
	case ISA_SOP1_s_mov_b32: vx_set_sgpr(w, in->dst, a); return 0;
	case ISA_SOP1_s_mov_b64: vx_set_sgpr64(w, in->dst, a64); return 0;
	case ISA_SOP1_s_cmov_b32: if (w->scc) vx_set_sgpr(w, in->dst, a); return 0;
	case ISA_SOP1_s_cmov_b64: if (w->scc) vx_set_sgpr64(w, in->dst, a64); return 0;
	case ISA_SOP1_s_not_b32: vx_set_sgpr(w, in->dst, ~a); w->scc = ~a != 0; return 0;
	case ISA_SOP1_s_not_b64: vx_set_sgpr64(w, in->dst, ~a64); w->scc = ~a64 != 0; return 0;
	case ISA_SOP1_s_brev_b32: {
		uint32_t v = 0;
		for (int i = 0; i < 32; i++)
			v |= ((a >> i) & 1) << (31 - i);
		vx_set_sgpr(w, in->dst, v);
		return 0;
	}
	case ISA_SOP1_s_sext_i32_i8: vx_set_sgpr(w, in->dst, (uint32_t)(int8_t)a); return 0;
	case ISA_SOP1_s_sext_i32_i16: vx_set_sgpr(w, in->dst, (uint32_t)(int16_t)a); return 0;
	case ISA_SOP1_s_bitset0_b32: vx_set_sgpr(w, in->dst, w->s[in->dst & 127] & ~(1u << (a & 31))); return 0;
	case ISA_SOP1_s_bitset1_b32: vx_set_sgpr(w, in->dst, w->s[in->dst & 127] | 1u << (a & 31)); return 0;
	case ISA_SOP1_s_getpc_b64: vx_set_sgpr64(w, in->dst, w->pc + 4); return 0;
	case ISA_SOP1_s_setpc_b64: w->pc = a64; return 1;
	case ISA_SOP1_s_swappc_b64: vx_set_sgpr64(w, in->dst, w->pc + 4); w->pc = a64; return 1;
	case ISA_SOP1_s_abs_i32: {
		uint32_t v = (int32_t)a < 0 ? -a : a;
		vx_set_sgpr(w, in->dst, v);
		w->scc = v != 0;
		return 0;
	}
	case ISA_SOP1_s_movrels_b32: vx_set_sgpr(w, in->dst, w->s[(in->src[0] + w->s[ISA_SRC_M0]) & 127]); return 0;
	case ISA_SOP1_s_movreld_b32: vx_set_sgpr(w, (in->dst + w->s[ISA_SRC_M0]) & 127, a); return 0;
	}
	int rc = sop1_count(w, in);
	if (rc == NOT_64)
		rc = sop1_quad(w, in);
	if (rc == NOT_64)
		rc = sop1_exec(w, in);
	return rc == NOT_64 ? vx_unknown(w, in) : rc;
}

static int sopc(struct vx_wave *w, const struct isa_insn *in)
{
	uint32_t a = S(in, 0), b = S(in, 1);
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	switch (in->op) {
	case ISA_SOPC_s_cmp_eq_i32: case ISA_SOPC_s_cmp_eq_u32: w->scc = a == b; break;
	case ISA_SOPC_s_cmp_lg_i32: case ISA_SOPC_s_cmp_lg_u32: w->scc = a != b; break;
	case ISA_SOPC_s_cmp_gt_i32: w->scc = sa > sb; break;
	case ISA_SOPC_s_cmp_ge_i32: w->scc = sa >= sb; break;
	case ISA_SOPC_s_cmp_lt_i32: w->scc = sa < sb; break;
	case ISA_SOPC_s_cmp_le_i32: w->scc = sa <= sb; break;
	case ISA_SOPC_s_cmp_gt_u32: w->scc = a > b; break;
	case ISA_SOPC_s_cmp_ge_u32: w->scc = a >= b; break;
	case ISA_SOPC_s_cmp_lt_u32: w->scc = a < b; break;
	case ISA_SOPC_s_cmp_le_u32: w->scc = a <= b; break;
	case ISA_SOPC_s_bitcmp0_b32: w->scc = !((a >> (b & 31)) & 1); break;
	case ISA_SOPC_s_bitcmp1_b32: w->scc = (a >> (b & 31)) & 1; break;
	case ISA_SOPC_s_bitcmp0_b64: w->scc = !((S64(in, 0) >> (b & 63)) & 1); break;
	case ISA_SOPC_s_bitcmp1_b64: w->scc = (S64(in, 0) >> (b & 63)) & 1; break;
	case ISA_SOPC_s_cmp_eq_u64: w->scc = S64(in, 0) == S64(in, 1); break;
	case ISA_SOPC_s_cmp_lg_u64: w->scc = S64(in, 0) != S64(in, 1); break;
	default: return vx_unknown(w, in);
	}
	return 0;
}

static int branch(struct vx_wave *w, const struct isa_insn *in, int taken)
{
	if (!taken)
		return 0;
	w->pc += 4 + (int64_t)in->imm * 4;
	return 1;
}

/* Messages: only the interrupt reaches anyone (the device); the rest are
 * for graphics stages or the trap handler, which compute kernels lack. */
static int sendmsg(struct vx_wave *w, const struct isa_insn *in)
{
	enum { MSG_INTERRUPT = 1 };
	const struct vx_device *d = w->c->dev;
	if ((in->imm & 15) != MSG_INTERRUPT)
		return 0;
	if (d->interrupt && !d->interrupt(d->ctx, w->s[ISA_SRC_M0]))
		return 0;
	struct vx_result *r = w->c->r;
	if (r->status == VX_DONE) {
		vx_unknown(w, in);
		snprintf(r->what, sizeof(r->what), "s_sendmsg(MSG_INTERRUPT)");
	}
	return -1;
}

static int sopp(struct vx_wave *w, const struct isa_insn *in)
{
	switch (in->op) {
	case ISA_SOPP_s_nop: case ISA_SOPP_s_waitcnt: case ISA_SOPP_s_setprio:
	case ISA_SOPP_s_icache_inv: case ISA_SOPP_s_incperflevel:
	case ISA_SOPP_s_decperflevel: case ISA_SOPP_s_ttracedata:
	case ISA_SOPP_s_setkill: case ISA_SOPP_s_set_gpr_idx_off:
		return 0;
	case ISA_SOPP_s_sendmsg:
		return sendmsg(w, in);
	case ISA_SOPP_s_sleep:
		return 2;
	case ISA_SOPP_s_endpgm:
		w->ended = 1;
		return 2;
	case ISA_SOPP_s_barrier:
		w->at_barrier = 1;
		return 2;
	case ISA_SOPP_s_branch: return branch(w, in, 1);
	case ISA_SOPP_s_cbranch_scc0: return branch(w, in, !w->scc);
	case ISA_SOPP_s_cbranch_scc1: return branch(w, in, w->scc);
	case ISA_SOPP_s_cbranch_vccz: return branch(w, in, vx_vcc(w) == 0);
	case ISA_SOPP_s_cbranch_vccnz: return branch(w, in, vx_vcc(w) != 0);
	case ISA_SOPP_s_cbranch_execz: return branch(w, in, vx_exec(w) == 0);
	case ISA_SOPP_s_cbranch_execnz: return branch(w, in, vx_exec(w) != 0);
	}
	return vx_unknown(w, in);
}

int vx_sop(struct vx_wave *w, const struct isa_insn *in)
{
	switch (in->fmt) {
	case ISA_SOP2: return sop2(w, in);
	case ISA_SOPK: return sopk(w, in);
	case ISA_SOP1: return sop1(w, in);
	case ISA_SOPC: return sopc(w, in);
	default: return sopp(w, in);
	}
}
