/* SPDX-License-Identifier: MIT */
/*
 * Our DWARF reader (co_dwarf_lines.c) against libdw, its reference: every atomic
 * of every code object given must get the same file:line, or none from
 * both.  libdw's answer is worked out here the way hipgrain did before it
 * had its own reader, one address at a time.  BARE_CO with its debug
 * sections compressed must give the same lines; broken by hand (its
 * .debug_line cut short, a line unit longer than its section, without
 * .debug_info, without any debug section) it must give no line at all.
 *
 *   co_lines_test BARE_CO FILE...
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "co.h"
#include "hg_srcpath.h"

/* hipgrain's own limits (co_dwarf_lines.c), which the answers depend on. */
#define CHAIN_MAX 16
#define DEPTH_MAX 64

static int failures;

/* cond is evaluated once: it runs the comparisons. */
#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		bool ok_ = (cond);                                             \
		printf("%s  ", ok_ ? "ok  " : "FAIL");                         \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
		failures += !ok_;                                              \
	} while (0)

struct site {
	const char *file;
	int line;
};

struct chain {
	int depth;
	struct site s[CHAIN_MAX]; /* outermost first */
};

/* ---- libdw's answer ------------------------------------------------ */

/* How many of d's ranges hold pc: hipgrain adds a call site per range. */
static int holds(Dwarf_Die *d, Dwarf_Addr pc)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int n = 0;

	while ((off = dwarf_ranges(d, off, &base, &lo, &hi)) > 0)
		n += pc >= lo && pc < hi;
	return n;
}

static struct site call_site(Dwarf_Die *cu, Dwarf_Die *d)
{
	struct site s = {NULL, 0};
	Dwarf_Attribute a;
	Dwarf_Word idx = 0, l = 0;
	Dwarf_Files *files;
	size_t n;

	if (dwarf_formudata(dwarf_attr(d, DW_AT_call_file, &a), &idx) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &n) == 0 && idx < n)
		s.file = dwarf_filesrc(files, idx, NULL, NULL);
	if (dwarf_formudata(dwarf_attr(d, DW_AT_call_line, &a), &l) == 0)
		s.line = (int)l;
	return s;
}

/* The inlined call sites around pc, entering every scope that holds it. */
static void descend(Dwarf_Die *cu, Dwarf_Die *parent, Dwarf_Addr pc,
		    unsigned depth, struct chain *c)
{
	Dwarf_Die d;

	if (depth > DEPTH_MAX || dwarf_child(parent, &d) != 0)
		return;
	do {
		int tag = dwarf_tag(&d), n = 0;

		if (tag != DW_TAG_namespace && !(n = holds(&d, pc)))
			continue;
		for (; tag == DW_TAG_inlined_subroutine && n > 0; n--)
			if (c->depth < CHAIN_MAX)
				c->s[c->depth++] = call_site(cu, &d);
		descend(cu, &d, pc, depth + 1, c);
	} while (dwarf_siblingof(&d, &d) == 0);
}

/* The user's file:line for pc, from the last unit that has one. */
static struct site libdw_line(Dwarf *dw, Dwarf_Addr pc)
{
	struct site best = {NULL, 0};
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu;

	for (; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
		struct chain c = {0};
		Dwarf_Line *l;
		struct site s;

		if (!dwarf_offdie(dw, off + hsize, &cu) || !holds(&cu, pc))
			continue;
		descend(&cu, &cu, pc, 0, &c);
		if (!(l = dwarf_getsrc_die(&cu, pc)))
			continue;
		s.file = dwarf_linesrc(l, NULL, NULL);
		if (dwarf_lineno(l, &s.line) != 0)
			s.line = 0;
		for (int i = c.depth - 1; i >= 0 && hg_file_is_library(s.file); i--)
			s = c.s[i];
		if (s.file && s.line > 0)
			best = s;
	}
	return best;
}

/* ---- the comparison ------------------------------------------------ */

struct tally {
	unsigned atomics, lines, differ;
};

