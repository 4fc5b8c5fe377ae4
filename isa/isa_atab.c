/* SPDX-License-Identifier: MIT */
#include "isa_atab.h"

#include <stdio.h>
#include <string.h>

struct row {
	unsigned char cell[ISA_ATAB_NCOLS];
	const char *source;
};

/* [table][pcie atomics][memory][granularity][scope][operation] */
#define ROW(t, p, m, g, s, op, c0, c1, c2, c3, c4, c5, src) \
	[t][p][m][g][s][op] = { { c0, c1, c2, c3, c4, c5 }, src },
static const struct row tab[2][2][3][2][2][ISA_ATAB_NOPS] = {
#include "isa_atab.def"
};
#undef ROW
_Static_assert(ISA_ATAB_GEN_NOPS == ISA_ATAB_NOPS,
	       "atomics/amd-atomics.tsv and isa_atab.h name the same operations");

#define ISA_ATAB_X(id, name) name,
static const char *const col_names[] = { ISA_ATAB_COLS(ISA_ATAB_X) };
static const char *const op_names[] = { ISA_ATAB_OPS(ISA_ATAB_X) };
static const char *const cell_names[] = { ISA_ATAB_CELLS(ISA_ATAB_X) };
#undef ISA_ATAB_X

const char *isa_atab_col_name(enum isa_atab_col c)
{
	return (unsigned)c < ISA_ATAB_NCOLS ? col_names[c] : "?";
}

const char *isa_atab_op_name(enum isa_atab_op op)
{
	return (unsigned)op < ISA_ATAB_NOPS ? op_names[op] : "?";
}

const char *isa_atab_cell_name(enum isa_atab_cell c)
{
	return (unsigned)c < ISA_ATAB_NCELLS ? cell_names[c] : "?";
}

enum isa_atab_cell isa_atab_raw(enum isa_atab_table t, int pcie_atomics,
				enum isa_atab_mem m, enum isa_atab_gran g,
				enum isa_atab_scope s, enum isa_atab_op op,
				enum isa_atab_col col, const char **source)
{
	const struct row *r = &tab[t != ISA_ATAB_HW][!!pcie_atomics][m][g][s][op];
	if (source)
		*source = r->source;
	return (enum isa_atab_cell)r->cell[col];
}

int isa_atab_lands(enum isa_atab_cell c)
{
	return c != ISA_ATAB_NOP;
}

static int proc_is(const char *target, const char *proc)
{
	size_t n = strcspn(target, ":");
	return strlen(proc) == n && !strncmp(target, proc, n);
}

static void say(char *buf, size_t cap, const char *what)
{
	if (buf && cap)
		snprintf(buf, cap, "%s", what);
}

int isa_atab_column(const char *target, const struct isa_atab_facts *f,
		    char *assumed, size_t cap)
{
	say(assumed, cap, "");
	if (!target)
		return -1;
	if (proc_is(target, "gfx908"))
		return ISA_ATAB_MI100;
	if (proc_is(target, "gfx90a")) {
		if (f->cpu_link == ISA_LINK_XGMI)
			return ISA_ATAB_MI200_AA;
		if (f->cpu_link == ISA_LINK_UNKNOWN)
			say(assumed, cap, "CPU link unknown, judged as PCIe (MI200-PCIe)");
		return ISA_ATAB_MI200_PCIE;
	}
	if (proc_is(target, "gfx940") || proc_is(target, "gfx941") ||
	    proc_is(target, "gfx942") || proc_is(target, "gfx9-4-generic")) {
		if (f->apu == ISA_FACT_YES)
			return ISA_ATAB_MI300A;
		if (f->apu == ISA_FACT_UNKNOWN)
			say(assumed, cap, "APU or discrete unknown, judged as discrete (MI300X)");
		return ISA_ATAB_MI300X;
	}
	if (proc_is(target, "gfx950"))
		return ISA_ATAB_MI350X;
	return -1;
}

/* The cell the other reading of an unknown fact would give: the
 * assumption is worth saying only where it changes the answer. */
static enum isa_atab_cell other_link(const struct isa_atab_query *q, int col, int pcie)
{
	int alt = col == ISA_ATAB_MI200_PCIE ? ISA_ATAB_MI200_AA :
		  col == ISA_ATAB_MI300X ? ISA_ATAB_MI300A : col;
	return isa_atab_raw(q->table, pcie, q->mem, q->gran, q->scope, q->op,
			    (enum isa_atab_col)alt, NULL);
}

int isa_atab_lookup(const struct isa_atab_query *q, struct isa_atab_answer *out)
{
	char col_assumed[96];
	int col = isa_atab_column(q->target, &q->facts, col_assumed, sizeof(col_assumed));
	int pcie = q->facts.pcie_atomics != ISA_FACT_NO;
	if (col < 0)
		return -1;
	out->col = (enum isa_atab_col)col;
	out->pcie_atomics = pcie;
	out->cell = isa_atab_raw(q->table, pcie, q->mem, q->gran, q->scope, q->op,
				 out->col, &out->source);
	out->assumed[0] = '\0';
	if (col_assumed[0] && other_link(q, col, pcie) != out->cell)
		snprintf(out->assumed, sizeof(out->assumed), "%s", col_assumed);
	if (q->facts.pcie_atomics == ISA_FACT_UNKNOWN &&
	    isa_atab_raw(q->table, 0, q->mem, q->gran, q->scope, q->op, out->col,
			 NULL) != out->cell) {
		size_t n = strlen(out->assumed);
		snprintf(out->assumed + n, sizeof(out->assumed) - n, "%s%s",
			 n ? "; " : "", "PCIe AtomicOps unknown, judged as present");
	}
	return 0;
}
