/* SPDX-License-Identifier: MIT */
/*
 * `#pragma omp requires unified_shared_memory` with XNACK off: target
 * regions reach host memory only through XNACK page faults, so the runtime
 * cannot honour the requirement (seed 000: "export HSA_XNACK=1").
 */
#include "an_rule.h"

#define OMP_REQ_USM 0x8 /* __tgt_register_requires flags (omptarget.h) */

static void check(struct an_ctx *c, const struct an_rule *r, struct an_proc *p)
{
	if (!(p->omp_requires & OMP_REQ_USM) || an_proc_xnack_on(p))
		return;
	an_find(c, r, AN_SEV_ERROR, p, NULL, NULL,
		"the program requires unified_shared_memory but runs with "
		"XNACK off (%s): target regions cannot reach host memory, so "
		"the OpenMP runtime refuses to offload them or their kernels "
		"stop with a memory access fault",
		p->have_device ? "the GPU reports xnack-"
			       : "HSA_XNACK is not 1");
}

const struct an_rule an_rule_usm_without_xnack = {
    .id = "usm-without-xnack",
    .sev = AN_SEV_ERROR,
    .summary = "unified_shared_memory required while XNACK is off",
    .fix = "run with HSA_XNACK=1 on a GPU that supports it (MI200, MI300) "
	   "with code built for xnack+ or xnack any; or drop `requires "
	   "unified_shared_memory` and map the data",
    .on_end = check,
};
