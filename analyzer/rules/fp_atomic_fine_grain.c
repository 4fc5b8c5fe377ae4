/* SPDX-License-Identifier: MIT */
/* Hardware FP atomic RMW on fine-grained memory: a NOP on MI100/MI200. */
#include <string.h>

#include "an_atomic.h"
#include "an_names.h"
#include "an_rule.h"

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	struct an_kernel *k = a->launch->kernel;
	const char *arch;
	enum an_atomic_effect e;
	char split[256];

	if (!k || !k->profiled || k->status < 0 || !k->fp_ops ||
	    an_arg_faults(a))
		return;
	arch = an_arch(a->launch->proc, k);
	e = an_atomic_effect(arch, k->fp_ops, a->mem, a->gran);
	an_split_note(a, split, sizeof(split));
	if (e == AN_ATOMIC_NOP)
		an_find(c, r, AN_SEV_ERROR, a->launch->proc, k, a->alloc,
			"%s uses hardware FP atomics (%s) and argument %u points "
			"into %s-grained %s memory%s; on %.*s these atomics are "
			"silently dropped (NOP), so results are wrong",
			an_kernel_label(k), k->fp_mnemonics, a->index,
			an_gran_name(a->gran), an_mem_name(a->mem), split,
			(int)strcspn(arch, ":"), arch);
	else if (e == AN_ATOMIC_SCOPE_DOWNGRADE)
		an_find(c, r, AN_SEV_WARNING, a->launch->proc, k, a->alloc,
			"%s uses hardware FP atomics (%s) on fine-grained %s "
			"memory (argument %u); on %.*s over PCIe, system scope is "
			"downgraded to device scope: the host and other GPUs do "
			"not see them atomically",
			an_kernel_label(k), k->fp_mnemonics, an_mem_name(a->mem),
			a->index, (int)strcspn(arch, ":"), arch);
}

const struct an_rule an_rule_fp_atomic_fine_grain = {
	.id = "fp-atomic-fine-grain",
	.sev = AN_SEV_ERROR,
	.summary = "hardware FP atomics on fine-grained memory",
	.fix = "allocate with hipMalloc, or hipMemAdvise(ptr, size, "
	       "hipMemAdviseSetCoarseGrain, dev) the whole range, or "
	       "hipHostMallocNonCoherent for host memory; or compile with "
	       "-mno-unsafe-fp-atomics / use atomicAdd instead of "
	       "unsafeAtomicAdd to get a CAS loop",
	.on_launch_arg = check,
};
