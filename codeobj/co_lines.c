/* SPDX-License-Identifier: MIT */
/*
 * The kernel source line of each atomic, from the code object's DWARF
 * (hipcc -g).  An atomic is nearly always inlined from HIP's headers
 * (unsafeAtomicAdd in amd_hip_unsafe_atomics.h), so the line table alone
 * names the header: walk the inline scopes around the instruction, innermost
 * first, and keep the first location outside HIP's and the C library's
 * headers -- the user's call.
 *
 * A library such as rocSPARSE carries tens of thousands of atomics in
 * code objects with thousands of functions: asking libdw for the scopes
 * of each address walks the compile unit's tree once per atomic (minutes).
 * So the tree is walked once per compile unit, descending only into the
 * scopes that hold an atomic, and each atomic collects its chain of
 * inlined call sites on the way down.
 *
 * libdw reads the AMDGPU ELF as it is (no relocations in a linked code
 * object).  It is loaded with dlopen on first use, like comgr, so the
 * preload adds no dependency to the processes it watches; without it, or
 * without debug info, atomics simply have no line.
 */
#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "co_int.h"
#include "hg_srcpath.h"

#define API(X)                                                                 \
	X(elf_version) X(elf_memory) X(elf_end) X(dwarf_begin_elf)           \
	X(dwarf_end) X(dwarf_nextcu) X(dwarf_offdie) X(dwarf_ranges)         \
	X(dwarf_getsrc_die) X(dwarf_lineno) X(dwarf_linesrc) X(dwarf_child)  \
	X(dwarf_siblingof) X(dwarf_tag) X(dwarf_attr) X(dwarf_formudata)     \
	X(dwarf_getsrcfiles) X(dwarf_filesrc)

static struct {
#define X(f) __typeof__(&f) f;
	API(X)
#undef X
} dw;

static int load_libdw(void)
{
	static int state; /* 0 not tried, 1 loaded, -1 unavailable */
	void *h;

	if (state)
		return state;
	state = -1;
	h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return state;
#define X(f) if (!(dw.f = (__typeof__(dw.f))dlsym(h, #f))) return state;
	API(X)
#undef X
	dw.elf_version(EV_CURRENT);
	state = 1;
	return state;
}

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
	Dwarf_Die *cu;
	struct want *w; /* sorted by address */
	size_t n;
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

/* Where an inlined scope was called from. */
static struct site call_site(Dwarf_Die *cu, Dwarf_Die *scope)
{
	struct site s = {NULL, 0};
	Dwarf_Attribute a;
	Dwarf_Word idx = 0, l = 0;
	Dwarf_Files *files;
	size_t n;

	if (dw.dwarf_formudata(dw.dwarf_attr(scope, DW_AT_call_file, &a), &idx) == 0 &&
	    dw.dwarf_getsrcfiles(cu, &files, &n) == 0 && idx < n)
		s.file = dw.dwarf_filesrc(files, idx, NULL, NULL);
	if (dw.dwarf_formudata(dw.dwarf_attr(scope, DW_AT_call_line, &a), &l) == 0)
		s.line = (int)l;
	return s;
}

/* Whether the scope d holds an atomic; an inlined one adds its call site to
 * the chain of each atomic it holds. */
static bool holds(struct walk *wk, Dwarf_Die *d, bool inlined)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	struct site s = {NULL, 0};
	bool any = false;

	if (inlined)
		s = call_site(wk->cu, d);
	while ((off = dw.dwarf_ranges(d, off, &base, &lo, &hi)) > 0)
		for (size_t i = lower(wk, lo); i < wk->n && wk->w[i].in->addr < hi;
		     i++) {
			struct want *w = &wk->w[i];

			any = true;
			if (inlined && w->depth < CHAIN_MAX)
				w->chain[w->depth++] = s;
		}
	return any;
}

static void visit(struct walk *wk, Dwarf_Die *parent, unsigned depth)
{
	Dwarf_Die d;

	if (depth > DEPTH_MAX || dw.dwarf_child(parent, &d) != 0)
		return;
	do {
		int tag = dw.dwarf_tag(&d);

		if (tag == DW_TAG_namespace ||
		    holds(wk, &d, tag == DW_TAG_inlined_subroutine))
			visit(wk, &d, depth + 1);
	} while (dw.dwarf_siblingof(&d, &d) == 0);
}

/* The line table names the innermost location (often HIP's header); the
 * inlined call sites, innermost first, lead out to the user's line. */
static void settle(struct walk *wk, struct want *w, struct co_strpool **pool)
{
	Dwarf_Line *l = dw.dwarf_getsrc_die(wk->cu, w->in->addr);
	struct site s = {NULL, 0};

	if (!l)
		return;
	s.file = dw.dwarf_linesrc(l, NULL, NULL);
	dw.dwarf_lineno(l, &s.line);
	for (int i = w->depth - 1; i >= 0 && hg_file_is_library(s.file); i--)
		s = w->chain[i];
	if (s.file && s.line > 0) {
		w->in->file = co_pool_add(pool, s.file, strlen(s.file));
		w->in->line = (uint32_t)s.line;
	}
}

