/* SPDX-License-Identifier: MIT */
/*
 * A kernel synchronized with the host through coarse-grained memory: the
 * virtual GPU's L2 served it a line the host had since written
 * (an_stale.c makes the finding).  Coarse-grained memory is coherent only
 * at kernel boundaries; a flag or a result exchanged while the kernel
 * runs must live in fine-grained memory.
 */
#include "an_rule.h"

const struct an_rule an_rule_coarse_sync = {
    .id = "coarse-sync",
    .sev = AN_SEV_ERROR,
    .summary = "a kernel waits for, or reads, the host's write through "
	       "coarse-grained memory while it runs",
    .fix = "put the flag or the exchanged data in fine-grained memory "
	   "(hipHostMalloc without hipHostMallocNonCoherent, or "
	   "hipMemAdvise(UnsetCoarseGrain) on managed memory), or exchange it "
	   "only between kernels",
};
