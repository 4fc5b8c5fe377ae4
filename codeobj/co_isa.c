/* SPDX-License-Identifier: MIT */
/*
 * The scanner's own walk over a kernel's code, on isa/'s decoder (the one
 * the virtual GPU's interpreter executes from) for the gfx9 family (gfx908,
 * gfx90a, gfx940-942, gfx950, gfx9-4-generic).
 *
 * Each instruction's length keeps it in step; a memory instruction's name,
 * from isa/'s table, says whether it is an atomic, read by the same
 * classifier that reads comgr's text.  A word it cannot place, or an
 * opcode where atomics live that the table does not name for this family,
 * makes it give up on the kernel (return -1); the caller then asks comgr.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "co_int.h"

enum isa_family co_isa_family(const char *proc)
{
	/* gfx950 reads as gfx940: the forms the scanner names are those
	 * both have (gfx9-4-generic is what they share). */
	if (!strcmp(proc, "gfx950"))
		return ISA_GFX940;
	return isa_family_of(proc);
}

/* What an opcode is to the scanner, per family and memory format: the
 * table's names read by the classifier once, not at every instruction. */
enum { K_OTHER, K_ATOMIC, K_GIVE_UP, K_SYNC };
static const enum isa_family fams[] = { ISA_GFX908, ISA_GFX90A, ISA_GFX940 };
static const uint8_t formats[] = { ISA_SMEM, ISA_DS, ISA_FLAT, ISA_GLOBAL,
				   ISA_SCRATCH, ISA_MUBUF, ISA_MIMG };
#define NFAM (sizeof(fams) / sizeof(fams[0]))
static uint8_t kinds[NFAM][ISA_NFMT][256];
static pthread_once_t kinds_once = PTHREAD_ONCE_INIT;

/* Where a format keeps its atomics: FLAT's, MUBUF's and SMEM's opcodes
 * from their first atomic on, LDS's among its other operations. */
static bool atomic_range(unsigned fmt, unsigned op)
{
	switch (fmt) {
	case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH:
		return op >= ISA_FLAT_flat_atomic_swap;
	case ISA_MUBUF:
		return op >= ISA_MUBUF_buffer_atomic_swap;
	case ISA_SMEM:
		return op >= ISA_SMEM_s_buffer_atomic_swap;
	}
	return true;
}

static uint8_t kind(enum isa_family fam, unsigned fmt, unsigned op)
{
	struct co_insn in;
	const char *name = isa_name(fam, fmt, op);

	/* A load, store or fence that may synchronize at system scope: its
	 * bits decide, at the instruction. */
	if (!atomic_range(fmt, op))
		return name && co_sync_kind(fam, name, CO_CPOL_SC0 | CO_CPOL_SC1)
			       ? K_SYNC : K_OTHER;
	/* An unnamed LDS form is no atomic we would miss; elsewhere it might
	 * be (and the table has no image forms). */
	if (!name)
		return fmt == ISA_DS ? K_OTHER : K_GIVE_UP;
	return co_classify_mnemonic(name, &in) ? K_ATOMIC : K_OTHER;
}

static void kinds_init(void)
{
	for (size_t f = 0; f < NFAM; f++)
		for (size_t i = 0; i < sizeof(formats); i++)
			for (unsigned op = 0; op < 256; op++)
				kinds[f][formats[i]][op] =
					kind(fams[f], formats[i], op);
}

static int fam_index(enum isa_family fam)
{
	for (size_t f = 0; f < NFAM; f++)
		if (fams[f] == fam)
			return (int)f;
	return -1;
}

/* The cache-policy bits as the report names them; LDS has none. */
static uint8_t cpol(const struct isa_insn *in)
{
	if (in->fmt == ISA_DS)
		return 0;
	return (uint8_t)((in->glc ? CO_CPOL_SC0 : 0) | (in->slc ? CO_CPOL_NT : 0) |
			 (in->scc ? CO_CPOL_SC1 : 0));
}

/* A load, store or fence whose bits say system scope: hit, as an
 * instruction with no atomic class. */
static void sync_hit(enum isa_family fam, const struct isa_insn *in,
		     uint64_t addr, co_hit_fn hit, void *ctx)
{
	const char *name = isa_name(fam, in->fmt, in->op);
	struct co_insn out = {.addr = addr, .cpol = cpol(in), .arg = -1};

	out.sync = co_sync_kind(fam, name, out.cpol);
	if (!out.sync)
		return;
	out.space = in->fmt == ISA_MUBUF    ? CO_SP_BUFFER
		    : in->fmt == ISA_GLOBAL ? CO_SP_GLOBAL
					    : CO_SP_FLAT;
	/* MI300 says the scope in the bits: the mnemonic alone would not. */
	snprintf(out.mnemonic, sizeof(out.mnemonic), "%.29s%s", name,
		 fam == ISA_GFX940 ? " sc0 sc1" : "");
	hit(ctx, &out);
}

/* The memory instruction at p: its length, or -1 at an atomic we cannot
 * name (comgr decides). */
static int memory(enum isa_family fam, const uint8_t (*k)[256],
		  const uint8_t *p, size_t n, uint64_t addr, co_hit_fn hit,
		  void *ctx)
{
	struct isa_insn in;
	struct co_insn out;

	if (isa_decode(p, n, &in))
		return -1;
	/* FLAT's fourth segment is reserved: the table names nothing there. */
	if (in.fmt == ISA_FLAT && in.seg == 3)
		return atomic_range(in.fmt, in.op) ? -1 : in.len;
	switch (k[in.fmt][in.op & 0xff]) {
	case K_GIVE_UP:
		return -1;
	case K_OTHER:
		return in.len;
	case K_SYNC:
		sync_hit(fam, &in, addr, hit, ctx);
		return in.len;
	}
	co_classify_mnemonic(isa_name(fam, in.fmt, in.op), &out);
	out.addr = addr;
	out.cpol = cpol(&in);
	hit(ctx, &out);
	return in.len;
}

long co_isa_scan(enum isa_family fam, const uint8_t *code, size_t n,
		 uint64_t addr, co_hit_fn hit, void *ctx)
{
	uint32_t wanted = 0;
	unsigned long count = 0;
	size_t pos = 0;
	int f = fam_index(fam), fmt;

	if (f < 0)
		return -1;
	pthread_once(&kinds_once, kinds_init);
	for (size_t i = 0; i < sizeof(formats); i++)
		wanted |= 1u << formats[i];
	while ((fmt = isa_seek(code, n, &pos, wanted, &count)) >= 0 &&
	       fmt != ISA_NFMT) {
		uint32_t w = hg_load32(code + pos);
		/* Loads and stores by their first word alone. */
		int len = kinds[f][fmt][isa_op_of(w) & 0xff] == K_OTHER
			      ? (int)isa_len(w)
			      : memory(fam, kinds[f], code + pos, n - pos,
				       addr + pos, hit, ctx);
		if (len < 0)
			return -1;
		pos += (size_t)len;
		count++;
	}
	return fmt < 0 ? -1 : (long)count;
}
