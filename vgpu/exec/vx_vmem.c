/* SPDX-License-Identifier: MIT */
/*
 * Vector memory: FLAT, GLOBAL, SCRATCH and MUBUF share one numbering of
 * loads, stores and atomics, so each lane's address is worked out by its
 * format and the access itself is one routine.  A flat address in the LDS
 * or private aperture reaches the work-group's LDS or the lane's private
 * memory; any other goes to device memory through the page cache.
 */
#include "isa_coh.h"
#include "vx_int.h"

enum { SPACE_GLOBAL, SPACE_LDS, SPACE_PRIVATE };

static uint32_t *vreg(struct vx_wave *w, unsigned n, int acc)
{
	return w->v[(n + (acc ? 256u : 0u)) & (VX_VGPRS - 1)];
}

/* Where a lane's bytes are: a host pointer, after bounds checks. */
static uint8_t *locate(struct vx_wave *w, int space, uint64_t a, unsigned len,
		       int lane, int write, uint32_t *kind)
{
	*kind = 0;
	if (space == SPACE_LDS) {
		if (a + len > w->g->lds_size) {
			vx_fault(w, w->c->dev->shared_base + a, write);
			return NULL;
		}
		return w->g->lds + a;
	}
	if (space == SPACE_PRIVATE) {
		if (a + len > w->priv_size) {
			vx_fault(w, w->c->dev->private_base + a, write);
			return NULL;
		}
		return w->priv + (size_t)lane * w->priv_size + a;
	}
	if ((a % VX_PAGE) + len > VX_PAGE)
		return NULL;	/* the caller splits page-crossing accesses */
	return vx_mem(w, a, write, kind);
}

/* An access shown to the race check, when it is on: private memory is
 * the lane's own. */
static inline void race(struct vx_wave *w, int space, uint64_t a, unsigned n, int cls)
{
	if (!w->g->race || space == SPACE_PRIVATE)
		return;
	if (space == SPACE_LDS)
		vx_race_lds(w, a, n, cls);
	else
		vx_race_global(w, a, n, cls);
}

static enum vx_aop aop(unsigned op)
{
	static const enum vx_aop map[0x13] = {
		VX_A_SWAP, VX_A_CMPSWAP, VX_A_ADD, VX_A_SUB, VX_A_SMIN, VX_A_UMIN,
		VX_A_SMAX, VX_A_UMAX, VX_A_AND, VX_A_OR, VX_A_XOR, VX_A_INC, VX_A_DEC,
		VX_A_ADD_F32, VX_A_PK_ADD_F16, VX_A_ADD_F64, VX_A_MIN_F64, VX_A_MAX_F64,
		VX_A_PK_ADD_BF16,
	};
	unsigned i = op & 0x1f;
	return op >= 0x40 && i < 0x13 ? map[i] : VX_A_NONE;
}

static int do_atomic(struct vx_wave *w, const struct isa_insn *in, int space, uint64_t a,
		     int lane)
{
	enum vx_aop op = aop(in->op);
	if (op == VX_A_ADD_F32 && w->c->dev->fam != ISA_GFX940)
		op = VX_A_ADD_F32_FTZ;
	int wide = in->op >= 0x60 || op == VX_A_ADD_F64 || op == VX_A_MIN_F64 || op == VX_A_MAX_F64;
	unsigned n = wide ? 8 : 4;
	uint32_t kind;
	/* an aligned atomic never crosses a page */
	if (op == VX_A_NONE || a % n)
		return vx_unknown(w, in);
	uint8_t *p = locate(w, space, a, n, lane, 1, &kind);
	if (!p)
		return -1;
	race(w, space, a, n, VX_R_ATOMIC);
	uint64_t src = vreg(w, in->data0, in->acc)[lane], cmp = 0, old = 0;
	if (wide)
		src |= (uint64_t)vreg(w, in->data0 + 1, in->acc)[lane] << 32;
	if (op == VX_A_CMPSWAP)
		cmp = wide ? vreg(w, in->data0 + 2, in->acc)[lane] |
			     (uint64_t)vreg(w, in->data0 + 3, in->acc)[lane] << 32
			   : vreg(w, in->data0 + 1, in->acc)[lane];
	if (space == SPACE_GLOBAL && !vx_atomic_lands(w, in, op, wide, kind, a)) {
		old = 0;	/* AMD's tables: a NOP returns 0 to the thread */
		vx_count(w, a, n, 0);
	} else {
		if (space == SPACE_GLOBAL && vx_held(kind)) {
			vx_hold_mark(w, a, n);
			vx_wback_range(w->c->wb, a, n);	/* done at memory here */
		}
		vx_atomic(p, op, wide, src, cmp, &old);
		if (space == SPACE_GLOBAL) {
			vx_count(w, a, n, 0);
			vx_count(w, a, n, 1);
			if (vx_held(kind))
				vx_hold_write(w, a, &src, n, 1);
		}
	}
	if (in->glc) {
		vreg(w, in->dst, in->acc)[lane] = (uint32_t)old;
		if (wide)
			vreg(w, in->dst + 1, in->acc)[lane] = (uint32_t)(old >> 32);
	}
	return 0;
}

