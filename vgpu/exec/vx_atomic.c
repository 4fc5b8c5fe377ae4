/* SPDX-License-Identifier: MIT */
/*
 * Atomics: each lane's read-modify-write is one host atomic operation on
 * the bytes (the CPU may be touching the same memory), and before it the
 * product's table decides whether the memory it aims at lets it land.
 * What did not land is counted per instruction and region, for the trace.
 */
#include <math.h>

#include "isa_atomic.h"
#include "vx_int.h"

/* A denormal float becomes a zero of its sign. */
static uint32_t ftz(uint32_t f)
{
	return (f & 0x7f800000u) ? f : f & 0x80000000u;
}

static uint64_t apply(enum vx_aop op, int wide, uint64_t o, uint64_t s)
{
	int64_t so = wide ? (int64_t)o : (int32_t)o, ss = wide ? (int64_t)s : (int32_t)s;
	uint64_t mask = wide ? ~0ull : 0xffffffffull;
	switch (op) {
	case VX_A_SWAP: return s;
	case VX_A_ADD: return (o + s) & mask;
	case VX_A_SUB: return (o - s) & mask;
	case VX_A_RSUB: return (s - o) & mask;
	case VX_A_SMIN: return (uint64_t)(so < ss ? so : ss) & mask;
	case VX_A_SMAX: return (uint64_t)(so > ss ? so : ss) & mask;
	case VX_A_UMIN: return o < s ? o : s;
	case VX_A_UMAX: return o > s ? o : s;
	case VX_A_AND: return o & s;
	case VX_A_OR: return o | s;
	case VX_A_XOR: return o ^ s;
	case VX_A_INC: return o >= s ? 0 : o + 1;
	case VX_A_DEC: return (o == 0 || o > s) ? s : o - 1;
	case VX_A_ADD_F32: return vx_u32(vx_f32((uint32_t)o) + vx_f32((uint32_t)s));
	case VX_A_ADD_F32_FTZ:
		return ftz((uint32_t)vx_u32(vx_f32(ftz((uint32_t)o)) + vx_f32(ftz((uint32_t)s))));
	case VX_A_MIN_F32: return vx_u32(vx_minf(vx_f32((uint32_t)o), vx_f32((uint32_t)s)));
	case VX_A_MAX_F32: return vx_u32(vx_maxf(vx_f32((uint32_t)o), vx_f32((uint32_t)s)));
	case VX_A_ADD_F64: return vx_u64(vx_f64(o) + vx_f64(s));
	case VX_A_MIN_F64: return vx_u64(vx_min(vx_f64(o), vx_f64(s)));
	case VX_A_MAX_F64: return vx_u64(vx_max(vx_f64(o), vx_f64(s)));
	case VX_A_PK_ADD_F16: {
		uint32_t r = 0;
		for (int h = 0; h < 2; h++) {
			float a = vx_f16_to_f32((uint16_t)(o >> (16 * h)));
			float b = vx_f16_to_f32((uint16_t)(s >> (16 * h)));
			r |= (uint32_t)vx_f32_to_f16(a + b) << (16 * h);
		}
		return r;
	}
	case VX_A_PK_ADD_BF16: {
		uint32_t r = 0;
		for (int h = 0; h < 2; h++) {
			float a = vx_bf16_to_f32((uint16_t)(o >> (16 * h)));
			float b = vx_bf16_to_f32((uint16_t)(s >> (16 * h)));
			r |= (uint32_t)vx_f32_to_bf16(a + b) << (16 * h);
		}
		return r;
	}
	default: return o;
	}
}

