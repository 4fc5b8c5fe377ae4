/* SPDX-License-Identifier: MIT */
/*
 * The local data share: each work-group's own memory, and the lane
 * permutes and swizzles that go through its crossbar without touching it.  LDS is never
 * fine- or coarse-grained: every atomic here lands.
 */
#include "vx_int.h"
#include "vx_vop.h"

/* A data or destination register: an AccVGPR when the acc bit is set
 * (gfx90a's loads and stores of AGPRs); addresses are always VGPRs. */
static uint32_t *reg(struct vx_wave *w, const struct isa_insn *in, unsigned n)
{
	return w->v[(n + (in->acc ? 256u : 0u)) & 511];
}

static int bounds(struct vx_wave *w, uint64_t a, unsigned n)
{
	return a + n <= w->g->lds_size ? 0 : vx_fault(w, w->c->dev->shared_base + a, 0);
}

/* bounds(), and the access shown to the race check when it is on. */
static int reach(struct vx_wave *w, uint64_t a, unsigned n, int cls)
{
	if (bounds(w, a, n))
		return -1;
	if (w->g->race)
		vx_race_lds(w, a, n, cls);
	return 0;
}

static enum vx_aop ds_aop(unsigned op)
{
	switch (op & 0x1f) {
	case 0x00: return VX_A_ADD;
	case 0x01: return VX_A_SUB;
	case 0x02: return VX_A_RSUB;
	case 0x03: return VX_A_INC;
	case 0x04: return VX_A_DEC;
	case 0x05: return VX_A_SMIN;
	case 0x06: return VX_A_SMAX;
	case 0x07: return VX_A_UMIN;
	case 0x08: return VX_A_UMAX;
	case 0x09: return VX_A_AND;
	case 0x0a: return VX_A_OR;
	case 0x0b: return VX_A_XOR;
	case 0x0d: return VX_A_SWAP;
	case 0x10: case 0x11: return VX_A_CMPSWAP;
	case 0x12: return VX_A_MIN_F32;
	case 0x13: return VX_A_MAX_F32;
	case 0x15: return VX_A_ADD_F32;
	}
	return VX_A_NONE;
}

/* ds_<op>_{u32,rtn_u32,u64,rtn_u64}: 0x00-0x15, 0x20-0x35, 0x40-0x53, 0x60-0x73. */
static int ds_atomic(struct vx_wave *w, const struct isa_insn *in, int l, uint64_t a)
{
	unsigned op = in->op;
	int rtn = (op & 0x20) != 0, wide = (op & 0x40) != 0;
	enum vx_aop k = ds_aop(op);
	if (op == ISA_DS_ds_wrxchg_rtn_b32 || op == ISA_DS_ds_wrxchg_rtn_b64)
		k = VX_A_SWAP;
	else if (op == ISA_DS_ds_add_f64 || op == ISA_DS_ds_add_rtn_f64)
		k = VX_A_ADD_F64, wide = 1, rtn = op == ISA_DS_ds_add_rtn_f64;
	else if (op == ISA_DS_ds_min_f64 || op == ISA_DS_ds_min_rtn_f64 ||
		 op == ISA_DS_ds_max_f64 || op == ISA_DS_ds_max_rtn_f64)
		k = (op & 1) ? VX_A_MAX_F64 : VX_A_MIN_F64;
	if (k == VX_A_NONE || (op & 0x80))
		return vx_unknown(w, in);
	unsigned n = wide ? 8 : 4;
	if (a % n)
		return vx_unknown(w, in);
	if (reach(w, a, n, VX_R_ATOMIC))
		return -1;
	uint64_t src = reg(w, in, in->data0)[l], cmp = 0, old;
	if (wide)
		src |= (uint64_t)reg(w, in, in->data0 + 1u)[l] << 32;
	if (k == VX_A_CMPSWAP) {
		/* LDS compare-store: data0 is the compare value, data1 the new one */
		cmp = src;
		src = reg(w, in, in->data1)[l];
		if (wide)
			src |= (uint64_t)reg(w, in, in->data1 + 1u)[l] << 32;
	}
	vx_atomic(w->g->lds + a, k, wide, src, cmp, &old);
	if (rtn) {
		reg(w, in, in->dst)[l] = (uint32_t)old;
		if (wide)
			reg(w, in, in->dst + 1u)[l] = (uint32_t)(old >> 32);
	}
	return 0;
}

