/* SPDX-License-Identifier: MIT */
/*
 * The vector ALU's frame: VOP1, VOP2, VOPC and VOP3 all run as VOP3
 * opcodes.  Operands are gathered into one array per source (SDWA's
 * selects, DPP's lane moves and the abs/neg modifiers applied there), the
 * operation runs lane by lane on the active lanes (vx_vop.c), and the
 * result is written back through EXEC, SDWA's destination select and the
 * output modifiers.
 */
#include <math.h>

#include "vx_int.h"
#include "vx_fast.h"
#include "vx_ops.h"

static uint32_t sdwa_src(uint32_t v, unsigned sel, int sext)
{
	switch (sel) {
	case ISA_SEL_BYTE0: case ISA_SEL_BYTE1: case ISA_SEL_BYTE2: case ISA_SEL_BYTE3: {
		uint32_t b = (v >> (8 * sel)) & 0xff;
		return sext ? (uint32_t)(int8_t)b : b;
	}
	case ISA_SEL_WORD0: case ISA_SEL_WORD1: {
		uint32_t h = (v >> (16 * (sel - ISA_SEL_WORD0))) & 0xffff;
		return sext ? (uint32_t)(int16_t)h : h;
	}
	}
	return v;
}

/* DPP's source lane for each lane, or -1 for "bound_ctrl's zero". */
static int dpp_lane(unsigned ctrl, int lane)
{
	int row = lane & ~15, r = lane & 15;
	if (ctrl <= 0xff)	/* quad_perm */
		return (lane & ~3) + (int)((ctrl >> (2 * (lane & 3))) & 3);
	if (ctrl >= 0x101 && ctrl <= 0x10f) {	/* row_shl */
		int s = r + (int)(ctrl & 15);
		return s < 16 ? row + s : -1;
	}
	if (ctrl >= 0x111 && ctrl <= 0x11f) {	/* row_shr */
		int s = r - (int)(ctrl & 15);
		return s >= 0 ? row + s : -1;
	}
	if (ctrl >= 0x121 && ctrl <= 0x12f)	/* row_ror */
		return row + ((r + 16 - (int)(ctrl & 15)) & 15);
	switch (ctrl) {
	case 0x130: return lane < 63 ? lane + 1 : -1;	/* wave_shl */
	case 0x134: return (lane + 1) & 63;		/* wave_rol */
	case 0x138: return lane > 0 ? lane - 1 : -1;	/* wave_shr */
	case 0x13c: return (lane + 63) & 63;		/* wave_ror */
	case 0x140: return row + 15 - r;		/* row_mirror */
	case 0x141: return row + (r & 8) + 7 - (r & 7);	/* row_half_mirror */
	case 0x142: return row ? row - 1 : -1;		/* row_bcast15 */
	case 0x143: return lane >= 32 ? 31 : -1;	/* row_bcast31 */
	}
	return -1;
}

static uint64_t fmods(uint64_t v, int type, int abs, int neg)
{
	uint64_t sign = type == VX_T_F64 ? 1ull << 63 : type == VX_T_F16 ? 0x8000 : 0x80000000u;
	if (type != VX_T_F16 && type != VX_T_F32 && type != VX_T_F64)
		return v;
	if (abs)
		v &= ~sign;
	if (neg)
		v ^= sign;
	return v;
}

static uint32_t f16_const(unsigned src)
{
	static const uint16_t k[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
				       0xc000, 0x4400, 0xc400, 0x3118 };
	return k[src - ISA_SRC_HALF];
}

/* DPP's lanes that keep their old value: those its row and bank masks
 * leave out, and, without bound_ctrl, those whose source lane is out of
 * range or inactive.  The rest read their source lane, or zero. */
static uint64_t dpp_move(const struct vx_wave *w, const struct isa_insn *in, uint64_t *v)
{
	uint64_t tmp[VX_LANES], exec = vx_exec(w), skip = 0;
	memcpy(tmp, v, sizeof(tmp));
	for (int l = 0; l < VX_LANES; l++) {
		int s = dpp_lane(in->dpp_ctrl, l);
		int valid = s >= 0 && ((exec >> s) & 1);
		if (!((in->row_mask >> (l >> 4)) & 1) || !((in->bank_mask >> ((l >> 2) & 3)) & 1) ||
		    (!valid && !in->bound_ctrl))
			skip |= 1ull << l;
		v[l] = valid ? tmp[s] : 0;
	}
	return skip;
}

