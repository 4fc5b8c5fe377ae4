/* SPDX-License-Identifier: MIT */
/*
 * The VALU's common forms without modifiers (no SDWA, DPP, abs, neg,
 * omod, clamp or op_sel), as one loop per operation over the wave's
 * lanes: compiled code spends most of its vector instructions on these
 * integer and address forms and the f32 multiply-adds, and the general
 * frame (vx_valu.c) widens every operand and dispatches every lane.
 * Each form computes exactly what the general frame computes for it;
 * the exec tests run both (a form with a modifier takes the general one).
 */
#include "vx_fast.h"

enum {
	F_NONE,
	/* two sources, one result */
	F_ADD, F_SUB, F_SUBREV, F_AND, F_OR, F_XOR, F_LSHL, F_LSHR, F_ASHR,
	F_MUL_LO, F_MUL_HI_U, F_MUL_U24, F_MIN_U, F_MAX_U, F_MIN_I, F_MAX_I,
	/* one source; the conversions' results do not depend on MODE's
	 * denormal fields (an integer, or a float of one) */
	F_MOV, F_NOT, F_CVT_F32_I32, F_CVT_F32_U32, F_CVT_F32_UB0, F_CVT_F32_UB1,
	F_CVT_F32_UB2, F_CVT_F32_UB3, F_CVT_I32_F32, F_CVT_U32_F32,
	/* three sources */
	F_LSHL_ADD, F_ADD3, F_LSHL_OR, F_AND_OR, F_OR3, F_MAD_U24, F_ADD_LSHL,
	F_XAD, F_BFE_U, F_BFI,
	/* f32, where the wave keeps denormals */
	F_FADD, F_FSUB, F_FSUBREV, F_FMUL, F_FMA, F_MAD,
	/* the same, accumulating into the destination */
	F_FMAC, F_MAC,
	/* carries, the mask select, compares */
	F_ADD_CO, F_SUB_CO, F_SUBREV_CO, F_ADDC, F_SUBB, F_SUBBREV, F_CNDMASK,
	F_CMP,
	/* a 64-bit shift of a register pair or scalar pair */
	F_LSHL64, F_LSHR64, F_ASHR64,
};

static uint8_t form_of(unsigned op)
{
	switch (op) {
	case ISA_VOP3_v_add_u32_e64: return F_ADD;
	case ISA_VOP3_v_sub_u32_e64: return F_SUB;
	case ISA_VOP3_v_subrev_u32_e64: return F_SUBREV;
	case ISA_VOP3_v_and_b32_e64: return F_AND;
	case ISA_VOP3_v_or_b32_e64: return F_OR;
	case ISA_VOP3_v_xor_b32_e64: return F_XOR;
	case ISA_VOP3_v_lshlrev_b32_e64: return F_LSHL;
	case ISA_VOP3_v_lshrrev_b32_e64: return F_LSHR;
	case ISA_VOP3_v_ashrrev_i32_e64: return F_ASHR;
	case ISA_VOP3_v_mul_lo_u32: return F_MUL_LO;
	case ISA_VOP3_v_mul_hi_u32: return F_MUL_HI_U;
	case ISA_VOP3_v_mul_u32_u24_e64: return F_MUL_U24;
	case ISA_VOP3_v_min_u32_e64: return F_MIN_U;
	case ISA_VOP3_v_max_u32_e64: return F_MAX_U;
	case ISA_VOP3_v_min_i32_e64: return F_MIN_I;
	case ISA_VOP3_v_max_i32_e64: return F_MAX_I;
	case ISA_VOP3_v_mov_b32_e64: return F_MOV;
	case ISA_VOP3_v_not_b32_e64: return F_NOT;
	case ISA_VOP3_v_cvt_f32_i32_e64: return F_CVT_F32_I32;
	case ISA_VOP3_v_cvt_f32_u32_e64: return F_CVT_F32_U32;
	case ISA_VOP3_v_cvt_f32_ubyte0_e64: return F_CVT_F32_UB0;
	case ISA_VOP3_v_cvt_f32_ubyte1_e64: return F_CVT_F32_UB1;
	case ISA_VOP3_v_cvt_f32_ubyte2_e64: return F_CVT_F32_UB2;
	case ISA_VOP3_v_cvt_f32_ubyte3_e64: return F_CVT_F32_UB3;
	case ISA_VOP3_v_cvt_i32_f32_e64: return F_CVT_I32_F32;
	case ISA_VOP3_v_cvt_u32_f32_e64: return F_CVT_U32_F32;
	case ISA_VOP3_v_lshl_add_u32: return F_LSHL_ADD;
	case ISA_VOP3_v_add3_u32: return F_ADD3;
	case ISA_VOP3_v_lshl_or_b32: return F_LSHL_OR;
	case ISA_VOP3_v_and_or_b32: return F_AND_OR;
	case ISA_VOP3_v_or3_b32: return F_OR3;
	case ISA_VOP3_v_mad_u32_u24: return F_MAD_U24;
	case ISA_VOP3_v_add_lshl_u32: return F_ADD_LSHL;
	case ISA_VOP3_v_xad_u32: return F_XAD;
	case ISA_VOP3_v_bfe_u32: return F_BFE_U;
	case ISA_VOP3_v_bfi_b32: return F_BFI;
	case ISA_VOP3_v_add_f32_e64: return F_FADD;
	case ISA_VOP3_v_sub_f32_e64: return F_FSUB;
	case ISA_VOP3_v_subrev_f32_e64: return F_FSUBREV;
	case ISA_VOP3_v_mul_f32_e64: return F_FMUL;
	case ISA_VOP3_v_fma_f32: case ISA_VOP3_v_fmac_f32_e64: return F_FMA;
	case ISA_VOP3_v_mac_f32_e64: return F_MAD;
	case ISA_VOP3_v_add_co_u32_e64: return F_ADD_CO;
	case ISA_VOP3_v_sub_co_u32_e64: return F_SUB_CO;
	case ISA_VOP3_v_subrev_co_u32_e64: return F_SUBREV_CO;
	case ISA_VOP3_v_addc_co_u32_e64: return F_ADDC;
	case ISA_VOP3_v_subb_co_u32_e64: return F_SUBB;
	case ISA_VOP3_v_subbrev_co_u32_e64: return F_SUBBREV;
	case ISA_VOP3_v_cndmask_b32_e64: return F_CNDMASK;
	case ISA_VOP3_v_lshlrev_b64: return F_LSHL64;
	case ISA_VOP3_v_lshrrev_b64: return F_LSHR64;
	case ISA_VOP3_v_ashrrev_i64: return F_ASHR64;
	}
	/* the 32-bit integer compares, cmp and cmpx */
	return op >= 0xc0 && op < 0xe0 ? F_CMP : F_NONE;
}

