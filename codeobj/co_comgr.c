/* SPDX-License-Identifier: MIT */
/*
 * The reference: LLVM's AMDGPU disassembler as ROCm ships it in comgr.  One
 * instruction at a time through callbacks; far slower than our own decoder
 * (bench/README.md, scan) but it knows every target.  Loaded with dlopen
 * on first use: comgr brings all of LLVM, which the preload must not drag
 * into every traced process when its own decoder knows the target.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ROCm 6+ (Debian trixie, sid) moved it into a directory of its own. */
#if __has_include(<amd_comgr/amd_comgr.h>)
#include <amd_comgr/amd_comgr.h>
#else
#include <amd_comgr.h>
#endif

#include "co_int.h"

struct co_comgr {
	amd_comgr_disassembly_info_t info;
	const uint8_t *code; /* bytes being disassembled */
	uint64_t addr;       /* their address */
	size_t n;
	char text[256];      /* last printed instruction */
	enum isa_family fam; /* for the sync bits: their meaning is the family's */
};

static uint64_t read_cb(uint64_t from, char *to, uint64_t size, void *user)
{
	struct co_comgr *d = user;
	if (from < d->addr || from - d->addr >= d->n)
		return 0;
	uint64_t off = from - d->addr, left = d->n - off;
	uint64_t k = size < left ? size : left;
	memcpy(to, d->code + off, k);
	return k;
}

static void print_cb(const char *insn, void *user)
{
	struct co_comgr *d = user;
	snprintf(d->text, sizeof d->text, "%s", insn);
}

static void addr_cb(uint64_t address, void *user)
{
	(void)address;
	(void)user;
}

static struct {
	__typeof__(&amd_comgr_create_disassembly_info) create;
	__typeof__(&amd_comgr_destroy_disassembly_info) destroy;
	__typeof__(&amd_comgr_disassemble_instruction) disassemble;
} api;

static int load_comgr(void)
{
	void *h;

	if (api.disassemble)
		return 0;
	/* ROCm 6.x ships comgr 3 (Debian sid), 5.x comgr 2; the disassembly
	 * calls are the same in both. */
	h = dlopen("libamd_comgr.so.3", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		h = dlopen("libamd_comgr.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return -1;
	api.create = (__typeof__(api.create))dlsym(h, "amd_comgr_create_disassembly_info");
	api.destroy = (__typeof__(api.destroy))dlsym(h, "amd_comgr_destroy_disassembly_info");
	api.disassemble = (__typeof__(api.disassemble))dlsym(h, "amd_comgr_disassemble_instruction");
	return api.create && api.destroy && api.disassemble ? 0 : -1;
}

struct co_comgr *co_comgr_open(const char *target, const char **why)
{
	char isa[96];
	struct co_target t;
	if (load_comgr()) {
		*why = "comgr (libamd_comgr.so.3 or .so.2) cannot be loaded";
		return NULL;
	}
	if (co_target_parse(target, &t)) {
		*why = "unparseable target id";
		return NULL;
	}
	snprintf(isa, sizeof isa, "amdgcn-amd-amdhsa--%s", t.proc);
	struct co_comgr *d = calloc(1, sizeof *d);
	if (!d) {
		*why = "out of memory";
		return NULL;
	}
	if (api.create(isa, read_cb, print_cb, addr_cb,
					      &d->info)) {
		*why = "comgr does not know this target";
		free(d);
		return NULL;
	}
	d->fam = co_isa_family(t.proc);
	return d;
}

void co_comgr_close(struct co_comgr *d)
{
	if (d) {
		api.destroy(d->info);
		free(d);
	}
}

/* The cache-policy modifiers LLVM prints after the operands, either
 * family's names. */
static uint8_t cpol_words(const char *text)
{
	static const struct {
		const char *w;
		uint8_t bit;
	} words[] = {{"glc", CO_CPOL_SC0}, {"sc0", CO_CPOL_SC0},
		     {"slc", CO_CPOL_NT},  {"nt", CO_CPOL_NT},
		     {"scc", CO_CPOL_SC1}, {"sc1", CO_CPOL_SC1}};
	uint8_t bits = 0;

	for (const char *p = text; *p;) {
		size_t n;

		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (n == strlen(words[i].w) && !strncmp(p, words[i].w, n))
				bits |= words[i].bit;
		p += n;
	}
	return bits;
}

/* First token of the printed instruction. */
static void mnemonic(const char *text, char *out, size_t size)
{
	while (*text == ' ' || *text == '\t')
		text++;
	size_t n = strcspn(text, " \t");
	if (n >= size)
		n = size - 1;
	memcpy(out, text, n);
	out[n] = 0;
}

long co_comgr_scan(struct co_comgr *d, const uint8_t *code, size_t n,
		   uint64_t addr, co_hit_fn hit, void *ctx)
{
	d->code = code;
	d->n = n;
	d->addr = addr;
	long count = 0;
	for (uint64_t off = 0; off + 4 <= n;) {
		uint64_t size = 0;
		d->text[0] = 0;
		amd_comgr_status_t st = api.disassemble(
			d->info, addr + off, d, &size);
		if (st != AMD_COMGR_STATUS_SUCCESS || size == 0)
			size = 4; /* undecodable word: step over it */
		char m[48];
		struct co_insn in;
		mnemonic(d->text, m, sizeof m);
		if (st == AMD_COMGR_STATUS_SUCCESS && co_classify_mnemonic(m, &in)) {
			in.addr = addr + off;
			in.cpol = in.space == CO_SP_LDS ? 0 : cpol_words(d->text);
			hit(ctx, &in);
		} else if (st == AMD_COMGR_STATUS_SUCCESS) {
			uint8_t cpol = cpol_words(d->text);

			in = (struct co_insn){.addr = addr + off, .cpol = cpol,
					      .arg = -1};
			in.sync = co_sync_kind(d->fam, m, cpol);
			in.space = !strncmp(m, "buffer_", 7)	 ? CO_SP_BUFFER
				   : !strncmp(m, "global_", 7) ? CO_SP_GLOBAL
							       : CO_SP_FLAT;
			snprintf(in.mnemonic, sizeof(in.mnemonic), "%.29s%s", m,
				 d->fam == ISA_GFX940 ? " sc0 sc1" : "");
			if (in.sync)
				hit(ctx, &in);
		}
		off += size;
		count++;
	}
	return count;
}
