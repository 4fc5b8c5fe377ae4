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

static enum isa_aclass aclass(enum vx_aop op)
{
	switch (op) {
	case VX_A_SWAP: case VX_A_CMPSWAP: case VX_A_ADD: case VX_A_SUB: case VX_A_RSUB:
		return ISA_A_INT_BASIC;
	case VX_A_ADD_F32: case VX_A_PK_ADD_F16: case VX_A_ADD_F64: case VX_A_MIN_F64:
	case VX_A_MAX_F64: case VX_A_PK_ADD_BF16: case VX_A_MIN_F32: case VX_A_MAX_F32:
		return ISA_A_FP;
	default:
		return ISA_A_INT_OTHER;
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

int vx_atomic_lands(struct vx_wave *w, const struct isa_insn *in, enum vx_aop op,
		    uint32_t kind, uint64_t va)
{
	enum isa_amem mem = !(kind & VX_FINE) ? ISA_M_COARSE :
			    (kind & VX_HOST) ? ISA_M_FINE_HOST : ISA_M_FINE_DEVICE;
	const struct vx_device *d = w->c->dev;
	/* Without AtomicOps on the PCIe path no atomic reaches host memory
	 * (AMD's tables without PCIe AtomicOps). */
	int cut = mem == ISA_M_FINE_HOST && !d->host_link_atomics && d->host_no_pcie_atomics;
	if (!cut && isa_atomic_lands(d->fam, aclass(op), mem, d->host_link_atomics))
		return 1;
	note_drop(w, in, kind, va);
	return 0;
}
