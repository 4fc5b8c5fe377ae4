/* SPDX-License-Identifier: MIT */
/* malloc memory not page-aligned used on the GPU with XNACK on (seed 000). */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	struct an_kernel *k = a->launch->kernel;

	if (a->mem != HG_MEM_SYSTEM || !a->alloc || !a->first_touch)
		return;
	if (!an_proc_xnack_on(a->launch->proc) || (k && k->xnack == HG_FEAT_OFF))
		return;
	/* A block below a page has nothing to align: migration moves the
	 * whole page it lies in, wherever in the page it starts. */
	if (!(a->alloc->addr & 4095) || a->alloc->size < 4096)
		return;
	an_find(c, r, AN_SEV_NOTE, a->launch->proc, k, a->alloc,
		"%s gets %zu bytes of %s memory at 0x%llx (argument %u), not "
		"aligned to a 4 KiB page; page migration may be slower or not "
		"happen for it",
		an_kernel_label(k), (size_t)a->alloc->size,
		an_api_name(a->alloc->api), (unsigned long long)a->alloc->addr,
		a->index);
}

const struct an_rule an_rule_migratable_misaligned = {
	.id = "migratable-misaligned",
	.sev = AN_SEV_NOTE,
	.summary = "migratable system memory not aligned to a page",
	.fix = "allocate with aligned_alloc(4096, ...) or new "
	       "(std::align_val_t(4096)), or use hipMallocManaged",
	.fix_omp = "allocate with aligned_alloc(4096, ...) or "
		   "posix_memalign, or give the region its own copy with "
		   "omp_target_alloc",
	.on_launch_arg = check,
	.arg_mems = AN_MEM_BIT(HG_MEM_SYSTEM),
};