static int rw(struct vx_wave *w, uint64_t a, unsigned n, uint32_t *regs, int write)
{
	if (reach(w, a, n, write ? VX_R_WRITE : VX_R_READ))
		return -1;
	if (write)
		memcpy(w->g->lds + a, regs, n);
	else
		memcpy(regs, w->g->lds + a, n);
	return 0;
}

static int lane(struct vx_wave *w, const struct isa_insn *in, int l)
{
	uint64_t a = w->v[in->addr][l];
	uint32_t d0[4], d1[4], out[4] = { 0 };
	for (int i = 0; i < 4; i++) {
		d0[i] = reg(w, in, in->data0 + (unsigned)i)[l];
		d1[i] = reg(w, in, in->data1 + (unsigned)i)[l];
	}
	unsigned off = (unsigned)in->imm, o0 = in->offset0, o1 = in->offset1;
	unsigned nd = 1;	/* the dwords a read returns */
	switch (in->op) {
	case ISA_DS_ds_write_b32: return rw(w, a + off, 4, d0, 1);
	case ISA_DS_ds_write_b64: return rw(w, a + off, 8, d0, 1);
	case ISA_DS_ds_write_b96: return rw(w, a + off, 12, d0, 1);
	case ISA_DS_ds_write_b128: return rw(w, a + off, 16, d0, 1);
	case ISA_DS_ds_write_b8: { uint8_t b = (uint8_t)d0[0]; if (reach(w, a + off, 1, VX_R_WRITE)) return -1; w->g->lds[a + off] = b; return 0; }
	case ISA_DS_ds_write_b16: { uint16_t h = (uint16_t)d0[0]; if (reach(w, a + off, 2, VX_R_WRITE)) return -1; memcpy(w->g->lds + a + off, &h, 2); return 0; }
	case ISA_DS_ds_write2_b32: return rw(w, a + o0 * 4, 4, d0, 1) || rw(w, a + o1 * 4, 4, d1, 1) ? -1 : 0;
	case ISA_DS_ds_write2st64_b32: return rw(w, a + o0 * 256, 4, d0, 1) || rw(w, a + o1 * 256, 4, d1, 1) ? -1 : 0;
	case ISA_DS_ds_write2_b64: return rw(w, a + o0 * 8, 8, d0, 1) || rw(w, a + o1 * 8, 8, d1, 1) ? -1 : 0;
	case ISA_DS_ds_write2st64_b64: return rw(w, a + o0 * 512, 8, d0, 1) || rw(w, a + o1 * 512, 8, d1, 1) ? -1 : 0;
	case ISA_DS_ds_read_b32: nd = 1; if (rw(w, a + off, 4, out, 0)) return -1; break;
	case ISA_DS_ds_read_b64: nd = 2; if (rw(w, a + off, 8, out, 0)) return -1; break;
	case ISA_DS_ds_read_b96: nd = 3; if (rw(w, a + off, 12, out, 0)) return -1; break;
	case ISA_DS_ds_read_b128: nd = 4; if (rw(w, a + off, 16, out, 0)) return -1; break;
	case ISA_DS_ds_read2_b32: nd = 2; if (rw(w, a + o0 * 4, 4, out, 0) || rw(w, a + o1 * 4, 4, out + 1, 0)) return -1; break;
	case ISA_DS_ds_read2st64_b32: nd = 2; if (rw(w, a + o0 * 256, 4, out, 0) || rw(w, a + o1 * 256, 4, out + 1, 0)) return -1; break;
	case ISA_DS_ds_read2_b64: nd = 4; if (rw(w, a + o0 * 8, 8, out, 0) || rw(w, a + o1 * 8, 8, out + 2, 0)) return -1; break;
	case ISA_DS_ds_read2st64_b64: nd = 4; if (rw(w, a + o0 * 512, 8, out, 0) || rw(w, a + o1 * 512, 8, out + 2, 0)) return -1; break;
	case ISA_DS_ds_read_u8: case ISA_DS_ds_read_i8:
		if (reach(w, a + off, 1, VX_R_READ)) return -1;
		out[0] = in->op == ISA_DS_ds_read_i8 ? (uint32_t)(int8_t)w->g->lds[a + off] : w->g->lds[a + off];
		break;
	case ISA_DS_ds_read_u16: case ISA_DS_ds_read_i16: {
		uint16_t h;
		if (reach(w, a + off, 2, VX_R_READ)) return -1;
		memcpy(&h, w->g->lds + a + off, 2);
		out[0] = in->op == ISA_DS_ds_read_i16 ? (uint32_t)(int16_t)h : h;
		break;
	}
	default:
		return ds_atomic(w, in, l, a + off);
	}
	for (unsigned i = 0; i < nd; i++)
		reg(w, in, in->dst + i)[l] = out[i];
	return 0;
}

