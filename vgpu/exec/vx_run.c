/* SPDX-License-Identifier: MIT */
/*
 * A dispatch: its work-groups one after another, each group's waves taking
 * turns (a turn ends at a barrier, at the end, or after a quantum, so that
 * waves spinning on each other's writes still progress), every wave set
 * up from the kernel descriptor as the command processor would.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vx_int.h"

#define QUANTUM 4096
#define ICACHE 4096
/* What gfx9 hardware offers a work-group: beyond it no real dispatch
 * starts, and the frame's allocations stay bounded whatever a descriptor
 * or a packet says. */
#define MAX_ITEMS 1024
#define MAX_LDS (64u << 10)
#define MAX_PRIVATE (128u << 10)	/* per lane: TMPRING's wave size / 64 */

struct vx_icache {
	uint64_t pc[ICACHE];
	struct isa_insn in[ICACHE];
};

int vx_unknown(struct vx_wave *w, const struct isa_insn *in)
{
	struct vx_result *r = w->c->r;
	if (r->status != VX_DONE)
		return -1;
	r->status = VX_UNKNOWN;
	r->pc = w->pc;
	r->word = in->w0;
	const char *name = isa_name(w->c->dev->fam, in->fmt, in->op);
	if (name)
		snprintf(r->what, sizeof(r->what), "%s", name);
	else
		snprintf(r->what, sizeof(r->what), "%s opcode 0x%x", isa_fmt_name(in->fmt), in->op);
	return -1;
}

static const struct isa_insn *fetch(struct vx_wave *w)
{
	struct vx_icache *ic = w->c->ic;
	unsigned slot = (unsigned)((w->pc >> 2) % ICACHE);
	if (ic->pc[slot] == w->pc + 1)
		return &ic->in[slot];
	uint8_t bytes[8];
	struct vx_result *r = w->c->r;
	if (vx_mem_copy(w, w->pc, bytes, 8, 0) || isa_decode(bytes, 8, &ic->in[slot])) {
		if (r->status == VX_DONE || r->status == VX_FAULT) {
			r->status = VX_BAD_CODE;
			r->pc = w->pc;
		}
		return NULL;
	}
	ic->pc[slot] = w->pc + 1;
	return &ic->in[slot];
}

static int exec_one(struct vx_wave *w, const struct isa_insn *in)
{
	switch (in->fmt) {
	case ISA_SOP2: case ISA_SOPK: case ISA_SOP1: case ISA_SOPC: case ISA_SOPP:
		return vx_sop(w, in);
	case ISA_SMEM: return vx_smem(w, in);
	case ISA_VOP2: case ISA_VOP1: case ISA_VOPC: case ISA_VOP3:
		return vx_valu(w, in);
	case ISA_VOP3P: return vx_vop3p(w, in);
	case ISA_DS: return vx_ds(w, in);
	case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: case ISA_MUBUF:
		return vx_vmem(w, in);
	}
	return vx_unknown(w, in);
}

/* Run a wave until it ends, reaches a barrier or uses its quantum. */
static int turn(struct vx_wave *w)
{
	for (int i = 0; i < QUANTUM; i++) {
		const struct isa_insn *in = fetch(w);
		if (!in)
			return -1;
		int rc = exec_one(w, in);
		struct vx_result *r = w->c->r;
		r->insns++;
		if (rc < 0)
			return -1;
		if (w->c->l->max_insns && r->insns >= w->c->l->max_insns) {
			r->status = VX_LIMIT;
			r->pc = w->pc;
			return -1;
		}
		if (rc != 1)
			w->pc += in->len;
		if (rc == 2)
			return 0;
	}
	return 0;
}

static int run_group(struct vx_wave *waves, unsigned n)
{
	for (;;) {
		unsigned live = 0, waiting = 0;
		for (unsigned i = 0; i < n; i++) {
			struct vx_wave *w = &waves[i];
			if (w->ended)
				continue;
			if (!w->at_barrier && turn(w))
				return -1;
			live += !w->ended;
			waiting += !w->ended && w->at_barrier;
		}
		if (!live)
			return 0;
		if (waiting == live)
			for (unsigned i = 0; i < n; i++)
				waves[i].at_barrier = 0;
	}
}

