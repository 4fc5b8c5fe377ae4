/* SPDX-License-Identifier: MIT */
/*
 * Our own decoder for the gfx9 family (gfx908, gfx90a, gfx940-942, gfx950,
 * gfx9-4-generic).
 *
 * It only needs two things from each instruction: its length, to stay in
 * step, and for the memory encodings (FLAT/GLOBAL, MUBUF, DS) the opcode, to
 * name atomics.  Everything else is skipped by its encoding's size.  Any word
 * it cannot place makes it give up on the kernel (return -1); the caller then
 * asks comgr.  Names follow LLVM's printing; the 'codeobj' tests check every
 * opcode and every test kernel against comgr.
 */
#include <stdio.h>
#include <string.h>

#include "co_int.h"

enum co_isa_family co_isa_family(const char *proc)
{
	if (!strcmp(proc, "gfx908"))
		return CO_ISA_GFX908;
	if (!strcmp(proc, "gfx90a"))
		return CO_ISA_GFX90A;
	/* gfx9-4-generic is the subset gfx940-942 and gfx950 share. */
	if (!strcmp(proc, "gfx940") || !strcmp(proc, "gfx941") ||
	    !strcmp(proc, "gfx942") || !strcmp(proc, "gfx9-4-generic"))
		return CO_ISA_GFX940;
	if (!strcmp(proc, "gfx950"))
		return CO_ISA_GFX950;
	return CO_ISA_UNKNOWN;
}

/* FLAT/GLOBAL and MUBUF share the atomic opcode numbering (7-bit op). */
static const char *const vmem_atomic[0x80] = {
	[0x40] = "swap", [0x41] = "cmpswap", [0x42] = "add", [0x43] = "sub",
	[0x44] = "smin", [0x45] = "umin", [0x46] = "smax", [0x47] = "umax",
	[0x48] = "and", [0x49] = "or", [0x4a] = "xor", [0x4b] = "inc",
	[0x4c] = "dec", [0x4d] = "add_f32", [0x4e] = "pk_add_f16",
	[0x4f] = "add_f64", [0x50] = "min_f64", [0x51] = "max_f64",
	[0x52] = "pk_add_bf16",
	[0x60] = "swap_x2", [0x61] = "cmpswap_x2", [0x62] = "add_x2",
	[0x63] = "sub_x2", [0x64] = "smin_x2", [0x65] = "umin_x2",
	[0x66] = "smax_x2", [0x67] = "umax_x2", [0x68] = "and_x2",
	[0x69] = "or_x2", [0x6a] = "xor_x2", [0x6b] = "inc_x2", [0x6c] = "dec_x2",
};

/* DS atomics (8-bit op); read/write/permute ops are absent on purpose. */
static const char *const ds_atomic[0x100] = {
	[0x00] = "add_u32", [0x01] = "sub_u32", [0x02] = "rsub_u32",
	[0x03] = "inc_u32", [0x04] = "dec_u32", [0x05] = "min_i32",
	[0x06] = "max_i32", [0x07] = "min_u32", [0x08] = "max_u32",
	[0x09] = "and_b32", [0x0a] = "or_b32", [0x0b] = "xor_b32",
	[0x0c] = "mskor_b32", [0x10] = "cmpst_b32", [0x11] = "cmpst_f32",
	[0x12] = "min_f32", [0x13] = "max_f32", [0x15] = "add_f32",
	[0x17] = "pk_add_f16", [0x18] = "pk_add_bf16",
	[0x20] = "add_rtn_u32", [0x21] = "sub_rtn_u32", [0x22] = "rsub_rtn_u32",
	[0x23] = "inc_rtn_u32", [0x24] = "dec_rtn_u32", [0x25] = "min_rtn_i32",
	[0x26] = "max_rtn_i32", [0x27] = "min_rtn_u32", [0x28] = "max_rtn_u32",
	[0x29] = "and_rtn_b32", [0x2a] = "or_rtn_b32", [0x2b] = "xor_rtn_b32",
	[0x2c] = "mskor_rtn_b32", [0x2d] = "wrxchg_rtn_b32",
	[0x2e] = "wrxchg2_rtn_b32", [0x2f] = "wrxchg2st64_rtn_b32",
	[0x30] = "cmpst_rtn_b32", [0x31] = "cmpst_rtn_f32",
	[0x32] = "min_rtn_f32", [0x33] = "max_rtn_f32", [0x34] = "wrap_rtn_b32",
	[0x35] = "add_rtn_f32",
	[0x40] = "add_u64", [0x41] = "sub_u64", [0x42] = "rsub_u64",
	[0x43] = "inc_u64", [0x44] = "dec_u64", [0x45] = "min_i64",
	[0x46] = "max_i64", [0x47] = "min_u64", [0x48] = "max_u64",
	[0x49] = "and_b64", [0x4a] = "or_b64", [0x4b] = "xor_b64",
	[0x4c] = "mskor_b64", [0x50] = "cmpst_b64", [0x51] = "cmpst_f64",
	[0x52] = "min_f64", [0x53] = "max_f64", [0x5c] = "add_f64",
	[0x60] = "add_rtn_u64", [0x61] = "sub_rtn_u64", [0x62] = "rsub_rtn_u64",
	[0x63] = "inc_rtn_u64", [0x64] = "dec_rtn_u64", [0x65] = "min_rtn_i64",
	[0x66] = "max_rtn_i64", [0x67] = "min_rtn_u64", [0x68] = "max_rtn_u64",
	[0x69] = "and_rtn_b64", [0x6a] = "or_rtn_b64", [0x6b] = "xor_rtn_b64",
	[0x6c] = "mskor_rtn_b64", [0x6d] = "wrxchg_rtn_b64",
	[0x6e] = "wrxchg2_rtn_b64", [0x6f] = "wrxchg2st64_rtn_b64",
	[0x70] = "cmpst_rtn_b64", [0x71] = "cmpst_rtn_f64",
	[0x72] = "min_rtn_f64", [0x73] = "max_rtn_f64", [0x7c] = "add_rtn_f64",
	[0x7e] = "condxchg32_rtn_b64",
	[0xb7] = "pk_add_rtn_f16", [0xb8] = "pk_add_rtn_bf16",
};

