/* SPDX-License-Identifier: MIT */
/* hipMemPrefetchAsync on memory that cannot migrate (seed 000 tables). */
#include <stdbool.h>

#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/* What the user's runtime does with the call, as far as the trace shows
 * it: the driver refuses shared-virtual-memory attributes on a buffer
 * object (kfd_svm.c, svm_range_is_valid), and ROCr asserts that a
 * prefetch it queued succeeded (Runtime::SvmPrefetch): a build that keeps
 * assertions, as Debian's do, aborts the program there. */
static const char *outcome(const struct an_range_op *o, bool object)
{
	if (o->died)
		return "the driver refused the range and the runtime aborted "
		       "the program inside this call";
	if (o->rc)
		return "the runtime refuses it with an error";
	if (object)
		return "the driver refuses the range, so a ROCm build with "
		       "assertions (Debian's) aborts the program and others "
		       "skip the prefetch";
	return "the runtime accepts it and nothing moves";
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_range_op *o)
{
	struct an_call at = {o->callsite, o->api};
	const char *why;
	bool object = true;

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
		object = false;
		break;
	default:
		return;
	}
	an_find_at(c, r, AN_SEV_WARNING, o->proc, NULL, o->alloc, &at, NULL,
		   "%s on %zu bytes of %s memory has no effect (%s): %s",
		   an_api_name(o->api), (size_t)o->size, an_mem_name(o->mem),
		   why, outcome(o, object));
}

const struct an_rule an_rule_prefetch_unsupported = {
	.id = "prefetch-unsupported",
	.sev = AN_SEV_WARNING,
	.summary = "hipMemPrefetchAsync on memory that cannot migrate",
	.fix = "drop the prefetch, or allocate with hipMallocManaged if the "
	       "data should move to the GPU",
	.on_range = check,
};