/* The load reads past the L2 (isa_coh.c).  A store never passes it: the line the
 * L2 holds takes the store on its way to memory, as a cache keeps its own
 * agent's writes, so a later plain load reads what the GPU stored. */
static inline int bypass(const struct vx_wave *w, const struct isa_insn *in, int store)
{
	return !store && (isa_coh(w->c->dev->fam, ISA_COH_HOST, ISA_COH_LOAD, in->glc, in->scc) &
			  ISA_COH_PAST);
}

/* A store to held memory: kept among the L2's dirty lines, or, where
 * isa_coh sends it past the L2 (or there is no room), its line written
 * back and then memory written. */
static void held_store(struct vx_wave *w, const struct isa_insn *in, uint64_t a, uint8_t *p,
		       const void *buf, unsigned n)
{
	struct vx_wback *b = w->c->wb;
	if (!b || (isa_coh(w->c->dev->fam, ISA_COH_HOST, ISA_COH_STORE, in->glc, in->scc) &
		   ISA_COH_PAST) || vx_wback_store(b, a, buf, n, w->pc)) {
		vx_wback_range(b, a, n);
		memcpy(p, buf, n);
	}
}

static int access_bytes(struct vx_wave *w, const struct isa_insn *in, int space, uint64_t a,
			void *buf, unsigned n, int lane, int write)
{
	uint32_t kind;
	uint8_t *p = locate(w, space, a, n, lane, write, &kind);
	if (p || w->c->r->status == VX_DONE)
		race(w, space, a, n, write ? VX_R_WRITE : VX_R_READ);
	if (p) {
		int held = space == SPACE_GLOBAL && vx_held(kind) && !bypass(w, in, write);
		if (space == SPACE_GLOBAL)
			vx_count(w, a, n, write);
		if (write && held) {
			vx_hold_mark(w, a, n);
			held_store(w, in, a, p, buf, n);
			vx_hold_write(w, a, buf, n, 0);
		} else if (write) {
			memcpy(p, buf, n);
		} else if (held) {
			vx_hold_read(w, a, p, buf, n);
		} else {
			memcpy(buf, p, n);
		}
		if (!write && space == SPACE_GLOBAL && vx_held(kind))
			vx_wback_overlay(w->c->wb, a, buf, n);	/* its own stores */
		return 0;
	}
	if (space != SPACE_GLOBAL || w->c->r->status != VX_DONE)
		return -1;
	return vx_data_copy(w, a, buf, n, write);
}