/* User SGPRs in the order the descriptor enables them, then the
 * system SGPRs after USER_SGPR_COUNT. */
static void init_sgprs(struct vx_wave *w, const struct vx_ctx *c, const uint32_t gid[3])
{
	const struct isa_kd *k = &c->kd;
	const struct vx_launch *l = c->l;
	unsigned s = 0;
	if (k->sgpr_private_buffer) {
		uint64_t base = c->dev->private_base;
		w->s[s++] = (uint32_t)base;
		w->s[s++] = (uint32_t)(base >> 32) & 0xffff;
		w->s[s++] = 0xffffffffu;
		w->s[s++] = 1u << 23;	/* ADD_TID_ENABLE: private, per lane */
	}
	if (k->sgpr_dispatch_ptr)
		vx_set_sgpr64(w, s, l->packet_va), s += 2;
	if (k->sgpr_queue_ptr)
		vx_set_sgpr64(w, s, l->queue_va), s += 2;
	if (k->sgpr_kernarg_ptr)
		vx_set_sgpr64(w, s, l->kernarg_va), s += 2;
	if (k->sgpr_dispatch_id)
		vx_set_sgpr64(w, s, l->dispatch_id), s += 2;
	if (k->sgpr_flat_scratch_init)
		vx_set_sgpr64(w, s, 0), s += 2;
	if (k->sgpr_private_size)
		w->s[s++] = w->priv_size;
	s = k->user_sgprs;
	if (k->wg_id_x)
		w->s[s++] = gid[0];
	if (k->wg_id_y)
		w->s[s++] = gid[1];
	if (k->wg_id_z)
		w->s[s++] = gid[2];
	if (k->wg_info)
		w->s[s++] = 0;
	if (k->private_segment)
		w->s[s++] = 0;	/* the wave's private offset: storage is per lane */
}

static uint32_t edge(uint32_t grid, uint32_t wg, uint32_t id)
{
	uint32_t left = grid - id * wg;
	return left < wg ? left : wg;
}

static void init_wave(struct vx_wave *w, struct vx_ctx *c, struct vx_group *g,
		      unsigned index, const uint32_t size[3])
{
	const struct isa_kd *k = &c->kd;
	int packed = c->dev->fam != ISA_GFX908;
	memset(w->s, 0, sizeof(w->s));
	w->pc = c->code_va;
	w->scc = w->ended = w->at_barrier = 0;
	w->mode = (uint32_t)(k->float_round | k->float_denorm32 << 4 |
			     k->float_denorm16_64 << 6 | k->dx10_clamp << 8 |
			     k->ieee_mode << 9);
	w->g = g;
	w->c = c;
	init_sgprs(w, c, g->id);
	uint64_t exec = 0;
	uint32_t items = size[0] * size[1] * size[2];
	for (int l = 0; l < VX_LANES; l++) {
		uint32_t flat = index * VX_LANES + (uint32_t)l;
		if (flat >= items)
			continue;
		exec |= 1ull << l;
		uint32_t x = flat % size[0], y = flat / size[0] % size[1],
			 z = flat / (size[0] * size[1]);
		if (packed) {
			w->v[0][l] = x | y << 10 | z << 20;
		} else {
			w->v[0][l] = x;
			w->v[1][l] = y;
			w->v[2][l] = z;
		}
	}
	vx_set_exec(w, exec);
}

static int read_kd(struct vx_ctx *c)
{
	uint8_t kd[64];
	struct vx_wave probe = { .c = c };
	if (vx_mem_copy(&probe, c->l->kd_va, kd, sizeof(kd), 0) ||
	    isa_kd_parse(kd, c->dev->fam, &c->kd)) {
		c->r->status = VX_BAD_CODE;
		c->r->pc = c->l->kd_va;
		return -1;
	}
	c->code_va = c->l->kd_va + (uint64_t)c->kd.entry_offset;
	return 0;
}

