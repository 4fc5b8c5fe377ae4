/* SPDX-License-Identifier: MIT */
/*
 * A work-group: its waves set up from the kernel descriptor as the
 * command processor would, then taking turns (a turn ends at a barrier,
 * at the end, or after a quantum, so that waves spinning on each other's
 * writes still progress).  Between turns a group whose result can no
 * longer count (an earlier group stopped the dispatch) is abandoned.
 */
#include <stdlib.h>

#include "vx_int.h"
#include "vx_vop.h"

#define QUANTUM 4096
#define ICACHE 4096

struct vx_icache {
	uint64_t pc[ICACHE];
	struct vx_slot slot[ICACHE];
};

struct vx_icache *vx_icache_new(void)
{
	return calloc(1, sizeof(struct vx_icache));
}

static int step_sop(struct vx_wave *w, struct vx_slot *s)
{
	return vx_sop(w, &s->in);
}

static int step_smem(struct vx_wave *w, struct vx_slot *s)
{
	return vx_smem(w, &s->in);
}

static int step_vmem(struct vx_wave *w, struct vx_slot *s)
{
	return vx_vmem(w, &s->in);
}

static int step_unknown(struct vx_wave *w, struct vx_slot *s)
{
	return vx_unknown(w, &s->in);
}

/* The family that runs a decoded slot, resolved once as the slot is
 * filled: the scalar and memory families only for forms they have (the
 * VALU, VOP3P and DS families check their own as they prepare). */
static vx_step_fn *step_of(const struct vx_wave *w, const struct isa_insn *in)
{
	vx_step_fn *named = NULL;
	switch (in->fmt) {
	case ISA_SOP2: case ISA_SOPK: case ISA_SOP1: case ISA_SOPC: case ISA_SOPP:
		named = step_sop;
		break;
	case ISA_SMEM:
		named = step_smem;
		break;
	case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: case ISA_MUBUF:
		named = step_vmem;
		break;
	case ISA_VOP2: case ISA_VOP1: case ISA_VOPC: case ISA_VOP3:
		return vx_valu;
	case ISA_VOP3P: return vx_vop3p;
	case ISA_DS: return vx_ds;
	}
	return named && isa_name(w->c->dev->fam, in->fmt, in->op) ? named : step_unknown;
}

static struct vx_slot *fetch(struct vx_wave *w)
{
	struct vx_icache *ic = w->c->ic;
	unsigned i = (unsigned)((w->pc >> 2) % ICACHE);
	struct vx_slot *slot = &ic->slot[i];
	if (ic->pc[i] == w->pc + 1)
		return slot;
	uint8_t bytes[8];
	struct vx_result *r = w->c->r;
	slot->prep.ready = 0;
	if (vx_mem_copy(w, w->pc, bytes, 8, 0) || isa_decode(bytes, 8, &slot->in)) {
		if (r->status == VX_DONE || r->status == VX_FAULT) {
			r->status = VX_BAD_CODE;
			r->pc = w->pc;
		}
		return NULL;
	}
	slot->run = step_of(w, &slot->in);
	ic->pc[i] = w->pc + 1;
	return slot;
}

/* Run a wave until it ends, reaches a barrier or uses its quantum. */
static int turn(struct vx_wave *w)
{
	for (int i = 0; i < QUANTUM; i++) {
		struct vx_slot *slot = fetch(w);
		if (!slot)
			return -1;
		int rc = slot->run(w, slot);
		struct vx_result *r = w->c->r;
		r->insns++;
		if (rc < 0)
			return -1;
		if (r->insns >= w->c->cap) {
			r->status = w->c->l->max_insns ? VX_LIMIT : VX_BUDGET;
			r->pc = w->pc;
			return -1;
		}
		if (rc != 1)
			w->pc += slot->in.len;
		if (rc == 2)
			return 0;
	}
	return 0;
}

static int run_group(struct vx_wave *waves, unsigned n)
{
	const struct vx_ctx *c = waves[0].c;
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
		if (c->stop_at && __atomic_load_n(c->stop_at, __ATOMIC_RELAXED) < c->group)
			return 1;
		if (waiting == live) {
			for (unsigned i = 0; i < n; i++)
				waves[i].at_barrier = 0;
			if (waves[0].g->race)
				vx_race_epoch(waves[0].g);
		}
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

/* The registers the descriptor asks for, arch and acc, start at zero: a
 * wave's first values do not depend on which group ran before it.  The
 * rest of the file is left alone, so that a group's start does not sweep
 * the whole file through the cache. */
static void clear_vgprs(struct vx_wave *w, const struct vx_ctx *c)
{
	unsigned granule = c->dev->fam == ISA_GFX908 ? 4 : 8;
	unsigned n = ((c->kd.rsrc1 & 0x3f) + 1) * granule;
	if (n > VX_VGPRS / 2)
		n = VX_VGPRS / 2;
	memset(w->v, 0, sizeof(*w->v) * n);
	memset(w->v + VX_VGPRS / 2, 0, sizeof(*w->v) * n);
}

int vx_frame_alloc(struct vx_frame *f, const struct vx_ctx *c, uint32_t lds, uint32_t priv)
{
	const struct vx_launch *l = c->l;
	uint32_t items = (uint32_t)l->wg[0] * l->wg[1] * l->wg[2];
	memset(f, 0, sizeof(*f));
	f->nwaves = (items + VX_LANES - 1) / VX_LANES;
	f->waves = calloc(f->nwaves, sizeof(*f->waves));
	f->vgprs = calloc((size_t)f->nwaves * VX_VGPRS, sizeof(*f->vgprs));
	f->lds = calloc(1, lds ? lds : 1);
	f->priv = priv ? calloc((size_t)f->nwaves * VX_LANES, priv) : NULL;
	f->g.lds = f->lds;
	f->g.lds_size = lds;
	f->priv_size = priv;
	if (c->dev->races && vx_race_alloc(f, lds))
		return -1;
	return f->waves && f->vgprs && f->lds && (f->priv || !priv) ? 0 : -1;
}

void vx_frame_free(struct vx_frame *f)
{
	free(f->waves);
	free(f->vgprs);
	free(f->lds);
	free(f->priv);
	vx_race_free(f);
}

int vx_group_run(struct vx_ctx *c, struct vx_frame *f, uint64_t index)
{
	const struct vx_launch *l = c->l;
	uint32_t n[3];
	for (int i = 0; i < 3; i++)
		n[i] = (uint32_t)(((uint64_t)l->grid[i] + l->wg[i] - 1) / l->wg[i]);
	struct vx_group *g = &f->g;
	g->id[0] = (uint32_t)(index % n[0]);
	g->id[1] = (uint32_t)(index / n[0] % n[1]);
	g->id[2] = (uint32_t)(index / n[0] / n[1]);
	uint32_t size[3];
	for (int i = 0; i < 3; i++)
		size[i] = edge(l->grid[i], l->wg[i], g->id[i]);
	memset(g->lds, 0, g->lds_size);
	unsigned used = (size[0] * size[1] * size[2] + VX_LANES - 1) / VX_LANES;
	c->group = index;
	if (g->race)
		vx_race_epoch(g);
	for (unsigned i = 0; i < used; i++) {
		struct vx_wave *w = &f->waves[i];
		w->id = i;
		w->v = f->vgprs + (size_t)i * VX_VGPRS;
		clear_vgprs(w, c);
		w->priv_size = f->priv_size;
		w->priv = f->priv ? f->priv + (size_t)i * VX_LANES * f->priv_size : NULL;
		init_wave(w, c, g, i, size);
	}
	return run_group(f->waves, used);
}
