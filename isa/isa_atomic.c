/* SPDX-License-Identifier: MIT */
/*
 * Hardware atomics by product and memory.  Sources:
 *  [talk] "AMD Node Memory Model", HLRS, September 2023 (seed 000): on
 *         MI200 hardware FP atomics on fine-grained memory "silently fail";
 *         unsafe FP atomics are safe on coarse-grained memory.
 *  [hip]  HIP programming guide, coherence control: coarse- and
 *         fine-grained memory and the atomics each supports.
 *  [rocm] ROCm "Hardware atomics operation support" (MI100, MI200, MI300
 *         tables): over PCIe only add, exchange and compare-swap reach
 *         host memory; MI300 executes FP atomics on fine-grained memory,
 *         downgrading system scope to device scope over PCIe.
 */
#include "isa_atomic.h"

struct row {
	unsigned fams;
	enum isa_aclass op;
	enum isa_amem mem;
	int lands;		/* -1: lands only when the link carries it */
	const char *source;
};

static const struct row rows[] = {
	{ ISA_GFX908 | ISA_GFX90A, ISA_A_FP, ISA_M_FINE_DEVICE, 0,
	  "[talk] MI100/MI200: hardware FP atomics on fine-grained memory are NOPs" },
	{ ISA_GFX908 | ISA_GFX90A, ISA_A_FP, ISA_M_FINE_HOST, 0,
	  "[talk] MI100/MI200: hardware FP atomics on fine-grained memory are NOPs" },
	{ ISA_GFX908 | ISA_GFX90A, ISA_A_INT_OTHER, ISA_M_FINE_HOST, -1,
	  "[rocm] MI100/MI200 over PCIe: min/max/and/or/xor/inc/dec do not reach host memory" },
	{ ISA_GFX940, ISA_A_FP, ISA_M_FINE_HOST, 1,
	  "[rocm] MI300: FP atomics on fine-grained host memory execute (system scope downgraded to device)" },
	{ ISA_GFX940, ISA_A_INT_OTHER, ISA_M_FINE_HOST, 1,
	  "[rocm] MI300: integer atomics on fine-grained host memory execute" },
};

static const struct row *find(enum isa_family fam, enum isa_aclass op, enum isa_amem mem)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if ((rows[i].fams & fam) && rows[i].op == op && rows[i].mem == mem)
			return &rows[i];
	return NULL;
}

int isa_atomic_lands(enum isa_family fam, enum isa_aclass op, enum isa_amem mem,
		     int host_link_atomics)
{
	const struct row *r = find(fam, op, mem);
	if (!r)
		return 1;	/* [hip] coarse-grained memory: every atomic */
	return r->lands < 0 ? host_link_atomics : r->lands;
}

const char *isa_atomic_source(enum isa_family fam, enum isa_aclass op, enum isa_amem mem)
{
	const struct row *r = find(fam, op, mem);
	return r ? r->source : "[hip] coarse-grained memory supports every atomic";
}
