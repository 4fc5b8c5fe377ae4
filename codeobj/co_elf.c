/* SPDX-License-Identifier: MIT */
/*
 * ELF64 reading for code objects and for the hosts that carry them.  Own code
 * rather than libelf: it reads straight from the mapping with no allocation,
 * and every offset goes through the same range checks.
 */
#include <stdio.h>
#include <string.h>

#include "co_int.h"

bool co_is_amdgpu_elf(const uint8_t *p, size_t n)
{
	return n >= 64 && !memcmp(p, "\177ELF", 4) && p[4] == 2 && p[5] == 1 &&
	       (p[18] | p[19] << 8) == CO_EM_AMDGPU;
}

int co_elf_open(struct co_elf *e, const uint8_t *p, size_t n,
		const char **why, uint64_t *bad_off)
{
	memset(e, 0, sizeof *e);
	*bad_off = 0;
	if (n < 64 || memcmp(p, "\177ELF", 4)) {
		*why = "no ELF magic or shorter than an ELF header";
		return -1;
	}
	if (p[4] != 2 || p[5] != 1) {
		*why = "not a 64-bit little-endian ELF";
		return -1;
	}
	struct hg_cursor c = hg_cursor_make(p, n);
	hg_cursor_seek(&c, 16);
	e->type = hg_cursor_u16(&c);
	e->machine = hg_cursor_u16(&c);
	hg_cursor_seek(&c, 40);
	e->shoff = hg_cursor_u64(&c);
	e->flags = hg_cursor_u32(&c);
	hg_cursor_skip(&c, 6);
	uint16_t shentsize = hg_cursor_u16(&c);
	e->shnum = hg_cursor_u16(&c);
	e->shstrndx = hg_cursor_u16(&c);
	e->p = p;
	e->n = n;
	if (e->shnum && shentsize != 64) {
		*bad_off = 58;
		*why = "section header size is not 64";
		return -1;
	}
	if (!hg_range_ok(n, e->shoff, (uint64_t)e->shnum * 64)) {
		*bad_off = 40;
		*why = "section header table lies outside the file";
		return -1;
	}
	if (e->shnum && e->shstrndx >= e->shnum) {
		*bad_off = 62;
		*why = "section name table index out of range";
		return -1;
	}
	return 0;
}

int co_elf_shdr(const struct co_elf *e, unsigned i, struct co_shdr *sh)
{
	if (i >= e->shnum)
		return -1;
	const uint8_t *h = e->p + e->shoff + (uint64_t)i * 64;
	uint32_t name;
	memcpy(&name, h, 4);
	memcpy(&sh->type, h + 4, 4);
	memcpy(&sh->flags, h + 8, 8);
	memcpy(&sh->addr, h + 16, 8);
	memcpy(&sh->offset, h + 24, 8);
	memcpy(&sh->size, h + 32, 8);
	memcpy(&sh->link, h + 40, 4);
	memcpy(&sh->entsize, h + 56, 8);
	sh->name = "";
	if (sh->type == CO_SHT_NOBITS)
		sh->offset = sh->size = 0; /* no bytes in the file to look at */
	if (!hg_range_ok(e->n, sh->offset, sh->size))
		return -1;
	if (i != e->shstrndx) {
		struct co_shdr s;
		if (co_elf_shdr(e, e->shstrndx, &s) == 0 && name < s.size &&
		    memchr(e->p + s.offset + name, 0, s.size - name))
			sh->name = (const char *)e->p + s.offset + name;
	}
	return 0;
}

long co_elf_find(const struct co_elf *e, const char *name)
{
	struct co_shdr sh;
	for (unsigned i = 1; i < e->shnum; i++)
		if (co_elf_shdr(e, i, &sh) == 0 && !strcmp(sh.name, name))
			return i;
	return -1;
}

/* Bytes an ELF image occupies, for images handed over without a size. */
size_t co_elf_extent(const uint8_t *p, size_t avail)
{
	struct co_elf e;
	const char *why;
	uint64_t off;
	if (co_elf_open(&e, p, avail, &why, &off))
		return 0;
	uint64_t end = e.shoff + (uint64_t)e.shnum * 64;
	struct co_shdr sh;
	for (unsigned i = 1; i < e.shnum; i++)
		if (co_elf_shdr(&e, i, &sh) == 0 && sh.type != CO_SHT_NOBITS &&
		    sh.offset + sh.size > end)
			end = sh.offset + sh.size;
	return end;
}

/* Whether the dynamic symbol table names `sym` (defined or not). */
static bool dynsym_names(const struct co_elf *e, const char *sym)
{
	struct co_shdr ds, str;

	for (unsigned i = 1; i < e->shnum; i++) {
		if (co_elf_shdr(e, i, &ds) || ds.type != CO_SHT_DYNSYM ||
		    co_elf_shdr(e, ds.link, &str))
			continue;
		for (uint64_t at = 24; at + 24 <= ds.size; at += 24) {
			uint32_t name = hg_load32(e->p + ds.offset + at);
			size_t len = strlen(sym) + 1;

			if (name < str.size && len <= str.size - name &&
			    !memcmp(e->p + str.offset + name, sym, len))
				return true;
		}
	}
	return false;
}

static bool push(struct co_host_sec *out, int max, int *n, uint8_t kind,
		 uint64_t off, uint64_t size)
{
	if (*n >= max)
		return false;
	out[(*n)++] = (struct co_host_sec){kind, off, size};
	return true;
}

/*
 * clang 15's old OpenMP driver leaves the device ELF in .rodata under a
 * local symbol that strip removes: look for AMDGPU ELF headers, 8-aligned,
 * in the allocated read-only data.
 */
