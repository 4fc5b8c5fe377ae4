/* SPDX-License-Identifier: MIT */
/* Mnemonics by format and opcode, from the one table. */
#include <string.h>

#include "isa.h"

enum { G908 = ISA_GFX908, G90A = ISA_GFX90A, G940 = ISA_GFX940,
       GALL = G908 | G90A | G940 };

static const struct row {
	uint8_t fmt, fams;
	uint16_t op;
	const char *name;
} rows[] = {
#define ISA_OP(fmt, op, fams, name) { ISA_##fmt, fams, op, #name },
#include "isa_ops.def"
#undef ISA_OP
};

/* The table is sorted by format, then opcode: a binary search finds the
 * first row of fmt/op, and the rows after it differ by family. */
const char *isa_name(enum isa_family fam, unsigned fmt, unsigned op)
{
	size_t lo = 0, hi = sizeof(rows) / sizeof(rows[0]);
	uint32_t key = fmt << 16 | op;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if ((uint32_t)(rows[mid].fmt << 16 | rows[mid].op) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < sizeof(rows) / sizeof(rows[0]) &&
	       (uint32_t)(rows[lo].fmt << 16 | rows[lo].op) == key; lo++)
		if (rows[lo].fams & fam)
			return rows[lo].name;
	return NULL;
}

const char *isa_fmt_name(unsigned fmt)
{
	static const char *const names[ISA_NFMT] = {
		"SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1",
		"VOPC", "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL", "SCRATCH",
		"MUBUF", "MTBUF", "MIMG", "EXP", "VINTRP",
	};
	return fmt < ISA_NFMT ? names[fmt] : "?";
}

enum isa_family isa_family_of(const char *proc)
{
	if (!strcmp(proc, "gfx908"))
		return ISA_GFX908;
	if (!strcmp(proc, "gfx90a"))
		return ISA_GFX90A;
	if (!strcmp(proc, "gfx940") || !strcmp(proc, "gfx941") ||
	    !strcmp(proc, "gfx942") || !strcmp(proc, "gfx9-4-generic"))
		return ISA_GFX940;
	return ISA_UNKNOWN;
}