/* Compares every atomic of one code object; false when it cannot be read. */
static bool compare(const uint8_t *data, size_t size, const char *where,
		    struct tally *t)
{
	struct co_error err;
	struct co_object *o = co_object_open(data, size, where, &err);
	/* libelf may write to its image: it gets a copy. */
	char *img = malloc(size ? size : 1);
	Elf *e = NULL;
	Dwarf *dw = NULL;
	const struct co_profiles *p;
	bool ok = false;

	if (!o || !img || co_object_analyse(o, CO_DEC_AUTO, &err) != 0)
		goto out;
	memcpy(img, data, size);
	e = elf_memory(img, size);
	dw = e ? dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
	p = co_object_profiles(o);
	for (uint32_t k = 0; k < p->nkernels; k++) {
		const struct co_kernel *ker = &p->kernels[k];

		for (uint32_t i = 0; i < ker->ninsns; i++) {
			const struct co_insn *in = &ker->insns[i];
			struct site want = dw ? libdw_line(dw, in->addr) : (struct site){0};
			bool same = (!want.file && !in->file && in->line == 0) ||
				    (want.file && in->file && !strcmp(want.file, in->file) &&
				     (uint32_t)want.line == in->line);

			t->atomics++;
			t->lines += in->file != NULL;
			if (!same) {
				t->differ++;
				printf("FAIL  %s %s 0x%llx %s: ours %s:%u, libdw %s:%d\n",
				       where, p->target, (unsigned long long)in->addr,
				       in->mnemonic, in->file ? in->file : "-", in->line,
				       want.file ? want.file : "-", want.line);
			}
		}
	}
	ok = true;
out:
	if (dw)
		dwarf_end(dw);
	if (e)
		elf_end(e);
	free(img);
	co_object_free(o);
	return ok;
}

static void compare_file(const char *path, struct tally *all)
{
	struct co_error err;
	struct co_set *set = co_set_from_file(path, &err);
	size_t n = set ? co_set_count(set) : 0, nread = 0;
	struct tally t = {0};

	for (size_t i = 0; i < n; i++) {
		const struct co_entry *en = co_set_entry(set, i);

		nread += compare(en->data, en->size, path, &t);
	}
	/* A program may carry no device code at all (prefetch_advise). */
	CHECK(set && nread == n && t.differ == 0,
	      "%s: %zu code objects, %u atomics, %u with a line, as libdw", path,
	      n, t.atomics, t.lines);
	all->atomics += t.atomics;
	all->lines += t.lines;
	all->differ += t.differ;
	co_set_free(set);
}

/* ---- code objects broken by hand ----------------------------------- */

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *d = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (d = malloc((size_t)len)) &&
	    fread(d, 1, (size_t)len, f) != (size_t)len) {
		free(d);
		d = NULL;
	}
	*n = d ? (size_t)len : 0;
	fclose(f);
	return d;
}