static void gather(struct vx_wave *w, const struct isa_insn *in, const struct vx_shape *sh,
		   int i, uint64_t *out, uint64_t *skip)
{
	unsigned src = in->src[i];
	int wide = (sh->src64 >> i) & 1;
	int type = sh->stype[i];
	if (src >= ISA_SRC_VGPR) {
		unsigned v = src - ISA_SRC_VGPR;
		for (int l = 0; l < VX_LANES; l++)
			out[l] = wide ? w->v[v & 511][l] | (uint64_t)w->v[(v + 1) & 511][l] << 32
				      : w->v[v & 511][l];
		if (in->ext == 2 && i == 0)
			*skip = dpp_move(w, in, out);
	} else {
		uint64_t k;
		if (type == VX_T_F16 && src >= ISA_SRC_HALF && src <= ISA_SRC_INV_2PI)
			k = f16_const(src);
		else if (wide)
			k = vx_sread64(w, src, in->lit, type == VX_T_F64);
		else
			k = vx_sread(w, src, in->lit);
		for (int l = 0; l < VX_LANES; l++)
			out[l] = k;
	}
	if (in->ext == 1 && i < 2)
		for (int l = 0; l < VX_LANES; l++)
			out[l] = sdwa_src((uint32_t)out[l], in->src_sel[i], in->src_sext[i]);
	/* VOP3's op_sel: a 16-bit source read from its register's high half */
	if (in->fmt == ISA_VOP3 && ((in->opsel >> i) & 1) && (type == VX_T_F16 || type == VX_T_I16))
		for (int l = 0; l < VX_LANES; l++)
			out[l] = (out[l] >> 16) & 0xffff;
	if (in->abs & (1 << i) || in->neg & (1 << i))
		for (int l = 0; l < VX_LANES; l++)
			out[l] = fmods(out[l], type, in->abs & (1 << i), in->neg & (1 << i));
}

/* MODE's denormal fields: per size, bit 0 allows denormal inputs and bit
 * 1 denormal results; one not allowed is a zero of its sign. */
static int denorm_allowed(const struct vx_wave *w, int type, int out)
{
	unsigned field = type == VX_T_F32 ? (w->mode >> 4) & 3 : (w->mode >> 6) & 3;
	return (field >> out) & 1;
}

static uint64_t flush(uint64_t v, int type)
{
	switch (type) {
	case VX_T_F32:
		return (v & 0x7f800000u) ? v : v & 0xffffffff80000000ull;
	case VX_T_F64:
		return (v & 0x7ff0000000000000ull) ? v : v & 0x8000000000000000ull;
	case VX_T_F16:
		return (v & 0x7c00) ? v : v & ~0x7fffull;
	}
	return v;
}

static void flush_inputs(const struct vx_wave *w, const struct vx_shape *sh, unsigned op,
			 uint64_t (*a)[VX_LANES])
{
	if (op <= 0x15)
		return;	/* v_cmp_class sees denormals as they are */
	for (int i = 0; i < sh->nsrc; i++) {
		int t = sh->stype[i];
		if ((t != VX_T_F32 && t != VX_T_F64 && t != VX_T_F16) || denorm_allowed(w, t, 0))
			continue;
		for (int l = 0; l < VX_LANES; l++)
			a[i][l] = flush(a[i][l], t);
	}
}

static uint64_t omod_clamp(uint64_t d, int type, const struct isa_insn *in)
{
	if (type == VX_T_F32) {
		float f = vx_f32((uint32_t)d);
		if (in->omod)
			f *= in->omod == 1 ? 2.0f : in->omod == 2 ? 4.0f : 0.5f;
		/* NaN and -0.0 clamp to +0.0: written out, so that no
		 * compiler's choice of min and max decides the sign. */
		if (in->clamp)
			f = !(f > 0.0f) ? 0.0f : f > 1.0f ? 1.0f : f;
		return vx_u32(f);
	}
	if (type == VX_T_F64) {
		double f = vx_f64(d);
		if (in->omod)
			f *= in->omod == 1 ? 2.0 : in->omod == 2 ? 4.0 : 0.5;
		if (in->clamp)
			f = !(f > 0.0) ? 0.0 : f > 1.0 ? 1.0 : f;
		return vx_u64(f);
	}
	if (type == VX_T_F16 && (in->clamp || in->omod)) {
		float f = vx_f16_to_f32((uint16_t)d);
		if (in->omod)
			f *= in->omod == 1 ? 2.0f : in->omod == 2 ? 4.0f : 0.5f;
		if (in->clamp)
			f = !(f > 0.0f) ? 0.0f : f > 1.0f ? 1.0f : f;
		return (d & ~0xffffull) | vx_f32_to_f16(f);
	}
	return d;
}