uint8_t vx_fast_form(const struct isa_insn *in, unsigned op, const struct vx_shape *sh)
{
	if (in->ext || in->abs || in->neg || in->omod || in->clamp || in->opsel || sh->d16)
		return F_NONE;
	uint8_t f = form_of(op);
	if ((sh->src64 || sh->dst64) && f < F_LSHL64)
		return F_NONE;
	if (sh->mac)
		return f == F_FMA ? F_FMAC : f == F_MAD ? F_MAC : F_NONE;
	return f;
}

/* A source as a row of lanes: a VGPR's own row, or a scalar repeated. */
static const uint32_t *row(struct vx_wave *w, const struct isa_insn *in, int i)
{
	unsigned src = in->src[i];
	if (src >= ISA_SRC_VGPR)
		return w->v[(src - ISA_SRC_VGPR) & 511];
	uint32_t k = vx_sread(w, src, in->lit), *out = w->c->konst[i];
	for (int l = 0; l < VX_LANES; l++)
		out[l] = k;
	return out;
}

/* The host's invalid operations give a negative quiet NaN; the hardware's
 * default NaN is positive. */
static inline uint32_t fres(float f)
{
	uint32_t u = vx_u32(f);
	return u == 0xffc00000u ? 0x7fc00000u : u;
}

/* Every lane when all are active (a loop the compiler can widen), else
 * the active ones. */
#define LANES(...)							\
	do {								\
		if (exec == ~0ull) {					\
			for (int l = 0; l < VX_LANES; l++) { __VA_ARGS__; }	\
		} else {						\
			for (uint64_t m_ = exec; m_; m_ &= m_ - 1) {	\
				int l = __builtin_ctzll(m_);		\
				__VA_ARGS__;				\
			}						\
		}							\
	} while (0)

