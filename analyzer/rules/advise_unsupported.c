/* SPDX-License-Identifier: MIT */
/* hipMemAdvise on hipMalloc / hipHostMalloc memory (seed 000 tables). */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_range_op *o)
{
	if (o->prefetch)
		return;
	if (o->mem != HG_MEM_DEVICE && o->mem != HG_MEM_DEVICE_FINE &&
	    o->mem != HG_MEM_HOST_PINNED && o->mem != HG_MEM_HOST_REGISTERED)
		return;
	an_find(c, r, AN_SEV_WARNING, o->proc, NULL, o->alloc,
		"hipMemAdvise(advice %d) on %s memory: this allocator does not "
		"support advice, so the call changes nothing",
		o->advice, an_mem_name(o->mem));
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