static int lane_access(struct vx_wave *w, const struct isa_insn *in, int space, uint64_t a,
		       int lane)
{
	unsigned op = in->op;
	if (op >= 0x40)
		return do_atomic(w, in, space, a, lane);
	uint32_t buf[4] = { 0 };
	static const uint8_t sizes[0x16] = { 1, 1, 2, 2, 4, 8, 12, 16, 1, 1, 2, 2, 4, 8, 12, 16,
					     1, 1, 1, 1, 2, 2 };
	if (op < 0x10 || op > 0x25)
		return vx_unknown(w, in);
	unsigned n = sizes[op - 0x10];
	int store = op >= 0x18 && op <= 0x1f;
	if (store) {
		for (unsigned i = 0; i < (n + 3) / 4; i++)
			buf[i] = vreg(w, in->data0 + i, in->acc)[lane];
		if (op == 0x19 || op == 0x1b)	/* the d16_hi stores take the upper half */
			buf[0] >>= 16;
		return access_bytes(w, in, space, a, buf, n, lane, 1);
	}
	if (access_bytes(w, in, space, a, buf, n, lane, 0))
		return -1;
	uint32_t *dst = vreg(w, in->dst, in->acc);
	uint32_t v = buf[0];
	switch (op) {
	case 0x10: dst[lane] = v & 0xff; return 0;
	case 0x11: dst[lane] = (uint32_t)(int8_t)v; return 0;
	case 0x12: dst[lane] = v & 0xffff; return 0;
	case 0x13: dst[lane] = (uint32_t)(int16_t)v; return 0;
	case 0x20: dst[lane] = (dst[lane] & 0xffff0000u) | (v & 0xff); return 0;
	case 0x21: dst[lane] = (dst[lane] & 0xffff) | (v & 0xff) << 16; return 0;
	case 0x22: dst[lane] = (dst[lane] & 0xffff0000u) | (uint16_t)(int8_t)v; return 0;
	case 0x23: dst[lane] = (dst[lane] & 0xffff) | (uint32_t)(uint16_t)(int8_t)v << 16; return 0;
	case 0x24: dst[lane] = (dst[lane] & 0xffff0000u) | (v & 0xffff); return 0;
	case 0x25: dst[lane] = (dst[lane] & 0xffff) | v << 16; return 0;
	}
	for (unsigned i = 0; i < n / 4; i++)
		vreg(w, in->dst + i, in->acc)[lane] = buf[i];
	return 0;
}

/* A flat address's space, and its offset within it. */
static int flat_space(const struct vx_wave *w, uint64_t *a)
{
	const struct vx_device *d = w->c->dev;
	if (*a - d->shared_base < (1ull << 32)) {
		*a -= d->shared_base;
		return SPACE_LDS;
	}
	if (*a - d->private_base < (1ull << 32)) {
		*a -= d->private_base;
		return SPACE_PRIVATE;
	}
	return SPACE_GLOBAL;
}

/* The bytes an instruction's lanes moved in one page, counted once the
 * lanes leave the page: the lanes of a wave mostly share one. */
struct span {
	uint64_t page;		/* its number + 1; 0: none yet */
	uint8_t *host;		/* where its first byte is */
	uint32_t lo, hi;
	uint64_t bytes;
	int held;		/* its accesses meet the L2's lines */
};

static void span_count(struct vx_wave *w, struct span *s, int store)
{
	if (s->page)
		vx_count_span(w, s->page - 1, s->lo, s->hi, s->bytes, store);
	s->page = 0;
}

/* dwords() for a page the L2 holds lines of: a load sees the GPU's own
 * stores, whether it reads the lines or past them. */
static int held_dwords(struct vx_wave *w, const struct isa_insn *in, uint64_t a, uint8_t *p,
		       int lane, unsigned n, int store, unsigned base)
{
	uint32_t tmp[4];
	if (store) {
		for (unsigned i = 0; i < n; i++)
			tmp[i] = vreg(w, base + i, in->acc)[lane];
		vx_hold_mark(w, a, 4 * n);
		held_store(w, in, a, p, tmp, 4 * n);
		vx_hold_write(w, a, tmp, 4 * n, 0);
		return 0;
	}
	if (bypass(w, in, 0))
		memcpy(tmp, p, 4 * n);
	else
		vx_hold_read(w, a, p, tmp, 4 * n);
	vx_wback_overlay(w->c->wb, a, tmp, 4 * n);
	for (unsigned i = 0; i < n; i++)
		vreg(w, base + i, in->acc)[lane] = tmp[i];
	return 0;
}

/* Whole dwords, loaded or stored: most of what kernels do.  A lane whose
 * bytes lie in one page of device memory takes one translation and a
 * copy per dword; any other goes the general way.  0, or -1 to stop. */
