/* SPDX-License-Identifier: MIT */
/*
 * The argument dataflow over a kernel's basic blocks: split the code at
 * branches and their targets, propagate register tags (co_flow.c) to a
 * fixpoint, then read each atomic's argument off the state before it.
 * Indirect jumps (s_setpc_b64) end a block with no known successor, so code
 * reached only through them stays unattributed.
 */
#include <stdlib.h>
#include <string.h>

#include "co_flow.h"

#define MAX_INSNS  (1u << 22)
#define MAX_BLOCKS (1u << 16)

struct block {
	uint32_t first, end; /* instruction indexes [first, end) */
	int32_t succ[2];
	bool reached, queued;
};

struct cfg {
	struct isa_insn *in;
	uint32_t *off; /* of each instruction, from the kernel's first byte */
	uint32_t n, nb;
	struct block *b;
	uint16_t *state; /* nb * CO_FLOW_NREG: the entry state of each block */
};

enum { NOT_BRANCH, BR_ALWAYS, BR_COND, BR_END };

/* A SOPP branch or program end; *target is the instruction offset. */
static int branch(const struct cfg *g, uint32_t i, uint32_t *target)
{
	const struct isa_insn *in = &g->in[i];

	if (in->fmt == ISA_SOP1 && in->op == ISA_SOP1_s_setpc_b64)
		return BR_END; /* somewhere we cannot follow */
	if (in->fmt != ISA_SOPP)
		return NOT_BRANCH;
	*target = g->off[i] + 4 + (uint32_t)(in->imm * 4);
	switch (in->op) {
	case ISA_SOPP_s_endpgm:
	case ISA_SOPP_s_endpgm_saved:
	case ISA_SOPP_s_endpgm_ordered_ps_done:
		return BR_END;
	case ISA_SOPP_s_branch:
		return BR_ALWAYS;
	case ISA_SOPP_s_cbranch_scc0: case ISA_SOPP_s_cbranch_scc1:
	case ISA_SOPP_s_cbranch_vccz: case ISA_SOPP_s_cbranch_vccnz:
	case ISA_SOPP_s_cbranch_execz: case ISA_SOPP_s_cbranch_execnz:
	case ISA_SOPP_s_cbranch_cdbgsys: case ISA_SOPP_s_cbranch_cdbguser:
	case ISA_SOPP_s_cbranch_cdbgsys_or_user:
	case ISA_SOPP_s_cbranch_cdbgsys_and_user:
		return BR_COND;
	}
	return NOT_BRANCH;
}

