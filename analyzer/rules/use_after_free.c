/* SPDX-License-Identifier: MIT */
/* A launch, copy, advice or free naming a block already freed. */
#include <stdbool.h>
#include <stdio.h>

#include "an_names.h"
#include "an_rule.h"

/* `at` is the call that used the block (a launch's call site is recorded
 * only where an argument was in no live block; older traces have none);
 * the free that released the block goes with it. */
static void report(struct an_ctx *c, const struct an_rule *r,
		   struct an_proc *p, struct an_kernel *k, uint64_t addr,
		   const char *what, const struct an_call *at)
{
	const struct an_alloc *old = an_freed_find(p, addr);
	const struct an_call *by;

	if (!old)
		return;
	by = an_freed_call(p, old);
	an_find_at(c, r, AN_SEV_ERROR, p, k, old, at, by,
		   "%s uses 0x%llx, inside %zu bytes from %s that %s had "
		   "freed", what, (unsigned long long)addr, (size_t)old->size,
		   an_api_name(old->api),
		   by->api ? an_api_name(by->api) : "a free");
}

static __attribute__((noinline)) void
report_arg(struct an_ctx *c, const struct an_rule *r,
	   const struct an_launch_arg *a)
{
	struct an_call at = {a->launch->callsite, a->launch->api};
	char what[160];

	/* Pointers to memory never tracked (the stack, statics) come here at
	 * every launch: the description is made only for a freed block. */
	if (!an_freed_find(a->launch->proc, a->value))
		return;
	snprintf(what, sizeof(what), "%s (argument %u) launched by %s",
		 an_kernel_label(a->launch->kernel), a->index,
		 an_api_name(a->launch->api));
	report(c, r, a->launch->proc, a->launch->kernel, a->value, what,
	       a->launch->callsite ? &at : NULL);
}

/* Every argument comes here: the test is kept apart from report_arg's
 * buffer, whose set-up would cost each of them. */
static void on_arg(struct an_ctx *c, const struct an_rule *r,
		   const struct an_launch_arg *a)
{
	/* An id means the block was live when the preload resolved it. */
	if (!a->alloc && !a->id && a->value)
		report_arg(c, r, a);
}

static void on_copy(struct an_ctx *c, const struct an_rule *r,
		    const struct an_copy *o)
{
	struct an_call at = {o->callsite, o->api};

	if (!o->dst_id && o->dst)
		report(c, r, o->proc, NULL, o->dst, an_api_name(o->api), &at);
	if (!o->memset && !o->src_id && o->src)
		report(c, r, o->proc, NULL, o->src, an_api_name(o->api), &at);
}

static void on_range(struct an_ctx *c, const struct an_rule *r,
		     const struct an_range_op *o)
{
	struct an_call at = {o->callsite, o->api};

	if (!o->id && o->addr)
		report(c, r, o->proc, NULL, o->addr, an_api_name(o->api), &at);
}

/* The HIP runtime's own release of a block a HIP free let go: ROCclr
 * defers it to its device thread while a finished command still holds
 * the block, so the HSA call comes after hipFree or hipHostFree returned,
 * outside it, at the block's first byte.  The program freed it once. */
static bool runtime_release(const struct an_free_ev *f)
{
	const struct an_alloc *old = an_freed_find(f->proc, f->addr);
	const struct an_call *by = old ? an_freed_call(f->proc, old) : NULL;

	return old && by && old->addr == f->addr && hg_api_lib(f->api) == HG_LIB_HSA &&
	       hg_api_lib(old->api) == HG_LIB_HIP && hg_api_lib(by->api) == HG_LIB_HIP;
}

static void on_free(struct an_ctx *c, const struct an_rule *r,
		    const struct an_free_ev *f)
{
	struct an_call at = {f->callsite, f->api};
	char what[64];

	if (f->id || !f->addr || runtime_release(f))
		return;
	snprintf(what, sizeof(what), "%s (a double free)", an_api_name(f->api));
	report(c, r, f->proc, NULL, f->addr, what, &at);
}

const struct an_rule an_rule_use_after_free = {
	.id = "use-after-free",
	.sev = AN_SEV_ERROR,
	.summary = "freed memory used by a kernel, copy or free",
	.fix = "free the block after its last use on the GPU (after the "
	       "stream or device is synchronised), and clear the pointer",
	.fix_omp = "free the block after the last target region that uses "
		   "it has finished (a nowait region only after its taskwait), "
		   "release its device copy first (target exit data "
		   "map(delete: ...)), and clear the pointer",
	.on_launch_arg = on_arg,
	.on_copy = on_copy,
	.on_range = on_range,
	.on_free = on_free,
};
