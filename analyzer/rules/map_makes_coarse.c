/* SPDX-License-Identifier: MIT */
/*
 * An OpenMP map under `requires unified_shared_memory` switched pages to
 * coarse grain, and they stay coarse for the rest of their life (seed 000,
 * "coarse grain is sticky"): fast FP atomics on them work from then on, but
 * anything that relied on fine grain (the host and the GPU synchronising
 * through a flag or an atomic in that memory) no longer sees the other side.
 */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_gran_ev *g)
{
	if (g->source != HG_GRAN_SRC_OMP_MAP || g->gran != HG_GRAN_COARSE)
		return;
	an_find(c, r, AN_SEV_NOTE, g->proc, NULL, g->alloc,
		"a map under unified_shared_memory switched %llu bytes of %s "
		"memory to coarse grain for the rest of its life: the GPU's "
		"writes reach the host only at kernel boundaries, so CPU/GPU "
		"synchronisation through this memory (flags, atomics) no "
		"longer works, even in regions that do not map it",
		(unsigned long long)g->size, an_mem_name(g->alloc->mem));
}

const struct an_rule an_rule_map_makes_coarse = {
    .id = "map-makes-coarse",
    .sev = AN_SEV_NOTE,
    .summary = "an OpenMP map made pages coarse-grained for good",
    .fix = "nothing to do if coarse grain is what you want (it makes fast "
	   "FP atomics safe); to keep memory fine-grained for CPU/GPU "
	   "synchronisation, do not map it under unified_shared_memory "
	   "(regions reach it directly) and allocate what you map "
	   "separately",
    .on_gran = check,
};