static int dwords(struct vx_wave *w, const struct isa_insn *in, int space, uint64_t a,
		  int lane, unsigned n, int store, struct span *s, int raced)
{
	if (space != SPACE_GLOBAL || (a % VX_PAGE) + 4 * n > VX_PAGE) {
		span_count(w, s, store);
		return lane_access(w, in, space, a, lane);
	}
	uint32_t lo = (uint32_t)(a % VX_PAGE), hi = lo + 4 * n - 1;
	if (s->page != a / VX_PAGE + 1) {
		/* counted before the translation, which may evict the slot */
		span_count(w, s, store);
		uint32_t kind;
		uint8_t *p = vx_mem(w, a, store, &kind);
		if (!p)
			return -1;
		*s = (struct span){ .page = a / VX_PAGE + 1, .host = p - lo, .lo = lo, .hi = hi,
				    .held = vx_held(kind) };
	}
	uint8_t *p = s->host + lo;
	if (!raced)
		race(w, space, a, 4 * n, store ? VX_R_WRITE : VX_R_READ);
	s->lo = lo < s->lo ? lo : s->lo;
	s->hi = hi > s->hi ? hi : s->hi;
	s->bytes += 4 * n;
	unsigned base = store ? in->data0 : in->dst;
	if (s->held)
		return held_dwords(w, in, a, p, lane, n, store, base);
	for (unsigned i = 0; i < n; i++) {
		uint32_t *r = vreg(w, base + i, in->acc) + lane;
		if (store)
			memcpy(p + 4 * i, r, 4);
		else
			memcpy(r, p + 4 * i, 4);
	}
	return 0;
}

/* How many dwords a plain load (or store) moves; 0 for any other op. */
static unsigned dword_count(unsigned op, int *store)
{
	*store = op >= 0x1c && op <= 0x1f;
	if (op >= 0x14 && op <= 0x17)
		return op - 0x13;
	return *store ? op - 0x1b : 0;
}

/* Each active lane's address and space: 1 when every one is global. */
static int flat_lanes(struct vx_wave *w, const struct isa_insn *in, uint64_t exec, uint64_t *a,
		      uint8_t *space)
{
	uint64_t imm = (uint64_t)(int64_t)in->imm;
	const uint32_t *v = w->v[in->addr & 511], *vh = w->v[(in->addr + 1) & 511];
	if (in->fmt == ISA_SCRATCH) {
		uint64_t base = imm - vx_sgpr64(w, ISA_SRC_FLAT_SCR_LO);
		int sv = in->saddr != 0x7f;
		VX_EACH_LANE(exec, a[l] = ((sv ? w->s[in->saddr & 127] : v[l]) + base) & 0xffffffffull;
			     space[l] = SPACE_PRIVATE);
		return !exec;
	}
	if (in->fmt == ISA_GLOBAL && in->saddr != 0x7f) {
		uint64_t base = vx_sgpr64(w, in->saddr) + imm;
		VX_EACH_LANE(exec, a[l] = base + v[l]; space[l] = SPACE_GLOBAL);
		return 1;
	}
	if (in->fmt != ISA_FLAT) {
		VX_EACH_LANE(exec, a[l] = (v[l] | (uint64_t)vh[l] << 32) + imm;
			     space[l] = SPACE_GLOBAL);
		return 1;
	}
	int global = 1;
	VX_EACH_LANE(exec, a[l] = (v[l] | (uint64_t)vh[l] << 32) + imm;
		     space[l] = (uint8_t)flat_space(w, &a[l]);
		     global &= space[l] == SPACE_GLOBAL);
	return global;
}

/* Whether each lane's n bytes are dword-aligned and within one page: the
 * accesses dwords() makes itself, none left to lane_access. */
static int in_pages(const uint64_t *a, uint64_t exec, unsigned n)
{
	uint64_t bad = 0;
	VX_EACH_LANE(exec, bad |= (a[l] % 4) | ((a[l] % VX_PAGE) + n > VX_PAGE));
	return !bad;
}

/* The lanes' plain dwords of global memory, the whole wave at once where
 * vx_vrun.c can: 1 done, 0 not, -1 to stop. */
static int wave_dwords(struct vx_wave *w, const struct isa_insn *in, const uint64_t *a,
		       uint64_t exec, unsigned n, int store)
{
	uint32_t *regs[4];
	for (unsigned i = 0; i < n; i++)
		regs[i] = vreg(w, (store ? in->data0 : in->dst) + i, in->acc);
	return vx_vmem_wave(w, regs, a, exec, n, store, bypass(w, in, store));
}