static long find_insn(const struct cfg *g, uint32_t off)
{
	uint32_t lo = 0, hi = g->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->off[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->off[lo] == off ? (long)lo : -1;
}

static int decode(struct cfg *g, const uint8_t *code, size_t size)
{
	if (size / 4 > MAX_INSNS)
		return -1;
	g->in = malloc((size / 4 + 1) * sizeof(*g->in));
	g->off = malloc((size / 4 + 1) * sizeof(*g->off));
	if (!g->in || !g->off)
		return -1;
	for (size_t pos = 0; pos < size; pos += g->in[g->n++].len) {
		if (isa_decode(code + pos, size - pos, &g->in[g->n]))
			return -1;
		g->off[g->n] = (uint32_t)pos;
	}
	return 0;
}

/* Leaders: the first instruction, branch targets, what follows a branch. */
static int blocks(struct cfg *g)
{
	bool *lead = calloc(g->n + 1, 1);
	uint32_t t;

	if (!lead)
		return -1;
	lead[0] = true;
	for (uint32_t i = 0; i < g->n; i++) {
		int k = branch(g, i, &t);
		long ti = k == BR_ALWAYS || k == BR_COND ? find_insn(g, t) : -1;

		if (ti >= 0)
			lead[ti] = true;
		if (k != NOT_BRANCH)
			lead[i + 1] = true;
	}
	for (uint32_t i = 0; i < g->n; i++)
		g->nb += lead[i];
	g->b = g->nb <= MAX_BLOCKS ? calloc(g->nb, sizeof(*g->b)) : NULL;
	if (g->b)
		for (uint32_t i = 0, j = 0; i < g->n; i++) {
			if (lead[i])
				g->b[j++].first = i;
			g->b[j - 1].end = i + 1;
		}
	free(lead);
	return g->b ? 0 : -1;
}

static long block_at(const struct cfg *g, long insn)
{
	uint32_t lo = 0, hi = g->nb;

	if (insn < 0)
		return -1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->b[mid].end <= (uint32_t)insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nb && g->b[lo].first == (uint32_t)insn ? (long)lo : -1;
}

static void edges(struct cfg *g)
{
	for (uint32_t i = 0; i < g->nb; i++) {
		struct block *b = &g->b[i];
		uint32_t t = 0;
		int k = branch(g, b->end - 1, &t);

		b->succ[0] = b->succ[1] = -1;
		if (k == BR_ALWAYS || k == BR_COND)
			b->succ[0] = (int32_t)block_at(g, find_insn(g, t));
		if ((k == NOT_BRANCH || k == BR_COND) && i + 1 < g->nb)
			b->succ[1] = (int32_t)(i + 1);
	}
}

/* Meets r into block s's entry; true when that changed it. */
static bool meet(struct cfg *g, int32_t s, const uint16_t *r)
{
	uint16_t *e = g->state + (size_t)s * CO_FLOW_NREG;
	bool changed = false;

	if (!g->b[s].reached) {
		memcpy(e, r, CO_FLOW_NREG * sizeof(*r));
		g->b[s].reached = true;
		return true;
	}
	if (!memcmp(e, r, CO_FLOW_NREG * sizeof(*r)))
		return false;
	for (int i = 0; i < CO_FLOW_NREG; i++)
		if (e[i] && e[i] != r[i]) {
			e[i] = 0;
			changed = true;
		}
	return changed;
}

static void fixpoint(const struct co_flow *f, struct cfg *g, uint32_t *work)
{
	uint16_t r[CO_FLOW_NREG];
	uint32_t top = 0;

	co_flow_entry(f, r);
	meet(g, 0, r);
	work[top++] = 0;
	g->b[0].queued = true;
	while (top) {
		struct block *b = &g->b[work[--top]];

		b->queued = false;
		memcpy(r, g->state + (size_t)(b - g->b) * CO_FLOW_NREG,
		       sizeof(r));
		for (uint32_t i = b->first; i < b->end; i++)
			co_flow_step(f, r, &g->in[i]);
		for (int s = 0; s < 2; s++)
			if (b->succ[s] >= 0 && meet(g, b->succ[s], r) &&
			    !g->b[b->succ[s]].queued) {
				g->b[b->succ[s]].queued = true;
				work[top++] = (uint32_t)b->succ[s];
			}
	}
}

static int by_addr(const void *key, const void *elem)
{
	uint64_t a = *(const uint64_t *)key,
		 b = ((const struct co_insn *)elem)->addr;

	return a < b ? -1 : a > b;
}

/* The arguments of one block's global memory accesses, for its fences. */
#define TIES_MAX 16
struct ties {
	int arg[TIES_MAX];
	unsigned n;
	bool unknown;  /* an access whose argument is unknown, or too many */
	uint32_t fence[TIES_MAX]; /* the block's fences, as indexes in sync */
	unsigned nfence;
};

static void ties_arg(struct ties *t, int a)
{
	for (unsigned i = 0; a >= 0 && i < t->n; i++)
		if (t->arg[i] == a)
			return;
	if (a < 0 || t->n == TIES_MAX)
		t->unknown = true;
	else
		t->arg[t->n++] = a;
}

/* An access to global memory (not a fence, nor the private segment). */
static bool global_access(const struct isa_insn *d)
{
	if (d->fmt == ISA_MUBUF)
		return d->op < ISA_MUBUF_buffer_wbl2 ||
		       d->op >= ISA_MUBUF_buffer_atomic_swap;
	return d->fmt == ISA_FLAT || d->fmt == ISA_GLOBAL;
}

static void ties_done(const struct co_flow_sync *s, const struct ties *t)
{
	for (unsigned f = 0; f < t->nfence; f++) {
		for (unsigned i = 0; i < t->n; i++)
			s->tie(s->ctx, t->fence[f], t->arg[i]);
		if (t->unknown || !t->n)
			s->tie(s->ctx, t->fence[f], -1);
	}
}

/* One instruction of the replay: the argument of an atomic, or of a load
 * or store that synchronizes, and what the block's fences learn. */
static void annotate_one(const struct isa_insn *d, const uint16_t *r,
			 uint64_t addr, struct co_insn *insns, uint32_t ninsns,
			 const struct co_flow_sync *s, struct ties *t)
{
	bool vmem = d->fmt == ISA_FLAT || d->fmt == ISA_GLOBAL ||
		    d->fmt == ISA_SCRATCH || d->fmt == ISA_MUBUF;
	struct co_insn *in = vmem && ninsns ? bsearch(&addr, insns, ninsns,
						      sizeof(*insns), by_addr)
					    : NULL;
	struct co_insn *sy = vmem && s && s->n ? bsearch(&addr, s->in, s->n,
							 sizeof(*s->in), by_addr)
					       : NULL;

	if (in)
		in->arg = (int16_t)co_flow_atomic_arg(r, d);
	if (sy && (sy->sync == CO_SYNC_ACQUIRE || sy->sync == CO_SYNC_RELEASE)) {
		if (t->nfence < TIES_MAX)
			t->fence[t->nfence++] = (uint32_t)(sy - s->in);
		return;
	}
	if (sy)
		sy->arg = (int16_t)co_flow_atomic_arg(r, d);
	if (s && global_access(d))
		ties_arg(t, co_flow_atomic_arg(r, d));
}

/* Replays each reached block and reads the argument at every atomic. */
static void annotate(const struct co_flow *f, const struct cfg *g,
		     struct co_insn *insns, uint32_t ninsns,
		     const struct co_flow_sync *s)
{
	uint16_t r[CO_FLOW_NREG];

	for (uint32_t i = 0; i < g->nb; i++) {
		const struct block *b = &g->b[i];
		struct ties t = {.n = 0};

		if (!b->reached)
			continue;
		memcpy(r, g->state + (size_t)i * CO_FLOW_NREG, sizeof(r));
		for (uint32_t j = b->first; j < b->end; j++) {
			annotate_one(&g->in[j], r, f->k->code_addr + g->off[j],
				     insns, ninsns, s, &t);
			co_flow_step(f, r, &g->in[j]);
		}
		if (s)
			ties_done(s, &t);
	}
}

int co_flow_args(enum isa_family fam, const struct co_kernel *k,
		 const uint8_t *code, struct co_insn *insns, uint32_t ninsns,
		 const struct co_flow_sync *sync)
{
	struct co_flow f = {fam, k};
	struct cfg g = {0};
	uint32_t *work = NULL;
	int rc = -1;

	if (decode(&g, code, k->code_size) || blocks(&g))
		goto out;
	edges(&g);
	g.state = calloc((size_t)g.nb * CO_FLOW_NREG, sizeof(*g.state));
	work = malloc(g.nb * sizeof(*work));
	if (!g.state || !work)
		goto out;
	fixpoint(&f, &g, work);
	annotate(&f, &g, insns, ninsns, sync);
	rc = 0;
out:
	free(work);
	free(g.state);
	free(g.b);
	free(g.off);
	free(g.in);
	return rc;
}
