/* SPDX-License-Identifier: MIT */
/*
 * Device memory for the waves: a small translation cache in front of the
 * device's page lookup, so that the common access costs a compare rather
 * than a locked search of the driver's objects; and the scalar loads.
 */
#include "vx_int.h"

uint8_t *vx_mem(struct vx_wave *w, uint64_t va, unsigned len, int write,
		uint32_t *kind)
{
	struct vx_ctx *c = w->c;
	uint64_t vpn = va / VX_PAGE;
	unsigned slot = (unsigned)(vpn % VX_TLB);
	if (c->tlb.vpn[slot] != vpn + 1) {
		struct vx_page p;
		if (c->dev->page(c->dev->ctx, vpn * VX_PAGE, &p)) {
			if (c->r->status == VX_DONE) {
				c->r->status = VX_FAULT;
				c->r->fault_va = va;
				c->r->fault_write = write;
				c->r->pc = w->pc;
			}
			return NULL;
		}
		c->tlb.vpn[slot] = vpn + 1;
		c->tlb.page[slot] = p;
	}
	(void)len;
	if (kind)
		*kind = c->tlb.page[slot].kind;
	return c->tlb.page[slot].host + (va % VX_PAGE);
}

/* Accesses that cross a page go byte run by byte run. */
int vx_mem_read(struct vx_wave *w, uint64_t va, void *dst, unsigned len)
{
	uint8_t *d = dst;
	while (len) {
		unsigned n = VX_PAGE - (unsigned)(va % VX_PAGE);
		if (n > len)
			n = len;
		uint8_t *p = vx_mem(w, va, n, 0, NULL);
		if (!p)
			return -1;
		memcpy(d, p, n);
		d += n, va += n, len -= n;
	}
	return 0;
}

int vx_mem_write(struct vx_wave *w, uint64_t va, const void *src, unsigned len)
{
	const uint8_t *s = src;
	while (len) {
		unsigned n = VX_PAGE - (unsigned)(va % VX_PAGE);
		if (n > len)
			n = len;
		uint8_t *p = vx_mem(w, va, n, 1, NULL);
		if (!p)
			return -1;
		memcpy(p, s, n);
		s += n, va += n, len -= n;
	}
	return 0;
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
		vx_set_sgpr64(w, in->dst, w->c->r->insns);
		return 0;
	}
	if (in->op > ISA_SMEM_s_buffer_load_dwordx16 ||
	    (in->op > ISA_SMEM_s_load_dwordx16 && !buffer))
		return vx_unknown(w, in);
	uint64_t off = in->imm_off ? (uint64_t)(int64_t)in->imm : w->s[in->soffset & 127];
	if (in->soe)
		off += w->s[in->soffset & 127];
	if (!in->imm_off && !in->soe)
		off = w->s[in->w1 & 127];
	uint64_t va = (base + off) & ~3ull;
	unsigned n = smem_dwords(in->op);
	uint32_t tmp[16];
	if (vx_mem_read(w, va, tmp, 4 * n))
		return -1;
	for (unsigned i = 0; i < n; i++)
		vx_set_sgpr(w, in->dst + i, tmp[i]);
	return 0;
}