/* ds_permute/bpermute: lanes exchange values by byte address. */
static int permute(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t exec = vx_exec(w);
	uint32_t res[VX_LANES];
	memcpy(res, reg(w, in, in->dst), sizeof(res));
	uint32_t src[VX_LANES], adr[VX_LANES];
	memcpy(src, reg(w, in, in->data0), sizeof(src));
	memcpy(adr, w->v[in->addr], sizeof(adr));
	if (in->op == ISA_DS_ds_bpermute_b32) {
		for (int l = 0; l < VX_LANES; l++)
			if ((exec >> l) & 1) {
				unsigned s = ((adr[l] + (unsigned)in->imm) >> 2) & 63;
				res[l] = (exec >> s) & 1 ? src[s] : 0;
			}
	} else {
		for (int l = 0; l < VX_LANES; l++)
			if ((exec >> l) & 1)
				res[l] = 0;
		for (int l = 0; l < VX_LANES; l++)
			if ((exec >> l) & 1)
				res[((adr[l] + (unsigned)in->imm) >> 2) & 63] = src[l];
	}
	memcpy(reg(w, in, in->dst), res, sizeof(res));
	return 0;
}

/* ds_swizzle: the offset field names each lane's source, within a quad
 * (its top bit set) or within 32 lanes by and, or and xor masks. */
static int swizzle(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t exec = vx_exec(w);
	unsigned off = (unsigned)in->imm;
	uint32_t src[VX_LANES];
	memcpy(src, w->v[in->addr], sizeof(src));	/* the value sits in ADDR */
	for (int l = 0; l < VX_LANES; l++) {
		if (!((exec >> l) & 1))
			continue;
		int s;
		if (off & 0x8000) {
			s = (l & ~3) + (int)((off >> (2 * (l & 3))) & 3);
		} else {
			unsigned and_m = off & 31, or_m = (off >> 5) & 31, xor_m = (off >> 10) & 31;
			s = (l & ~31) | (int)((((unsigned)l & and_m) | or_m) ^ xor_m);
		}
		reg(w, in, in->dst)[l] = (exec >> s) & 1 ? src[s] : 0;
	}
	return 0;
}

/* A plain read or write as a loop over the lanes: its form, packed in
 * the slot's fast byte as bytes per element / 4 (bits 0-2), two elements
 * (bit 3), a write (bit 4) and the offset unit of a two-element form
 * (bit 5: 64 elements), or 0 for the general path. */
static uint8_t fast_form(unsigned op)
{
	switch (op) {
	case ISA_DS_ds_write_b32: return 1 | 0x10;
	case ISA_DS_ds_write_b64: return 2 | 0x10;
	case ISA_DS_ds_write_b96: return 3 | 0x10;
	case ISA_DS_ds_write_b128: return 4 | 0x10;
	case ISA_DS_ds_write2_b32: return 1 | 0x18;
	case ISA_DS_ds_write2_b64: return 2 | 0x18;
	case ISA_DS_ds_write2st64_b32: return 1 | 0x38;
	case ISA_DS_ds_write2st64_b64: return 2 | 0x38;
	case ISA_DS_ds_read_b32: return 1;
	case ISA_DS_ds_read_b64: return 2;
	case ISA_DS_ds_read_b96: return 3;
	case ISA_DS_ds_read_b128: return 4;
	case ISA_DS_ds_read2_b32: return 1 | 0x08;
	case ISA_DS_ds_read2_b64: return 2 | 0x08;
	case ISA_DS_ds_read2st64_b32: return 1 | 0x28;
	case ISA_DS_ds_read2st64_b64: return 2 | 0x28;
	}
	return 0;
}

