/* SPDX-License-Identifier: MIT */
/*
 * Managed memory first touched by a kernel without a prefetch.  A block
 * smaller than a page costs one fault at most, shared with its neighbours
 * (a kernel's small result, a counter): only blocks of a page or more are
 * worth a prefetch.  hipgrain-hazards(7) states the size.
 */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

#define MANAGED_PAGE 4096u

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	if (a->mem != HG_MEM_MANAGED || !a->alloc || !a->first_touch ||
	    a->alloc->prefetched || a->alloc->size < MANAGED_PAGE)
		return;
	an_find(c, r, AN_SEV_NOTE, a->launch->proc, a->launch->kernel, a->alloc,
		"%s is the first to touch %zu bytes of managed memory "
		"(argument %u) and nothing prefetched it: pages move on demand, "
		"fault by fault",
		an_kernel_label(a->launch->kernel), (size_t)a->alloc->size,
		a->index);
}

const struct an_rule an_rule_managed_no_prefetch = {
	.id = "managed-no-prefetch",
	.sev = AN_SEV_NOTE,
	.summary = "managed memory first touched by a kernel without prefetch",
	.fix = "hipMemPrefetchAsync(ptr, size, device, stream) before the first "
	       "launch that uses it",
	.on_launch_arg = check,
	.arg_mems = AN_MEM_BIT(HG_MEM_MANAGED),
};