static void embedded_elves(const struct co_elf *e, struct co_host_sec *out,
			   int max, int *n)
{
	struct co_shdr sh;

	for (unsigned i = 1; i < e->shnum; i++) {
		if (co_elf_shdr(e, i, &sh) || sh.type != 1 /* PROGBITS */ ||
		    !(sh.flags & 2) /* ALLOC */ || (sh.flags & 4) /* EXEC */)
			continue;
		for (uint64_t at = 0; at + 64 <= sh.size; at += 8) {
			const uint8_t *q = e->p + sh.offset + at;
			size_t ext;

			if (q[0] != 0x7f || !co_is_amdgpu_elf(q, sh.size - at))
				continue;
			ext = co_elf_extent(q, sh.size - at);
			if (!ext || !push(out, max, n, CO_HOST_OMP_EMBEDDED,
					  sh.offset + at, ext))
				continue;
			at += (ext + 7) / 8 * 8 - 8;
		}
	}
}

int co_host_sections(const uint8_t *p, size_t n, struct co_host_sec *out,
		     int max, bool *omp_host, const char **why)
{
	struct co_elf e;
	struct co_shdr sh;
	uint64_t bad;
	int found = 0, omp_sections = 0;

	*omp_host = false;
	if (co_elf_open(&e, p, n, why, &bad))
		return -1;
	for (unsigned i = 1; i < e.shnum; i++) {
		uint8_t kind = 0;

		if (co_elf_shdr(&e, i, &sh)) {
			if (!strcmp(sh.name, ".hip_fatbin") ||
			    !strcmp(sh.name, ".llvm.offloading")) {
				*why = "GPU code section lies outside the file";
				return -1;
			}
			continue;
		}
		if (!strcmp(sh.name, ".hip_fatbin"))
			kind = CO_HOST_FATBIN;
		else if (!strcmp(sh.name, ".llvm.offloading"))
			kind = CO_HOST_OFFLOADING;
		else if (!strncmp(sh.name, ".omp_offloading.", 16) &&
			 strstr(sh.name, "amdgcn"))
			kind = CO_HOST_OMP_SECTION;
		if (kind && sh.type != CO_SHT_NOBITS && sh.size)
			push(out, max, &found, kind, sh.offset, sh.size);
		omp_sections += kind >= CO_HOST_OFFLOADING;
	}
	*omp_host = dynsym_names(&e, "__tgt_register_lib");
	if (*omp_host && !omp_sections)
		embedded_elves(&e, out, max, &found);
	return found;
}

/* EF_AMDGPU_MACH values (LLVM's ELF.h); only names matter here. */
static const struct { uint8_t mach; const char *name; } machs[] = {
	{0x20, "gfx600"}, {0x21, "gfx601"}, {0x22, "gfx700"}, {0x23, "gfx701"},
	{0x24, "gfx702"}, {0x25, "gfx703"}, {0x26, "gfx704"}, {0x28, "gfx801"},
	{0x29, "gfx802"}, {0x2a, "gfx803"}, {0x2b, "gfx810"}, {0x2c, "gfx900"},
	{0x2d, "gfx902"}, {0x2e, "gfx904"}, {0x2f, "gfx906"}, {0x30, "gfx908"},
	{0x31, "gfx909"}, {0x32, "gfx90c"}, {0x33, "gfx1010"}, {0x34, "gfx1011"},
	{0x35, "gfx1012"}, {0x36, "gfx1030"}, {0x37, "gfx1031"}, {0x38, "gfx1032"},
	{0x39, "gfx1033"}, {0x3a, "gfx602"}, {0x3b, "gfx705"}, {0x3c, "gfx805"},
	{0x3d, "gfx1035"}, {0x3e, "gfx1034"}, {0x3f, "gfx90a"}, {0x40, "gfx940"},
	{0x41, "gfx1100"}, {0x42, "gfx1013"}, {0x43, "gfx1150"}, {0x44, "gfx1103"},
	{0x45, "gfx1036"}, {0x46, "gfx1101"}, {0x47, "gfx1102"}, {0x48, "gfx1200"},
	{0x4a, "gfx1151"}, {0x4b, "gfx941"}, {0x4c, "gfx942"}, {0x4e, "gfx1201"},
	{0x4f, "gfx950"}, {0x49, "gfx1250"}, {0x55, "gfx1152"}, {0x58, "gfx1153"},
	/* Generic targets (LLVM 19+): code that runs on a whole family. */
	{0x51, "gfx9-generic"}, {0x52, "gfx10-1-generic"},
	{0x53, "gfx10-3-generic"}, {0x54, "gfx11-generic"},
	{0x59, "gfx12-generic"}, {0x5f, "gfx9-4-generic"},
};

static enum hg_feature feat(uint32_t bits)
{
	static const enum hg_feature f[] = {HG_FEAT_UNSUPPORTED, HG_FEAT_ANY,
					    HG_FEAT_OFF, HG_FEAT_ON};
	return f[bits & 3];
}

void co_elf_target(const struct co_elf *e, char *buf, size_t size,
		   enum hg_feature *xnack, enum hg_feature *sramecc)
{
	const char *name = "";
	for (size_t i = 0; i < sizeof machs / sizeof machs[0]; i++)
		if (machs[i].mach == (e->flags & 0xff))
			name = machs[i].name;
	/* code object v4+: xnack in bits 8-9, sramecc in bits 10-11 */
	*xnack = feat(e->flags >> 8);
	*sramecc = feat(e->flags >> 10);
	snprintf(buf, size, "%s%s%s", name,
		 *sramecc == HG_FEAT_ON ? ":sramecc+" :
		 *sramecc == HG_FEAT_OFF ? ":sramecc-" : "",
		 *xnack == HG_FEAT_ON ? ":xnack+" :
		 *xnack == HG_FEAT_OFF ? ":xnack-" : "");
}
