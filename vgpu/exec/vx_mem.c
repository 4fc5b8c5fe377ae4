/* SPDX-License-Identifier: MIT */
/*
 * Device memory for the waves: a small translation cache in front of the
 * device's page lookup, so that the common access costs a compare rather
 * than a locked search of the driver's objects; and the scalar loads.
 */
#include "vx_int.h"

static uint8_t *translate(struct vx_wave *w, uint64_t va, int write, uint32_t *kind, int fault)
{
	struct vx_ctx *c = w->c;
	uint64_t vpn = va / VX_PAGE;
	unsigned slot = (unsigned)(vpn % VX_TLB);
	if (c->tlb.vpn[slot] != vpn + 1) {
		struct vx_page p;
		if (c->dev->page(c->dev->ctx, vpn * VX_PAGE, write, &p)) {
			if (fault)
				vx_fault(w, va, write);
			return NULL;
		}
		if (!p.region && c->dev->block)
			p.region = c->dev->block(c->dev->ctx, va);
		vx_traffic_evict(c, slot);
		c->tlb.vpn[slot] = vpn + 1;
		c->tlb.page[slot] = p;
	}
	if (kind)
		*kind = c->tlb.page[slot].kind;
	return c->tlb.page[slot].host + (va % VX_PAGE);
}

uint8_t *vx_mem(struct vx_wave *w, uint64_t va, int write, uint32_t *kind)
{
	return translate(w, va, write, kind, 1);
}

uint8_t *vx_mem_try(struct vx_wave *w, uint64_t va, int write, uint32_t *kind)
{
	return translate(w, va, write, kind, 0);
}

uint64_t vx_region(const struct vx_wave *w, uint64_t va)
{
	const struct vx_tlb *t = &w->c->tlb;
	uint64_t vpn = va / VX_PAGE;
	unsigned slot = (unsigned)(vpn % VX_TLB);
	return t->vpn[slot] == vpn + 1 ? t->page[slot].region : 0;
}

/* An access that may cross pages, one page's run at a time. */
static int copy_runs(struct vx_wave *w, uint64_t va, void *buf, unsigned len, int write,
		     int counted)
{
	uint8_t *b = buf;
	while (len) {
		unsigned n = VX_PAGE - (unsigned)(va % VX_PAGE);
		if (n > len)
			n = len;
		uint8_t *p = vx_mem(w, va, write, NULL);
		if (!p)
			return -1;
		if (counted)
			vx_count(w, va, n, write);
		memcpy(write ? p : b, write ? b : p, n);
		b += n, va += n, len -= n;
	}
	return 0;
}

int vx_mem_copy(struct vx_wave *w, uint64_t va, void *buf, unsigned len, int write)
{
	return copy_runs(w, va, buf, len, write, 0);
}

int vx_data_copy(struct vx_wave *w, uint64_t va, void *buf, unsigned len, int write)
{
	return copy_runs(w, va, buf, len, write, 1);
}

static unsigned smem_dwords(unsigned op)
{
	switch (op & 7) {
	case 0: return 1;
	case 1: return 2;
	case 2: return 4;
	case 3: return 8;
	default: return 16;
	}
}

int vx_smem(struct vx_wave *w, const struct isa_insn *in)
{
	uint64_t base = vx_sgpr64(w, in->addr);
	int buffer = in->op >= ISA_SMEM_s_buffer_load_dword && in->op <= ISA_SMEM_s_buffer_load_dwordx16;
	if (buffer)
		base &= 0xffffffffffffull;
	switch (in->op) {
	case ISA_SMEM_s_dcache_wb: case ISA_SMEM_s_dcache_inv: case ISA_SMEM_s_dcache_wb_vol:
	case ISA_SMEM_s_dcache_inv_vol:
		return 0;
	case ISA_SMEM_s_memtime: case ISA_SMEM_s_memrealtime:
		/* a clock that only moves forward and repeats run to run */
		vx_set_sgpr64(w, in->dst, w->c->r->insns);
		return 0;
	}
	if (in->op > ISA_SMEM_s_buffer_load_dwordx16 ||
	    (in->op > ISA_SMEM_s_load_dwordx16 && !buffer))
		return vx_unknown(w, in);
	/* IMM: the 21-bit offset; else the SGPR the offset field names, or
	 * with SOE none; SOE adds the SGPR soffset names. */
	uint64_t off = in->imm_off ? (uint64_t)(int64_t)in->imm :
		       in->soe ? 0 : w->s[in->w1 & 127];
	if (in->soe)
		off += w->s[in->soffset & 127];
	uint64_t va = (base + off) & ~3ull;
	unsigned n = smem_dwords(in->op);
	uint32_t tmp[16];
	int (*copy)(struct vx_wave *, uint64_t, void *, unsigned, int) =
		vx_traffic_runtime(w->c, va) ? vx_mem_copy : vx_data_copy;
	if (copy(w, va, tmp, 4 * n, 0))
		return -1;
	vx_wback_overlay(w->c->wb, va, tmp, 4 * n);	/* the L2 behind the scalar cache */
	for (unsigned i = 0; i < n; i++)
		vx_set_sgpr(w, in->dst + i, tmp[i]);
	return 0;
}