static uint32_t sdwa_dst(uint32_t old, uint32_t d, const struct isa_insn *in)
{
	unsigned sel = in->dst_sel;
	if (sel >= ISA_SEL_DWORD)	/* 7 is reserved: the whole dword, as LLVM prints it */
		return d;
	uint32_t mask, shift;
	if (sel <= ISA_SEL_BYTE3)
		shift = 8 * sel, mask = 0xffu << shift;
	else
		shift = 16 * (sel - ISA_SEL_WORD0), mask = 0xffffu << shift;
	uint32_t v = (d << shift) & mask;
	if (in->dst_unused == 2)		/* preserve */
		return (old & ~mask) | v;
	if (in->dst_unused == 1) {		/* sign-extend the field */
		uint32_t top = 1u << (shift + (sel <= ISA_SEL_BYTE3 ? 7 : 15));
		return v & top ? v | ~(mask | (top - 1)) : v;
	}
	return v;
}

/* VOP3's clamp on integer adds and subtracts saturates.  0, or -1 for an
 * integer operation whose clamp the engine does not have, which must not
 * go unnoticed. */
static int int_clamp(unsigned op, uint64_t a, uint64_t b, uint64_t *d)
{
	int64_t x = (int32_t)a, y = (int32_t)b, s;
	uint64_t ux = (uint32_t)a, uy = (uint32_t)b;
	switch (op) {
	case ISA_VOP3_v_add_u32_e64: case ISA_VOP3_v_add_co_u32_e64:
		*d = ux + uy > 0xffffffffu ? 0xffffffffu : ux + uy;
		return 0;
	case ISA_VOP3_v_sub_u32_e64: case ISA_VOP3_v_sub_co_u32_e64:
		*d = ux < uy ? 0 : ux - uy;
		return 0;
	case ISA_VOP3_v_subrev_u32_e64: case ISA_VOP3_v_subrev_co_u32_e64:
		*d = uy < ux ? 0 : uy - ux;
		return 0;
	case ISA_VOP3_v_add_i32: case ISA_VOP3_v_sub_i32:
		s = op == ISA_VOP3_v_add_i32 ? x + y : x - y;
		*d = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
		return 0;
	case ISA_VOP3_v_add_u16_e64:
		*d = (a & 0xffff) + (b & 0xffff) > 0xffff ? 0xffff : (a & 0xffff) + (b & 0xffff);
		return 0;
	case ISA_VOP3_v_sub_u16_e64:
		*d = (a & 0xffff) < (b & 0xffff) ? 0 : (a & 0xffff) - (b & 0xffff);
		return 0;
	}
	return -1;
}

static void prepare(const struct vx_wave *w, struct vx_slot *s)
{
	struct vx_prep *p = &s->prep;
	enum isa_family fam = w->c->dev->fam;
	p->op = (uint16_t)vx_vop_op(fam, &s->in);
	p->known = isa_name(fam, s->in.fmt, s->in.op) && !vx_vop_shape(p->op, &p->sh);
	p->fast = p->known && !w->c->dev->general_only ? vx_fast_form(&s->in, p->op, &p->sh) : 0;
	p->ready = 1;
}

/* Each source into a row of lanes, with its modifiers and the constant
 * madmk and madak place; the lanes DPP leaves alone go to *skip. */
static void gather_all(struct vx_wave *w, const struct isa_insn *in, const struct vx_shape *sh,
		       unsigned op, uint64_t (*a)[VX_LANES], uint64_t *skip)
{
	for (int i = 0; i < sh->nsrc; i++)
		gather(w, in, sh, i, a[i], skip);
	flush_inputs(w, sh, op, a);
	/* VOP2's madmk/fmamk take the constant as the second factor,
	 * madak/fmaak as the addend. */
	if (sh->kind == VX_K_MADMK)
		for (int l = 0; l < VX_LANES; l++)
			a[2][l] = a[1][l], a[1][l] = in->lit;
	else if (sh->kind == VX_K_MADAK)
		for (int l = 0; l < VX_LANES; l++)
			a[2][l] = in->lit;
}

/* The mask a VOP2 form reads from VCC, a VOP3 form from src2. */
static uint64_t mask_in(const struct vx_wave *w, const struct isa_insn *in,
			const struct vx_shape *sh)
{
	if (sh->kind == VX_K_CARRY_IN || sh->kind == VX_K_CNDMASK)
		return in->fmt == ISA_VOP3 ? vx_sread64(w, in->src[2], in->lit, 0) : vx_vcc(w);
	return sh->kind == VX_K_FMAS ? vx_vcc(w) : 0;
}

