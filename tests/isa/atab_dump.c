/* SPDX-License-Identifier: MIT */
/*
 * Every cell of the compiled atomics table, asked through the lookup the
 * consumers use (a target and the machine's facts, not the array), printed
 * in the transcription's own columns for tests/isa/test_atab.py.
 */
#include <stdio.h>

#include "isa_atab.h"

/* A target and the facts that pick each product column. */
static const struct {
	const char *target;
	enum isa_link link;
	enum isa_fact apu;
} machines[ISA_ATAB_NCOLS] = {
	{ "gfx908", ISA_LINK_PCIE, ISA_FACT_NO },
	{ "gfx90a:xnack-", ISA_LINK_PCIE, ISA_FACT_NO },
	{ "gfx90a", ISA_LINK_XGMI, ISA_FACT_NO },
	{ "gfx942", ISA_LINK_PCIE, ISA_FACT_NO },
	{ "gfx942:xnack+", ISA_LINK_XGMI, ISA_FACT_YES },
	{ "gfx950", ISA_LINK_PCIE, ISA_FACT_NO },
};

static const char *const mems[] = { "device", "migratable-host", "pinned-host" };

static int row(struct isa_atab_query *q, int pcie)
{
	const char *src = "";
	printf("%s\t%s\t%s\t%s\t%s\t%s", q->table == ISA_ATAB_HW ? "hw" : "cas",
	       pcie ? "yes" : "no", mems[q->mem], q->gran ? "fine" : "coarse",
	       q->scope ? "system" : "device", isa_atab_op_name(q->op));
	for (int c = 0; c < ISA_ATAB_NCOLS; c++) {
		struct isa_atab_answer a;
		q->target = machines[c].target;
		q->facts = (struct isa_atab_facts){ machines[c].link,
						    pcie ? ISA_FACT_YES : ISA_FACT_NO,
						    machines[c].apu };
		if (isa_atab_lookup(q, &a) < 0 || (int)a.col != c || a.assumed[0])
			return -1;
		printf("\t%s", isa_atab_cell_name(a.cell));
		src = a.source;
	}
	printf("\t%s\n", src);
	return 0;
}

int main(void)
{
	for (int t = 0; t < 2; t++)
		for (int p = 0; p < 2; p++)
			for (int m = 0; m < 3; m++)
				for (int g = 0; g < 2; g++)
					for (int s = 0; s < 2; s++)
						for (int op = 0; op < ISA_ATAB_NOPS; op++) {
							struct isa_atab_query q = {
								.table = (enum isa_atab_table)t,
								.mem = (enum isa_atab_mem)m,
								.gran = (enum isa_atab_gran)g,
								.scope = (enum isa_atab_scope)s,
								.op = (enum isa_atab_op)op };
							if (row(&q, p) < 0) {
								fprintf(stderr, "atab-dump: no column\n");
								return 1;
							}
						}
	return 0;
}