struct frame {
	struct vx_wave *waves;
	uint32_t (*vgprs)[VX_LANES];
	uint8_t *lds, *priv;
	unsigned nwaves;
};

static int alloc_frame(struct frame *f, const struct vx_ctx *c, uint32_t lds, uint32_t priv)
{
	const struct vx_launch *l = c->l;
	uint32_t items = (uint32_t)l->wg[0] * l->wg[1] * l->wg[2];
	f->nwaves = (items + VX_LANES - 1) / VX_LANES;
	f->waves = calloc(f->nwaves, sizeof(*f->waves));
	f->vgprs = calloc((size_t)f->nwaves * VX_VGPRS, sizeof(*f->vgprs));
	f->lds = calloc(1, lds ? lds : 1);
	f->priv = priv ? calloc((size_t)f->nwaves * VX_LANES, priv) : NULL;
	return f->waves && f->vgprs && f->lds && (f->priv || !priv) ? 0 : -1;
}

static void free_frame(struct frame *f)
{
	free(f->waves);
	free(f->vgprs);
	free(f->lds);
	free(f->priv);
}

static int run_groups(struct vx_ctx *c, struct frame *f, struct vx_group *g, uint32_t priv)
{
	const struct vx_launch *l = c->l;
	uint32_t n[3];
	for (int i = 0; i < 3; i++)
		n[i] = (uint32_t)(((uint64_t)l->grid[i] + l->wg[i] - 1) / l->wg[i]);
	for (uint32_t z = 0; z < n[2]; z++)
		for (uint32_t y = 0; y < n[1]; y++)
			for (uint32_t x = 0; x < n[0]; x++) {
				g->id[0] = x, g->id[1] = y, g->id[2] = z;
				uint32_t size[3] = { edge(l->grid[0], l->wg[0], x),
						     edge(l->grid[1], l->wg[1], y),
						     edge(l->grid[2], l->wg[2], z) };
				memset(g->lds, 0, g->lds_size);
				unsigned used = (size[0] * size[1] * size[2] + VX_LANES - 1) / VX_LANES;
				for (unsigned i = 0; i < used; i++) {
					struct vx_wave *w = &f->waves[i];
					w->v = f->vgprs + (size_t)i * VX_VGPRS;
					memset(w->v, 0, sizeof(*w->v) * VX_VGPRS);
					w->priv_size = priv;
					w->priv = f->priv ? f->priv + (size_t)i * VX_LANES * priv : NULL;
					init_wave(w, c, g, i, size);
				}
				if (run_group(f->waves, used))
					return -1;
			}
	return 0;
}

enum vx_status vx_run(const struct vx_device *dev, const struct vx_launch *l,
		      struct vx_result *r)
{
	memset(r, 0, sizeof(*r));
	struct vx_ctx c = { .dev = dev, .l = l, .r = r };
	if (read_kd(&c))
		return r->status;
	for (int i = 0; i < 3; i++)
		if (!l->wg[i] || !l->grid[i])
			return r->status;	/* nothing to run: an empty grid */
	uint64_t lds = (uint64_t)c.kd.group_segment_fixed_size + l->group_segment_size;
	uint32_t priv = c.kd.private_segment_fixed_size > l->private_segment_size
			? c.kd.private_segment_fixed_size : l->private_segment_size;
	if ((uint64_t)l->wg[0] * l->wg[1] * l->wg[2] > MAX_ITEMS || lds > MAX_LDS ||
	    priv > MAX_PRIVATE) {
		r->status = VX_BAD_CODE;
		r->pc = l->kd_va;
		return r->status;
	}
	struct frame f;
	c.ic = calloc(1, sizeof(*c.ic));
	if (!c.ic || alloc_frame(&f, &c, (uint32_t)lds, priv)) {
		if (c.ic)
			free_frame(&f);
		free(c.ic);
		r->status = VX_NOMEM;
		return r->status;
	}
	struct vx_group g = { .lds = f.lds, .lds_size = (uint32_t)lds };
	run_groups(&c, &f, &g, priv);
	vx_traffic_flush(&c, r);
	free_frame(&f);
	free(c.ic);
	return r->status;
}