void vx_atomic(void *p, enum vx_aop op, int wide, uint64_t src, uint64_t cmp,
	       uint64_t *old)
{
	if (wide) {
		uint64_t *q = p, o = __atomic_load_n(q, __ATOMIC_RELAXED), n;
		do {
			if (op == VX_A_CMPSWAP && o != cmp) {
				*old = o;
				return;
			}
			n = op == VX_A_CMPSWAP ? src : apply(op, 1, o, src);
		} while (!__atomic_compare_exchange_n(q, &o, n, 1, __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		*old = o;
		return;
	}
	uint32_t *q = p, o = __atomic_load_n(q, __ATOMIC_RELAXED), n;
	do {
		if (op == VX_A_CMPSWAP && o != (uint32_t)cmp) {
			*old = o;
			return;
		}
		n = op == VX_A_CMPSWAP ? (uint32_t)src : (uint32_t)apply(op, 0, o, src);
	} while (!__atomic_compare_exchange_n(q, &o, n, 1, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	*old = o;
}

/* The row of AMD's tables an instruction's operation is. */
static enum isa_atab_op table_op(enum vx_aop op, int wide)
{
	switch (op) {
	case VX_A_SWAP: return wide ? ISA_ATAB_EXCH_I64 : ISA_ATAB_EXCH_I32;
	case VX_A_CMPSWAP: return wide ? ISA_ATAB_CAS_I64 : ISA_ATAB_CAS_I32;
	case VX_A_ADD: return wide ? ISA_ATAB_ADD_I64 : ISA_ATAB_ADD_I32;
	/* The tables have no 64-bit sub, inc or dec: the 32-bit row's cell,
	 * as PCIe AtomicOps carry neither width of them. */
	case VX_A_SUB: case VX_A_RSUB: return ISA_ATAB_SUB_I32;
	case VX_A_INC: return ISA_ATAB_INC_I32;
	case VX_A_DEC: return ISA_ATAB_DEC_I32;
	case VX_A_SMIN: case VX_A_UMIN: return wide ? ISA_ATAB_MIN_I64 : ISA_ATAB_MIN_I32;
	case VX_A_SMAX: case VX_A_UMAX: return wide ? ISA_ATAB_MAX_I64 : ISA_ATAB_MAX_I32;
	case VX_A_AND: return wide ? ISA_ATAB_AND_I64 : ISA_ATAB_AND_I32;
	case VX_A_OR: return wide ? ISA_ATAB_OR_I64 : ISA_ATAB_OR_I32;
	case VX_A_XOR: return wide ? ISA_ATAB_XOR_I64 : ISA_ATAB_XOR_I32;
	case VX_A_ADD_F32: case VX_A_ADD_F32_FTZ: return ISA_ATAB_ADD_F32;
	case VX_A_MIN_F32: return ISA_ATAB_MIN_F32;
	case VX_A_MAX_F32: return ISA_ATAB_MAX_F32;
	case VX_A_ADD_F64: return ISA_ATAB_ADD_F64;
	case VX_A_MIN_F64: return ISA_ATAB_MIN_F64;
	case VX_A_MAX_F64: return ISA_ATAB_MAX_F64;
	case VX_A_PK_ADD_F16: return ISA_ATAB_ADD_PK_F16;
	default: return ISA_ATAB_ADD_PK_BF16;
	}
}

void vx_drop_add(struct vx_result *r, const struct vx_drop *d)
{
	for (unsigned i = 0; i < r->ndrops; i++) {
		struct vx_drop *m = &r->drops[i];
		if (m->pc == d->pc && m->kind == d->kind && m->region == d->region) {
			m->count += d->count;
			m->lo = d->lo < m->lo ? d->lo : m->lo;
			m->hi = d->hi > m->hi ? d->hi : m->hi;
			return;
		}
	}
	if (r->ndrops == VX_DROPS)
		r->drops_lost += d->count;
	else
		r->drops[r->ndrops++] = *d;
}

static void note_drop(struct vx_wave *w, const struct isa_insn *in, uint32_t kind, uint64_t va)
{
	vx_drop_add(w->c->r, &(struct vx_drop){ .pc = w->pc, .region = vx_region(w, va),
		.lo = va, .hi = va, .count = 1, .fmt = in->fmt, .op = in->op, .kind = kind });
}

int vx_atomic_lands(struct vx_wave *w, const struct isa_insn *in, enum vx_aop op, int wide,
		    uint32_t kind, uint64_t va)
{
	enum isa_amem mem = !(kind & VX_FINE) ? ISA_M_COARSE :
			    (kind & VX_HOST) ? ISA_M_FINE_HOST : ISA_M_FINE_DEVICE;
	const struct vx_device *d = w->c->dev;
	/* MI300's sc1 asks for system scope; the scope only weakens what
	 * lands, it never drops it. */
	enum isa_atab_scope scope = d->fam == ISA_GFX940 && in->scc ? ISA_ATAB_SCOPE_SYSTEM
								     : ISA_ATAB_SCOPE_DEVICE;
	if (isa_atab_lands(isa_atomic_cell(d->fam, &d->facts, table_op(op, wide), mem, scope,
					   NULL)))
		return 1;
	note_drop(w, in, kind, va);
	return 0;
}