/* Length in bytes of the instruction starting with word w; 0 if unknown. */
static inline unsigned insn_len(uint32_t w)
{
	if (!(w >> 31)) {                  /* VOP2, VOP1, VOPC */
		unsigned src0 = w & 0x1ff;
		if (src0 == 0xff || src0 == 0xf9 || src0 == 0xfa)
			return 8;          /* literal, SDWA or DPP */
		unsigned op = (w >> 25) & 0x3f;
		if (op == 0x17 || op == 0x18 || op == 0x24 || op == 0x25)
			return 8;          /* v_madmk/madak (fmamk/fmaak): literal */
		return 4;
	}
	if ((w >> 30) == 2) {              /* scalar ALU */
		unsigned top9 = w >> 23;
		if (top9 == 0x17d)         /* SOP1 */
			return (w & 0xff) == 0xff ? 8 : 4;
		if (top9 == 0x17e)         /* SOPC */
			return ((w & 0xff) == 0xff || ((w >> 8) & 0xff) == 0xff) ? 8 : 4;
		if (top9 == 0x17f)         /* SOPP */
			return 4;
		if ((w >> 28) == 0xb)      /* SOPK: s_setreg_imm32_b32 has a literal */
			return ((w >> 23) & 0x1f) == 0x14 ? 8 : 4;
		return ((w & 0xff) == 0xff || ((w >> 8) & 0xff) == 0xff) ? 8 : 4;
	}
	switch (w >> 26) {
	case 0x30: /* SMEM */
	case 0x31: /* EXP */
	case 0x34: /* VOP3, VOP3P */
	case 0x36: /* DS */
	case 0x37: /* FLAT, GLOBAL, SCRATCH */
	case 0x38: /* MUBUF */
	case 0x3a: /* MTBUF */
	case 0x3c: /* MIMG */
		return 8;
	case 0x35: /* VINTRP */
		return 4;
	default:
		return 0;
	}
}

unsigned co_isa_len(uint32_t w)
{
	return insn_len(w);
}

/* The cache-policy bits where FLAT/GLOBAL and MUBUF keep them (ds_ has
 * none). */
static uint8_t cpol_bits(uint32_t w, unsigned enc)
{
	unsigned sc0 = enc == 0x37 ? 16 : 14, sc1 = enc == 0x37 ? 25 : 15;

	if (enc != 0x37 && enc != 0x38)
		return 0;
	return (uint8_t)(((w >> sc0) & 1 ? CO_CPOL_SC0 : 0) |
			 ((w >> 17) & 1 ? CO_CPOL_NT : 0) |
			 ((w >> sc1) & 1 ? CO_CPOL_SC1 : 0));
}

/* -1: not ours to name (scalar/image atomics, unknown op) */
static int memory_atomic(uint32_t w, uint64_t addr, co_hit_fn hit, void *ctx)
{
	unsigned enc = w >> 26;
	const char *name = NULL, *prefix = NULL;
	char m[48];
	if (enc == 0x37) {
		unsigned op = (w >> 18) & 0x7f, seg = (w >> 14) & 3;
		if (op < 0x40)
			return 0;
		if (seg == 1 || seg == 3 || !(name = vmem_atomic[op]))
			return -1;
		prefix = seg == 2 ? "global_atomic_" : "flat_atomic_";
	} else if (enc == 0x38) {
		unsigned op = (w >> 18) & 0x7f;
		if (op < 0x40)
			return 0;
		if (!(name = vmem_atomic[op]))
			return -1;
		prefix = "buffer_atomic_";
	} else if (enc == 0x36) {
		if (!(name = ds_atomic[(w >> 17) & 0xff]))
			return 0;
		prefix = "ds_";
	} else if (enc == 0x30) {
		return ((w >> 18) & 0xff) >= 0x40 ? -1 : 0; /* scalar atomics */
	} else if (enc == 0x3c) {
		unsigned op = (w >> 18) & 0x7f;
		return op >= 0x10 && op <= 0x1c ? -1 : 0; /* image atomics */
	} else {
		return 0;
	}
	snprintf(m, sizeof m, "%s%s", prefix, name);
	struct co_insn in;
	if (!co_classify_mnemonic(m, &in))
		return 0;
	in.addr = addr;
	in.cpol = cpol_bits(w, enc);
	hit(ctx, &in);
	return 0;
}

long co_isa_scan(enum co_isa_family fam, const uint8_t *code, size_t n,
		 uint64_t addr, co_hit_fn hit, void *ctx)
{
	if (fam == CO_ISA_UNKNOWN)
		return -1;
	long count = 0;
	size_t pos = 0;
	while (pos + 4 <= n) {
		uint32_t w = hg_load32(code + pos);
		unsigned len = insn_len(w);
		if (!len || pos + len > n)
			return -1;
		/* memory encodings all start with 11 and are 8 bytes */
		if (len == 8 && (w >> 30) == 3 &&
		    memory_atomic(w, addr + pos, hit, ctx) < 0)
			return -1;
		pos += len;
		count++;
	}
	return pos == n ? count : -1;
}
