/* SPDX-License-Identifier: MIT */
/* hipMemPrefetchAsync on memory that cannot migrate (seed 000 tables). */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_range_op *o)
{
	const char *why;

	if (!o->prefetch)
		return;
	switch (o->mem) {
	case HG_MEM_DEVICE:
	case HG_MEM_DEVICE_FINE:
		why = "device memory never migrates";
		break;
	case HG_MEM_HOST_PINNED:
	case HG_MEM_HOST_REGISTERED:
		why = "pinned host memory never migrates";
		break;
	case HG_MEM_SYSTEM:
		if (an_proc_xnack_on(o->proc))
			return;
		why = "malloc memory only migrates with XNACK on";
		break;
	default:
		return;
	}
	an_find(c, r, AN_SEV_WARNING, o->proc, NULL, o->alloc,
		"hipMemPrefetchAsync on %zu bytes of %s memory has no effect: %s",
		(size_t)o->size, an_mem_name(o->mem), why);
}

const struct an_rule an_rule_prefetch_unsupported = {
	.id = "prefetch-unsupported",
	.sev = AN_SEV_WARNING,
	.summary = "hipMemPrefetchAsync on memory that cannot migrate",
	.fix = "drop the prefetch, or allocate with hipMallocManaged if the "
	       "data should move to the GPU",
	.on_range = check,
};