/* The operation on each lane of exec into d, with integer saturation
 * where VOP3's clamp asks for it: the lanes' bits out, or -1 when the
 * engine has no saturation for the operation. */
static int eval_lanes(struct vx_wave *w, const struct isa_insn *in, const struct vx_shape *sh,
		      unsigned op, uint64_t exec, uint64_t *bits)
{
	uint64_t (*a)[VX_LANES] = w->c->opnd, *d = w->c->res;
	uint64_t cin = mask_in(w, in, sh), out = 0;
	int sat = in->fmt == ISA_VOP3 && in->clamp && sh->kind != VX_K_CMP &&
		  sh->kind != VX_K_CMPX && sh->dtype != VX_T_F32 && sh->dtype != VX_T_F64 &&
		  sh->dtype != VX_T_F16;
	if (sat && int_clamp(op, 0, 0, &d[0]))
		return -1;
	for (int l = 0; l < VX_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		int bit = 0;
		d[l] = vx_vop_eval(w, op, l, a[0][l], a[1][l], a[2][l], (int)((cin >> l) & 1), &bit);
		if (sat)
			int_clamp(op, a[0][l], a[1][l], &d[l]);
		out |= (uint64_t)bit << l;
	}
	*bits = out;
	return 0;
}

/* The results of exec's lanes through the output modifiers, MODE's
 * flush and SDWA's or op_sel's destination into their register. */
static void write_back(struct vx_wave *w, const struct isa_insn *in, const struct vx_shape *sh,
		       uint64_t exec)
{
	const uint64_t *d = w->c->res;
	unsigned v = in->dst & 511;
	int keep = denorm_allowed(w, sh->dtype, 1);
	for (int l = 0; l < VX_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		uint64_t r = vx_default_nan(omod_clamp(d[l], sh->dtype, in), sh->dtype);
		if (!keep)
			r = flush(r, sh->dtype);
		if (sh->dst64) {
			w->v[v][l] = (uint32_t)r;
			w->v[(v + 1) & 511][l] = (uint32_t)(r >> 32);
		} else if (in->ext == 1) {
			w->v[v][l] = sdwa_dst(w->v[v][l], (uint32_t)r, in);
		} else if (sh->d16 && (in->opsel & 8)) {
			w->v[v][l] = (w->v[v][l] & 0xffff) | (uint32_t)r << 16;
		} else if (sh->d16) {
			/* gfx9's 16-bit results clear the upper half. */
			w->v[v][l] = (uint32_t)r & 0xffff;
		} else {
			w->v[v][l] = (uint32_t)r;
		}
	}
}

int vx_valu(struct vx_wave *w, struct vx_slot *s)
{
	const struct isa_insn *in = &s->in;
	if (!s->prep.ready)
		prepare(w, s);
	if (!s->prep.known)
		return vx_unknown(w, in);
	unsigned op = s->prep.op;
	if (s->prep.fast && !vx_fast_run(w, in, s->prep.fast))
		return 0;
	const struct vx_shape sh = s->prep.sh;
	if (sh.kind == VX_K_LANE)
		return vx_vop_lane_op(w, in, op);
	struct isa_insn mac;
	if (sh.mac) {
		/* mac and fmac accumulate into their destination */
		mac = *in;
		mac.src[2] = (uint16_t)(ISA_SRC_VGPR + in->dst);
		in = &mac;
	}
	uint64_t skip = 0, bits;
	gather_all(w, in, &sh, op, w->c->opnd, &skip);
	uint64_t exec = vx_exec(w) & ~skip;
	if (eval_lanes(w, in, &sh, op, exec, &bits))
		return vx_unknown(w, in);
	if (sh.kind == VX_K_CMP || sh.kind == VX_K_CMPX) {
		/* VOPC writes every lane's bit: inactive ones as 0. */
		vx_set_sgpr64(w, in->sdst, bits & exec);
		if (sh.kind == VX_K_CMPX)
			vx_set_exec(w, bits & exec);
		return 0;
	}
	if (sh.kind == VX_K_CARRY_OUT || sh.kind == VX_K_CARRY_IN || sh.kind == VX_K_DIV_SCALE)
		vx_set_sgpr64(w, in->fmt == ISA_VOP3 ? in->sdst : ISA_SRC_VCC_LO, bits & exec);
	write_back(w, in, &sh, exec);
	return 0;
}
