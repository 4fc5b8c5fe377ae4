/* SPDX-License-Identifier: MIT */
/* hipHostMalloc with both Coherent and NonCoherent (seed 001: illegal). */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

#define HIP_HOST_MALLOC_COHERENT 0x40000000u
#define HIP_HOST_MALLOC_NON_COHERENT 0x80000000u

static void check(struct an_ctx *c, const struct an_rule *r, struct an_proc *p,
		  const struct an_alloc *a)
{
	const uint32_t both = HIP_HOST_MALLOC_COHERENT | HIP_HOST_MALLOC_NON_COHERENT;

	if (a->api != HG_API_HIP_HOST_MALLOC && a->api != HG_API_HIP_HOST_ALLOC &&
	    a->api != HG_API_HIP_EXT_HOST_ALLOC)
		return;
	if ((a->flags & both) != both)
		return;
	an_find(c, r, AN_SEV_ERROR, p, NULL, a,
		"%s(flags=0x%x) asks for coherent and non-coherent memory at "
		"once; the combination is illegal",
		an_api_name(a->api), a->flags);
}

const struct an_rule an_rule_host_malloc_illegal_flags = {
	.id = "host-malloc-illegal-flags",
	.sev = AN_SEV_ERROR,
	.summary = "hipHostMalloc with Coherent and NonCoherent together",
	.fix = "pass hipHostMallocCoherent (fine-grained, visible during the "
	       "kernel) or hipHostMallocNonCoherent (coarse-grained, cached), "
	       "not both",
	.on_alloc = check,
};