static uint64_t get(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The section header of the ELF64 section called name, or NULL.  The
 * fixture is our own compiler's output, so its headers are trusted. */
static uint8_t *shdr(uint8_t *elf, const char *name)
{
	uint64_t shoff = get(elf + 0x28, 8);
	unsigned shnum = (unsigned)get(elf + 0x3c, 2);
	const uint8_t *strtab = elf + get(elf + shoff + 64 * get(elf + 0x3e, 2) + 24, 8);

	for (unsigned i = 1; i < shnum; i++) {
		uint8_t *h = elf + shoff + 64 * i;

		if (!strcmp((const char *)strtab + get(h, 4), name))
			return h;
	}
	return NULL;
}

enum breakage { CUT_LINE, LONG_UNIT, NO_INFO, NO_DEBUG };

static bool breaks(uint8_t *elf, enum breakage how)
{
	uint8_t *line = shdr(elf, ".debug_line"), *info = shdr(elf, ".debug_info");

	if (!line || !info)
		return false;
	switch (how) {
	case CUT_LINE: /* in the middle of the first unit's header */
		put(line + 32, 8, 20);
		return true;
	case LONG_UNIT:
		put(elf + get(line + 24, 8), 4, get(line + 32, 8) + 1);
		return true;
	case NO_INFO:
		put(info + 4, 4, 8 /* SHT_NOBITS */);
		return true;
	case NO_DEBUG: {
		uint64_t shoff = get(elf + 0x28, 8);
		unsigned shnum = (unsigned)get(elf + 0x3c, 2);
		char *strtab = (char *)elf + get(elf + shoff + 64 * get(elf + 0x3e, 2) + 24, 8);

		/* Renamed, as a build without -g has none of them. */
		for (unsigned i = 1; i < shnum; i++) {
			char *name = strtab + get(elf + shoff + 64 * i, 4);

			if (!strncmp(name, ".debug_", 7))
				name[1] = 'n';
		}
		return true;
	}
	}
	return false;
}

/* Every debug section the reader uses compressed as `ld
 * --compress-debug-sections=zlib` leaves them (SHF_COMPRESSED): the same
 * lines, once inflated. */
static void test_compressed(const uint8_t *orig, size_t n, unsigned want)
{
	static const char *const names[] = {
		".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str",
		".debug_str", ".debug_str_offsets", ".debug_addr",
		".debug_rnglists", ".debug_ranges",
	};
	size_t cap = n, at = n;
	unsigned packed = 0;
	struct tally t = {0};
	uint8_t *elf;

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const uint8_t *h = shdr((uint8_t *)orig, names[i]);

		if (h)
			cap += 8 + 24 + compressBound(get(h + 32, 8));
	}
	elf = malloc(cap);
	if (!elf)
		return;
	memcpy(elf, orig, n);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		uint8_t *h = shdr(elf, names[i]);
		uLongf zn;

		if (!h)
			continue;
		at = (at + 7) & ~(size_t)7;
		zn = compressBound(get(h + 32, 8));
		put(elf + at, 4, 1 /* ELFCOMPRESS_ZLIB */);
		put(elf + at + 4, 4, 0);
		put(elf + at + 8, 8, get(h + 32, 8));
		put(elf + at + 16, 8, 1);
		if (compress2(elf + at + 24, &zn, orig + get(h + 24, 8),
			      get(h + 32, 8), 9) != Z_OK)
			break;
		put(h + 8, 8, get(h + 8, 8) | 0x800 /* SHF_COMPRESSED */);
		put(h + 24, 8, at);
		put(h + 32, 8, 24 + zn);
		at += 24 + zn;
		packed++;
	}
	CHECK(packed >= 3 && compare(elf, at, "compressed", &t) &&
	      t.lines == want && !t.differ,
	      "%u debug sections compressed: %u of %u atomics have a line, as libdw",
	      packed, t.lines, t.atomics);
	free(elf);
}

static void test_broken(const char *path)
{
	static const char *const what[] = {
		".debug_line cut in its first header",
		"a .debug_line unit longer than its section",
		"no .debug_info", "no debug section (as without -g)",
	};
	size_t n;
	uint8_t *orig = slurp(path, &n);
	struct tally t = {0};

	CHECK(orig && compare(orig, n, path, &t) && t.lines > 0 && !t.differ,
	      "%s as built: %u of %u atomics have a line", path, t.lines, t.atomics);
	if (orig)
		test_compressed(orig, n, t.lines);
	for (int how = CUT_LINE; orig && how <= NO_DEBUG; how++) {
		uint8_t *elf = malloc(n);

		memcpy(elf, orig, n);
		t = (struct tally){0};
		CHECK(breaks(elf, (enum breakage)how) && compare(elf, n, what[how], &t) &&
		      t.atomics > 0 && t.lines == 0 && !t.differ,
		      "%s: %u atomics, none with a line, as libdw", what[how], t.atomics);
		free(elf);
	}
	free(orig);
}

int main(int argc, char **argv)
{
	struct tally all = {0};

	if (argc < 3) {
		fprintf(stderr, "usage: co_lines_test BARE_CO FILE...\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	test_broken(argv[1]);
	for (int i = 2; i < argc; i++)
		compare_file(argv[i], &all);
	CHECK(all.lines > 0, "%u atomics in all, %u with a line, %u differ",
	      all.atomics, all.lines, all.differ);
	return failures ? 1 : 0;
}
