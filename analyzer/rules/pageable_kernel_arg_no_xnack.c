/* SPDX-License-Identifier: MIT */
/* malloc/new memory handed to a kernel while XNACK is off: the GPU faults. */
#include "an_drv.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/* Why the GPU cannot reach this argument's pages, or NULL when it can. */
static const char *fault_reason(const struct an_launch_arg *a)
{
	struct an_proc *p = a->launch->proc;
	struct an_kernel *k = a->launch->kernel;

	if (a->mem != HG_MEM_SYSTEM)
		return NULL;
	/* hipMemAdvise(SetAccessedBy) opened the block to a GPU: the driver
	 * mapped it without XNACK. */
	if (a->alloc && p->kfd &&
	    an_svm_gpu_mapped(&p->kfd->svm, a->alloc->addr,
			      a->alloc->addr + a->alloc->size))
		return NULL;
	if (!an_proc_xnack_on(p))
		return p->have_device ? "the GPU runs with XNACK off"
				      : "HSA_XNACK is not 1";
	if (k && k->xnack == HG_FEAT_OFF)
		return "the kernel's code object is built xnack-";
	return NULL;
}

bool an_arg_faults(const struct an_launch_arg *a)
{
	return fault_reason(a) != NULL;
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	struct an_proc *p = a->launch->proc;
	struct an_kernel *k = a->launch->kernel;
	const char *why = fault_reason(a);

	if (!why)
		return;
	an_find_arg(c, r, AN_SEV_ERROR, p, k, a->alloc, a->index,
		"%s gets pageable %s memory as argument %u while %s: the GPU "
		"cannot fault the pages in and the kernel will stop with a "
		"memory access fault",
		an_kernel_label(k), a->alloc ? an_api_name(a->alloc->api) : "malloc",
		a->index, why);
}

const struct an_rule an_rule_pageable_kernel_arg_no_xnack = {
	.id = "pageable-kernel-arg-no-xnack",
	.sev = AN_SEV_ERROR,
	.summary = "pageable (malloc/new) memory passed to a kernel with XNACK "
		   "off",
	.fix = "allocate with hipMalloc or hipMallocManaged (or pin with "
	       "hipHostRegister); or run with HSA_XNACK=1 on a GPU that "
	       "supports it, with code built for xnack+ or xnack any",
	.fix_omp = "map the data into the target region (map(to: ...) or "
		   "map(tofrom: ...)) instead of handing the region a host "
		   "pointer, or allocate it with omp_target_alloc; or run with "
		   "HSA_XNACK=1 on a GPU that supports it, with code built for "
		   "xnack+ or xnack any",
	.on_launch_arg = check,
	.arg_mems = AN_MEM_BIT(HG_MEM_SYSTEM),
};