static void plain(struct vx_wave *w, const struct isa_insn *in, unsigned form,
		  const uint32_t *a, const uint32_t *b, const uint32_t *c, uint64_t exec)
{
	uint32_t *d = w->v[in->dst & 511];
	switch (form) {
	case F_ADD: LANES(d[l] = a[l] + b[l]); break;
	case F_SUB: LANES(d[l] = a[l] - b[l]); break;
	case F_SUBREV: LANES(d[l] = b[l] - a[l]); break;
	case F_AND: LANES(d[l] = a[l] & b[l]); break;
	case F_OR: LANES(d[l] = a[l] | b[l]); break;
	case F_XOR: LANES(d[l] = a[l] ^ b[l]); break;
	case F_LSHL: LANES(d[l] = b[l] << (a[l] & 31)); break;
	case F_LSHR: LANES(d[l] = b[l] >> (a[l] & 31)); break;
	case F_ASHR: LANES(d[l] = (uint32_t)((int32_t)b[l] >> (a[l] & 31))); break;
	case F_MUL_LO: LANES(d[l] = a[l] * b[l]); break;
	case F_MUL_HI_U: LANES(d[l] = (uint32_t)(((uint64_t)a[l] * b[l]) >> 32)); break;
	case F_MUL_U24: LANES(d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff)); break;
	case F_MIN_U: LANES(d[l] = a[l] < b[l] ? a[l] : b[l]); break;
	case F_MAX_U: LANES(d[l] = a[l] > b[l] ? a[l] : b[l]); break;
	case F_MIN_I: LANES(d[l] = (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l]); break;
	case F_MAX_I: LANES(d[l] = (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l]); break;
	case F_MOV: LANES(d[l] = a[l]); break;
	case F_NOT: LANES(d[l] = ~a[l]); break;
	case F_CVT_F32_I32: LANES(d[l] = vx_u32((float)(int32_t)a[l])); break;
	case F_CVT_F32_U32: LANES(d[l] = vx_u32((float)a[l])); break;
	case F_CVT_F32_UB0: LANES(d[l] = vx_u32((float)(a[l] & 0xff))); break;
	case F_CVT_F32_UB1: LANES(d[l] = vx_u32((float)((a[l] >> 8) & 0xff))); break;
	case F_CVT_F32_UB2: LANES(d[l] = vx_u32((float)((a[l] >> 16) & 0xff))); break;
	case F_CVT_F32_UB3: LANES(d[l] = vx_u32((float)(a[l] >> 24))); break;
	case F_CVT_I32_F32: LANES(d[l] = vx_cvt_i32(vx_f32(a[l]))); break;
	case F_CVT_U32_F32: LANES(d[l] = vx_cvt_u32(vx_f32(a[l]))); break;
	case F_LSHL_ADD: LANES(d[l] = (a[l] << (b[l] & 31)) + c[l]); break;
	case F_ADD3: LANES(d[l] = a[l] + b[l] + c[l]); break;
	case F_LSHL_OR: LANES(d[l] = (a[l] << (b[l] & 31)) | c[l]); break;
	case F_AND_OR: LANES(d[l] = (a[l] & b[l]) | c[l]); break;
	case F_OR3: LANES(d[l] = a[l] | b[l] | c[l]); break;
	case F_MAD_U24: LANES(d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]); break;
	case F_ADD_LSHL: LANES(d[l] = (a[l] + b[l]) << (c[l] & 31)); break;
	case F_XAD: LANES(d[l] = (a[l] ^ b[l]) + c[l]); break;
	case F_BFE_U:
		LANES(d[l] = (c[l] & 31) ? (a[l] >> (b[l] & 31)) & ((1u << (c[l] & 31)) - 1) : 0);
		break;
	case F_BFI: LANES(d[l] = (a[l] & b[l]) | (~a[l] & c[l])); break;
	case F_FADD: LANES(d[l] = fres(vx_f32(a[l]) + vx_f32(b[l]))); break;
	case F_FSUB: LANES(d[l] = fres(vx_f32(a[l]) - vx_f32(b[l]))); break;
	case F_FSUBREV: LANES(d[l] = fres(vx_f32(b[l]) - vx_f32(a[l]))); break;
	case F_FMUL: LANES(d[l] = fres(vx_f32(a[l]) * vx_f32(b[l]))); break;
	case F_FMA: case F_FMAC: LANES(d[l] = fres(__builtin_fmaf(vx_f32(a[l]), vx_f32(b[l]), vx_f32(c[l]))));
		break;
	case F_MAD: case F_MAC: {
		/* unfused: the product rounds first */
		LANES(float p = vx_f32(a[l]) * vx_f32(b[l]); d[l] = fres(p + vx_f32(c[l])));
		break;
	}
	}
}

/* A 64-bit source pair at lane l: a VGPR pair or a scalar pair. */
static void shift64(struct vx_wave *w, const struct isa_insn *in, unsigned form,
		    const uint32_t *a, uint64_t exec)
{
	unsigned src = in->src[1], v = in->dst & 511;
	uint32_t *dlo = w->v[v], *dhi = w->v[(v + 1) & 511];
	const uint32_t *blo, *bhi;
	uint64_t k = 0;
	if (src >= ISA_SRC_VGPR) {
		blo = w->v[(src - ISA_SRC_VGPR) & 511];
		bhi = w->v[(src - ISA_SRC_VGPR + 1) & 511];
	} else {
		k = vx_sread64(w, src, in->lit, 0);
		blo = bhi = NULL;
	}
	LANES({
		uint64_t b = blo ? blo[l] | (uint64_t)bhi[l] << 32 : k, r;
		unsigned s = a[l] & 63;
		r = form == F_LSHL64 ? b << s : form == F_LSHR64 ? b >> s
		    : (uint64_t)((int64_t)b >> s);
		dlo[l] = (uint32_t)r;
		dhi[l] = (uint32_t)(r >> 32);
	});
}

