/* SPDX-License-Identifier: MIT */
/*
 * The kernel source line of each atomic, from the code object's DWARF
 * (hipcc -g).  An atomic is nearly always inlined from HIP's headers
 * (unsafeAtomicAdd in amd_hip_unsafe_atomics.h), so the line table alone
 * names the header: walk the inline scopes around the instruction, innermost
 * first, and keep the first location outside HIP's and the C library's
 * headers -- the user's call.
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
	X(dwarf_end) X(dwarf_nextcu) X(dwarf_offdie) X(dwarf_haspc)          \
	X(dwarf_getsrc_die) X(dwarf_lineno) X(dwarf_linesrc)                 \
	X(dwarf_getscopes) X(dwarf_tag) X(dwarf_attr) X(dwarf_formudata)     \
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

/* The compile unit holding pc: clang emits no .debug_aranges. */
static bool cu_of(Dwarf *d, Dwarf_Addr pc, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dw.dwarf_nextcu(d, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dw.dwarf_offdie(d, off + hsize, cu) &&
		    dw.dwarf_haspc(cu, pc) > 0)
			return true;
		off = next;
	}
	return false;
}

/* Where an inlined scope was called from. */
static void call_site(Dwarf_Die *cu, Dwarf_Die *scope, const char **file,
		      int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx = 0, l = 0;
	Dwarf_Files *files;
	size_t n;

	*file = NULL;
	*line = 0;
	if (dw.dwarf_formudata(dw.dwarf_attr(scope, DW_AT_call_file, &a), &idx) == 0 &&
	    dw.dwarf_getsrcfiles(cu, &files, &n) == 0 && idx < n)
		*file = dw.dwarf_filesrc(files, idx, NULL, NULL);
	if (dw.dwarf_formudata(dw.dwarf_attr(scope, DW_AT_call_line, &a), &l) == 0)
		*line = (int)l;
}

static void locate(Dwarf *d, struct co_insn *in, struct co_strpool **pool)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *l;
	const char *file = NULL;
	int line = 0, n;

	if (!cu_of(d, in->addr, &cu) || !(l = dw.dwarf_getsrc_die(&cu, in->addr)))
		return;
	file = dw.dwarf_linesrc(l, NULL, NULL);
	dw.dwarf_lineno(l, &line);
	n = dw.dwarf_getscopes(&cu, in->addr, &scopes);
	for (int i = 0; i < n && hg_file_is_library(file); i++)
		if (dw.dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			call_site(&cu, &scopes[i], &file, &line);
	free(scopes);
	if (file && line > 0) {
		in->file = co_pool_add(pool, file, strlen(file));
		in->line = (uint32_t)line;
	}
}

void co_lines(const uint8_t *elf, size_t size, struct co_insn *insns,
	      size_t n, struct co_strpool **pool)
{
	Elf *e;
	Dwarf *d;
	char *copy;

	if (!n || load_libdw() < 0)
		return;
	/* libelf may write to the image it is given; ours can be a read-only
	 * mapping of the program. */
	copy = malloc(size);
	if (!copy)
		return;
	memcpy(copy, elf, size);
	e = dw.elf_memory(copy, size);
	d = e ? dw.dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
	for (size_t i = 0; d && i < n; i++)
		locate(d, &insns[i], pool);
	if (d)
		dw.dwarf_end(d);
	if (e)
		dw.elf_end(e);
	free(copy);
}
