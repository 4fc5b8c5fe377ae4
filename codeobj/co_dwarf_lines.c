/* SPDX-License-Identifier: MIT */
/*
 * The kernel source line of each atomic, from the code object's DWARF
 * (hipcc -g).  An atomic is nearly always inlined from HIP's headers
 * (unsafeAtomicAdd in amd_hip_unsafe_atomics.h), so the line table alone
 * names the header: walk the inline scopes around the instruction, innermost
 * first, and keep the first location outside HIP's and the C library's
 * headers -- the user's call.
 *
 * Our own reader, not libdw: libdw would spend most of a large library's
 * scan (bench/README.md, scan) on work the answer never uses --
 * decompressing every debug section (location lists are the largest), a
 * malloc per line-table row, a sort of rows that are already in order,
 * and DIE walks that re-read abbreviations.  Here a section is inflated
 * only when an atomic needs it, the compile unit's DIEs are read once,
 * straight through, descending only into the scopes that hold an atomic
 * (each atomic collects its chain of inlined call sites on the way down),
 * and each unit's line table is read once into one array, sorted only if
 * it is not in order already, then searched per atomic.
 *
 * The answers are libdw's (0.188): where the bytes allow more than one
 * reading, `hipgrain scan --format json` keeps libdw's (co_dwarf_linetab.c for
 * the line table's rules); tests/codeobj/co_lines_test.c holds every -g
 * kernel to it.  co_dwarf.c reads the DIEs, co_dwarf_linetab.c the line table.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "co_dwarf.h"
#include "hg_srcpath.h"

/* Deeper inline chains keep their outermost call sites: the user's line
 * is near the top.  Deeper DIE trees than this are not real compilers'. */
#define CHAIN_MAX 16
#define DEPTH_MAX 64

struct site {
	const char *file;
	int line;
};

struct want {
	struct co_insn *in;
	uint8_t depth;
	struct site chain[CHAIN_MAX]; /* inlined call sites, outermost first */
};

struct walk {
	struct unit *u;
	struct want *w; /* sorted by address */
	size_t n;
	bool inlined, any;
	struct site s;
};

static int by_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct want *)a)->in->addr;
	uint64_t y = ((const struct want *)b)->in->addr;

	return (x > y) - (x < y);
}

/* The first atomic at or after addr. */
static size_t lower(const struct walk *wk, uint64_t addr)
{
	size_t lo = 0, hi = wk->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (wk->w[mid].in->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void hold_range(void *ctx, uint64_t lo, uint64_t hi)
{
	struct walk *wk = ctx;

	for (size_t i = lower(wk, lo); i < wk->n && wk->w[i].in->addr < hi; i++) {
		struct want *w = &wk->w[i];

		wk->any = true;
		if (wk->inlined && w->depth < CHAIN_MAX)
			w->chain[w->depth++] = wk->s;
	}
}

/* Whether the scope d holds an atomic; an inlined one adds its call site to
 * the chain of each atomic it holds. */
static bool holds(struct walk *wk, const struct die *d, bool inlined)
{
	uint64_t v;

	wk->inlined = inlined;
	wk->any = false;
	wk->s = (struct site){NULL, 0};
	if (inlined) {
		if (d->has_file && co_dw_constant(&d->file, &v))
			wk->s.file = co_dw_file_name(wk->u, v);
		if (d->has_line && co_dw_constant(&d->line, &v))
			wk->s.line = (int)v;
	}
	co_dw_ranges(wk->u, d, hold_range, wk);
	return wk->any;
}

/* Reads the children of a DIE (r at the first); with look, those whose
 * scope holds an atomic are entered in turn. */
static void visit(struct walk *wk, struct rd *r, unsigned depth, bool look)
{
	struct die d;

	while (!r->bad) {
		const struct abbrev *a = co_dw_read_die(wk->u, r, look ? &d : NULL);

		if (!a)
			return;
		bool in = look && (d.tag == DW_TAG_namespace ||
				   holds(wk, &d, d.tag == DW_TAG_inlined_subroutine));
		if (!a->children)
			continue;
		if (in && depth + 1 <= DEPTH_MAX)
			visit(wk, r, depth + 1, true);
		else
			co_dw_skip_children(wk->u, r);
	}
}

/* The line table names the innermost location (often HIP's header); the
 * inlined call sites, innermost first, lead out to the user's line. */
static void settle(struct unit *u, struct want *w, struct co_strpool **pool)
{
	const struct row *l = co_dw_row_at(u, w->in->addr);
	struct site s = {NULL, 0};

	if (!l)
		return;
	s.file = co_dw_file_name(u, l->file);
	s.line = l->line;
	for (int i = w->depth - 1; i >= 0 && hg_file_is_library(s.file); i--)
		s = w->chain[i];
	if (s.file && s.line > 0) {
		w->in->file = co_pool_add(pool, s.file, strlen(s.file));
		w->in->line = (uint32_t)s.line;
	}
}

struct settle_ctx {
	struct unit *u;
	struct walk *wk;
	struct co_strpool **pool;
};

static void settle_range(void *ctx, uint64_t lo, uint64_t hi)
{
	struct settle_ctx *c = ctx;

	for (size_t i = lower(c->wk, lo); i < c->wk->n && c->wk->w[i].in->addr < hi;
	     i++)
		settle(c->u, &c->wk->w[i], c->pool);
}

static void each_unit(struct dwarf *dw, struct want *w, size_t n,
		      struct co_strpool **pool)
{
	uint64_t off = 0;
	enum co_dw_next next;
	struct unit u;
	struct rd r;
	struct die cu;

	while ((next = co_dw_unit_next(dw, &off, &u, &r, &cu)) != CO_DW_END) {
		if (next == CO_DW_SKIP)
			continue;
		struct walk wk = {&u, w, n, false, false, {NULL, 0}};
		if (holds(&wk, &cu, false)) {
			struct settle_ctx sc = {&u, &wk, pool};

			for (size_t i = 0; i < n; i++)
				w[i].depth = 0;
			if (cu.children)
				visit(&wk, &r, 0, true);
			co_dw_ranges(&u, &cu, settle_range, &sc);
		}
		co_dw_unit_free(&u);
	}
}

void co_dw_lines(struct dwarf *d, struct co_insn *insns, size_t n,
		 struct co_strpool **pool)
{
	struct want *w = n ? calloc(n, sizeof(*w)) : NULL;

	if (!w)
		return;
	for (size_t i = 0; i < n; i++)
		w[i].in = &insns[i];
	qsort(w, n, sizeof(*w), by_addr);
	each_unit(d, w, n, pool);
	free(w);
}

void co_lines(const struct co_elf *elf, struct co_insn *insns, size_t n,
	      struct co_strpool **pool)
{
	struct dwarf d = {.elf = elf};

	if (!n)
		return;
	co_dw_find_sections(&d);
	if (d.s[S_INFO].idx >= 0 && d.s[S_LINE].idx >= 0)
		co_dw_lines(&d, insns, n, pool);
	co_dw_free(&d);
}
