/* SPDX-License-Identifier: MIT */
/* hipMemAdvise on hipMalloc / hipHostMalloc memory (seed 000 tables). */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/* At the advise call's line (the call it is about), the advice named as
 * HIP names it. */
static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_range_op *o)
{
	struct an_call at = {o->callsite, o->api};
	char num[24];

	if (o->prefetch)
		return;
	if (o->mem != HG_MEM_DEVICE && o->mem != HG_MEM_DEVICE_FINE &&
	    o->mem != HG_MEM_HOST_PINNED && o->mem != HG_MEM_HOST_REGISTERED)
		return;
	an_find_at(c, r, AN_SEV_WARNING, o->proc, NULL, o->alloc, &at, NULL,
		   "%s(%s) on %s memory: this allocator does not support "
		   "advice, so the call changes nothing",
		   an_api_name(o->api), an_advice_name(o->advice, num, sizeof(num)),
		   an_mem_name(o->mem));
}

const struct an_rule an_rule_advise_unsupported = {
	.id = "advise-unsupported",
	.sev = AN_SEV_WARNING,
	.summary = "hipMemAdvise on memory that does not support advice",
	.fix = "use hipMallocManaged (or malloc with XNACK on) for memory you "
	       "advise; for hipHostMalloc pick the granularity with "
	       "hipHostMallocNonCoherent/Coherent instead",
	.on_range = check,
};