static int flat(struct vx_wave *w, const struct isa_insn *in)
{
	/* zeros where EXEC leaves lanes unset: only its lanes are read, but
	 * gcc cannot see that; a whole wave sets every one */
	uint64_t exec = vx_exec(w), a[VX_LANES];
	uint8_t space[VX_LANES];
	if (exec != ~0ull)
		memset(a, 0, sizeof(a));
	int store = 0;
	unsigned n = w->c->dev->general_only ? 0 : dword_count(in->op, &store);
	int global = flat_lanes(w, in, exec, a, space);
	int done = n && global ? wave_dwords(w, in, a, exec, n, store) : 0;
	if (done)
		return done < 0 ? -1 : 0;
	/* lanes over several pages (a tile's column): the race check takes
	 * the wave at once still, where each lane's dwords stay in a page */
	int raced = n && global && w->g->race && in_pages(a, exec, 4 * n);
	if (raced)
		vx_race_wave(w, a, exec, 4 * n, store ? VX_R_WRITE : VX_R_READ);
	struct span sp = { 0 };
	for (uint64_t e = exec; e; e &= e - 1) {
		int l = __builtin_ctzll(e);
		if (n ? dwords(w, in, space[l], a[l], l, n, store, &sp, raced)
		      : lane_access(w, in, space[l], a[l], l))
			return -1;
	}
	span_count(w, &sp, store);
	return 0;
}

/* MUBUF: the buffer resource in four SGPRs.  The private segment buffer
 * the engine hands each wave points into the private aperture with
 * ADD_TID set, and reaches the lane's own private memory. */
static int mubuf(struct vx_wave *w, const struct isa_insn *in)
{
	uint32_t *rsrc = &w->s[in->srsrc & 124];
	uint64_t base = rsrc[0] | (uint64_t)(rsrc[1] & 0xffff) << 32;
	uint32_t stride = (rsrc[1] >> 16) & 0x3fff;
	int add_tid = (rsrc[3] >> 23) & 1;
	/* A resource holds 48 bits of address: the aperture's, as the engine
	 * hands it out, is compared in those bits. */
	uint64_t exec = vx_exec(w), priv = w->c->dev->private_base & 0xffffffffffffull;
	int private = add_tid && ((base - priv) & 0xffffffffffffull) < (1ull << 32);
	if (add_tid && !private)
		return vx_unknown(w, in);
	uint32_t soff = vx_sread(w, in->soffset, 0);
	int store = 0;
	unsigned n = w->c->dev->general_only ? 0 : dword_count(in->op, &store);
	uint64_t a[VX_LANES] = { 0 };	/* as flat()'s */
	for (uint64_t e = exec; e; e &= e - 1) {
		int l = __builtin_ctzll(e);
		uint64_t off = soff + (uint64_t)in->imm, idx = 0;
		if (in->idxen)
			idx = w->v[in->addr][l];
		if (in->offen)
			off += w->v[(in->addr + in->idxen) & 511][l];
		a[l] = private ? ((base - priv) & 0xffffffffull) + off : base + off + idx * stride;
	}
	int space = private ? SPACE_PRIVATE : SPACE_GLOBAL;
	int done = n && !private ? wave_dwords(w, in, a, exec, n, store) : 0;
	if (done)
		return done < 0 ? -1 : 0;
	struct span sp = { 0 };
	for (uint64_t e = exec; e; e &= e - 1) {
		int l = __builtin_ctzll(e);
		if (n ? dwords(w, in, space, a[l], l, n, store, &sp, 0)
		      : lane_access(w, in, space, a[l], l))
			return -1;
	}
	span_count(w, &sp, store);
	return 0;
}

int vx_vmem(struct vx_wave *w, const struct isa_insn *in)
{
	/* the caller has checked that the family has the form */
	if (in->fmt == ISA_MUBUF) {
		switch (in->op) {
		case ISA_MUBUF_buffer_invl2:
			/* gfx90a's buffer_invl2, gfx942's buffer_inv */
			if (isa_coh(w->c->dev->fam, ISA_COH_HOST, ISA_COH_INV, in->glc, in->scc) &
			    ISA_COH_DROP)
				vx_hold_drop(w->c);
			return 0;
		case ISA_MUBUF_buffer_wbl2:
			if (isa_coh(w->c->dev->fam, ISA_COH_HOST, ISA_COH_WB, in->glc, in->scc) &
			    ISA_COH_WRITEBACK)
				vx_wback_all(w->c->wb);
			return 0;
		case ISA_MUBUF_buffer_wbinvl1: case ISA_MUBUF_buffer_wbinvl1_vol:
			return 0;	/* the vector L1 is not kept (vx_hold.c) */
		}
		return in->op < 0x10 ? vx_unknown(w, in) : mubuf(w, in);
	}
	return flat(w, in);
}