static void each_cu(Dwarf *d, struct want *w, size_t n,
		    struct co_strpool **pool)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu;

	while (dw.dwarf_nextcu(d, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		struct walk wk = {&cu, w, n};

		if (dw.dwarf_offdie(d, off + hsize, &cu) && holds(&wk, &cu, false)) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t r = 0;

			for (size_t i = 0; i < n; i++)
				w[i].depth = 0;
			visit(&wk, &cu, 0);
			while ((r = dw.dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0)
				for (size_t i = lower(&wk, lo);
				     i < n && w[i].in->addr < hi; i++)
					settle(&wk, &w[i], pool);
		}
		off = next;
	}
}

/* What the walk reads: the other sections never reach libdw, which would
 * otherwise decompress every debug section on dwarf_begin_elf.  In sid's
 * rocSPARSE the location lists alone are 51 of the 133 MB inflated, and
 * the code (46 MB) was copied only to be ignored. */
static bool needed(const char *name)
{
	static const char *const keep[] = {
		"info", "abbrev", "line", "line_str", "str", "str_offsets",
		"addr", "rnglists", "ranges",
	};

	if (!strncmp(name, ".debug_", 7))
		name += 7;
	else if (!strncmp(name, ".zdebug_", 8))
		name += 8;
	else
		return false;
	for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
		if (!strcmp(name, keep[i]))
			return true;
	return false;
}

#define SLIM_ALIGN(x) (((x) + 15) & ~(size_t)15)

/*
 * A private ELF image for libelf (which may write to the image it is
 * given; ours can be a read-only mapping of the program): the header, the
 * sections the walk reads, and every section header, the others turned
 * into SHT_NOBITS so that libdw passes them by.
 */
static uint8_t *slim_image(const struct co_elf *elf, size_t *size)
{
	struct co_shdr sh;
	size_t n = 64, shtab;
	uint8_t *img;

	if (elf->shstrndx >= elf->shnum)
		return NULL;
	for (unsigned i = 1; i < elf->shnum; i++)
		if (co_elf_shdr(elf, i, &sh) == 0 && sh.size &&
		    (i == elf->shstrndx || needed(sh.name))) {
			if (sh.size > SIZE_MAX / 4 - n)
				return NULL;
			n = SLIM_ALIGN(n) + sh.size;
		}
	shtab = SLIM_ALIGN(n);
	n = shtab + (size_t)elf->shnum * 64;
	img = malloc(n);
	if (!img)
		return NULL;
	memcpy(img, elf->p, 64);
	memset(img + 0x20, 0, 8); /* e_phoff: no program headers here */
	memset(img + 0x38, 0, 2); /* e_phnum */
	memcpy(img + 0x28, &(uint64_t){shtab}, 8);
	memcpy(img + shtab, elf->p + elf->shoff, (size_t)elf->shnum * 64);
	n = 64;
	for (unsigned i = 1; i < elf->shnum; i++) {
		uint8_t *h = img + shtab + (size_t)i * 64;
		uint64_t off = 0;

		if (co_elf_shdr(elf, i, &sh) == 0 && sh.size &&
		    (i == elf->shstrndx || needed(sh.name))) {
			n = SLIM_ALIGN(n);
			memcpy(img + n, elf->p + sh.offset, sh.size);
			off = n;
			n += sh.size;
		} else if (sh.type != 0 /* SHT_NULL */) {
			memcpy(h + 4, &(uint32_t){CO_SHT_NOBITS}, 4);
		}
		memcpy(h + 24, &off, 8);
	}
	*size = shtab + (size_t)elf->shnum * 64;
	return img;
}

void co_lines(const struct co_elf *elf, struct co_insn *insns, size_t n,
	      struct co_strpool **pool)
{
	struct want *w;
	Elf *e;
	Dwarf *d;
	uint8_t *img = NULL;
	size_t size = 0;

	if (!n || load_libdw() < 0)
		return;
	w = calloc(n, sizeof(*w));
	img = w ? slim_image(elf, &size) : NULL;
	if (!img) {
		free(w);
		return;
	}
	for (size_t i = 0; i < n; i++)
		w[i].in = &insns[i];
	qsort(w, n, sizeof(*w), by_addr);
	e = dw.elf_memory((char *)img, size);
	d = e ? dw.dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
	if (d) {
		each_cu(d, w, n, pool);
		dw.dwarf_end(d);
	}
	if (e)
		dw.elf_end(e);
	free(img);
	free(w);
}