/* The mask a VOP2 form reads from VCC, a VOP3 form from its third source. */
static uint64_t mask_in(const struct vx_wave *w, const struct isa_insn *in)
{
	return in->fmt == ISA_VOP3 ? vx_sread64(w, in->src[2], in->lit, 0) : vx_vcc(w);
}

static void carry(struct vx_wave *w, const struct isa_insn *in, unsigned form,
		  const uint32_t *a, const uint32_t *b, uint64_t exec)
{
	uint32_t *d = w->v[in->dst & 511];
	uint64_t cin = form >= F_ADDC && form <= F_CNDMASK ? mask_in(w, in) : 0, out = 0;
	LANES({
		uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, bit;
		switch (form) {
		case F_ADD_CO: bit = (x + y) >> 32; d[l] = (uint32_t)(x + y); break;
		case F_SUB_CO: bit = y > x; d[l] = (uint32_t)(x - y); break;
		case F_SUBREV_CO: bit = x > y; d[l] = (uint32_t)(y - x); break;
		case F_ADDC: bit = (x + y + ci) >> 32; d[l] = (uint32_t)(x + y + ci); break;
		case F_SUBB: bit = y + ci > x; d[l] = (uint32_t)(x - y - ci); break;
		case F_SUBBREV: bit = x + ci > y; d[l] = (uint32_t)(y - x - ci); break;
		default: bit = 0; d[l] = ci ? (uint32_t)y : (uint32_t)x; break;
		}
		out |= bit << l;
	});
	if (form != F_CNDMASK)
		vx_set_sgpr64(w, in->fmt == ISA_VOP3 ? in->sdst : ISA_SRC_VCC_LO, out & exec);
}

static void compare(struct vx_wave *w, const struct isa_insn *in, unsigned op,
		    const uint32_t *a, const uint32_t *b, uint64_t exec)
{
	uint64_t out = 0;
	unsigned cc = op & 7;
	if (!(op & 8)) {
		LANES({
			int32_t x = (int32_t)a[l], y = (int32_t)b[l];
			int r = cc == 1 ? x < y : cc == 2 ? x == y : cc == 3 ? x <= y :
				cc == 4 ? x > y : cc == 5 ? x != y : cc == 6 ? x >= y : cc == 7;
			out |= (uint64_t)r << l;
		});
	} else {
		LANES({
			uint32_t x = a[l], y = b[l];
			int r = cc == 1 ? x < y : cc == 2 ? x == y : cc == 3 ? x <= y :
				cc == 4 ? x > y : cc == 5 ? x != y : cc == 6 ? x >= y : cc == 7;
			out |= (uint64_t)r << l;
		});
	}
	/* VOPC writes every lane's bit: inactive ones as 0. */
	vx_set_sgpr64(w, in->sdst, out & exec);
	if (op & 0x10)
		vx_set_exec(w, out & exec);
}

int vx_fast_run(struct vx_wave *w, const struct isa_insn *in, unsigned form)
{
	/* f32 forms only where the wave keeps f32 denormals in and out: the
	 * general frame flushes them otherwise. */
	if (form >= F_FADD && form <= F_MAC && ((w->mode >> 4) & 3) != 3)
		return 1;
	uint64_t exec = vx_exec(w);
	const uint32_t *a = row(w, in, 0);
	if (form >= F_LSHL64) {
		shift64(w, in, form, a, exec);
		return 0;
	}
	if (form >= F_MOV && form <= F_CVT_U32_F32) {
		plain(w, in, form, a, NULL, NULL, exec);
		return 0;
	}
	const uint32_t *b = row(w, in, 1);
	if (form == F_CMP) {
		/* a compare's VOP3 opcode is its VOPC one */
		compare(w, in, in->op, a, b, exec);
		return 0;
	}
	if (form >= F_ADD_CO) {
		carry(w, in, form, a, b, exec);
		return 0;
	}
	const uint32_t *c = NULL;
	if (form == F_FMAC || form == F_MAC)
		c = w->v[in->dst & 511];
	else if ((form >= F_LSHL_ADD && form <= F_BFI) || form == F_FMA || form == F_MAD)
		c = row(w, in, 2);
	plain(w, in, form, a, b, c, exec);
	return 0;
}