/* Each lane's nd dwords at each of its one or two offsets, read into
 * rows or written from them, lanes in order; inlined with constant
 * shapes, so each form gets a loop of its own.  A lane's address is read
 * before its destinations are written, so a read whose destination is
 * its address row still finds each lane's own. */
static inline __attribute__((always_inline)) void move(uint8_t *lds, const uint32_t *addr, uint64_t exec,
				   const uint64_t o[2], uint32_t *const *rows, unsigned nd,
				   unsigned two, int write)
{
	VX_EACH_LANE(exec, {
		uint8_t *base = lds + addr[l];
		_Pragma("GCC unroll 2")
		for (unsigned k = 0; k <= two; k++)
			_Pragma("GCC unroll 4")
			for (unsigned i = 0; i < nd; i++) {
				uint8_t *p = base + o[k] + i * 4;
				if (write)
					memcpy(p, &rows[k * nd + i][l], 4);
				else
					memcpy(&rows[k * nd + i][l], p, 4);
			}
	});
}

/* The same bytes, lanes and order as lane(); 1 when a lane's access
 * leaves the group's LDS, for lane() to fault at it after the lanes
 * before it have done theirs. */
static int fast(struct vx_wave *w, const struct isa_insn *in, uint8_t form)
{
	unsigned nd = form & 7, two = (form >> 3) & 1, write = (form >> 4) & 1;
	unsigned unit = nd * 4 * ((form & 0x20) ? 64 : 1);
	uint64_t o[2] = { two ? in->offset0 * unit : (unsigned)in->imm, in->offset1 * unit };
	uint64_t exec = vx_exec(w), size = w->g->lds_size, top = (two && o[1] > o[0] ? o[1] : o[0]) + nd * 4;
	const uint32_t *addr = w->v[in->addr];
	/* a lane beyond the last address that leaves room for its bytes:
	 * compares or'ed together, which vectorize where a maximum does not */
	uint32_t last = top > size ? 0 : (uint32_t)(size - top < UINT32_MAX ? size - top : UINT32_MAX);
	unsigned beyond = top > size;
	VX_EACH_LANE(exec, beyond |= addr[l] > last);
	if (exec && beyond)
		return 1;
	for (unsigned k = 0; w->g->race && k <= two; k++)
		vx_race_lds_wave(w, addr, exec, o[k], nd * 4, write ? VX_R_WRITE : VX_R_READ);
	uint8_t *lds = w->g->lds;
	uint32_t *rows[8];
	for (unsigned i = 0; i < nd * (two + 1); i++) {
		unsigned r = write ? (i < nd ? in->data0 + i : in->data1 + i - nd) : in->dst + i;
		rows[i] = reg(w, in, r);
	}
	switch (form & 0x1f) {
#define FORM(n, t, wr) case (n) | (t) << 3 | (wr) << 4: move(lds, addr, exec, o, rows, n, t, wr); break;
	FORM(1, 0, 0) FORM(2, 0, 0) FORM(3, 0, 0) FORM(4, 0, 0) FORM(1, 1, 0) FORM(2, 1, 0)
	FORM(1, 0, 1) FORM(2, 0, 1) FORM(3, 0, 1) FORM(4, 0, 1) FORM(1, 1, 1) FORM(2, 1, 1)
#undef FORM
	}
	return 0;
}

int vx_ds(struct vx_wave *w, struct vx_slot *s)
{
	const struct isa_insn *in = &s->in;
	if (!s->prep.ready) {
		s->prep.known = !in->gds && isa_name(w->c->dev->fam, ISA_DS, in->op);
		s->prep.fast = w->c->dev->general_only ? 0 : fast_form(in->op);
		s->prep.ready = 1;
	}
	if (!s->prep.known)
		return vx_unknown(w, in);
	if (s->prep.fast && !fast(w, in, s->prep.fast))
		return 0;
	if (in->op == ISA_DS_ds_permute_b32 || in->op == ISA_DS_ds_bpermute_b32)
		return permute(w, in);
	if (in->op == ISA_DS_ds_swizzle_b32)
		return swizzle(w, in);
	uint64_t exec = vx_exec(w);
	for (int l = 0; l < VX_LANES; l++)
		if ((exec >> l) & 1 && lane(w, in, l))
			return -1;
	return 0;
}
