/* SPDX-License-Identifier: MIT */
/* Integer sub/min/max/and/or/xor/inc/dec on fine-grained host memory (and
 * add, exchange and compare-swap too where PCIe carries no AtomicOps). */
#include <stdio.h>
#include <string.h>

#include "an_atomic.h"
#include "an_drv.h"
#include "an_link.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/* Every integer atomic: AMD's tables say which of them a machine drops. */
#define AN_INT_PCIE_NOP (HG_AOP_INT_MASK | HG_AOP_CMPSWAP)

/* A kernel whose code object was read and has the atomics in question. */
static bool args_matter(const struct an_launch *l)
{
	const struct an_kernel *k = l->kernel;

	return k && (k->int_ops & AN_INT_PCIE_NOP) && k->profiled &&
	       k->status >= 0;
}

/* Managed pages prefetched to the GPU are in device memory there; under
 * XNACK so are those a GPU touches, as its fault moves them there (the
 * runtime opens managed memory to every GPU with ACCESS and no preferred
 * location; kfd_svm.c, svm_range_best_restore_location), unless advice
 * keeps some of them in host memory. */
static bool managed_on_gpu(const struct an_launch_arg *a)
{
	struct an_proc *p = a->launch->proc;

	if (a->alloc->on_gpu)
		return true;
	return an_proc_xnack_on(p) &&
	       !(p->kfd && an_svm_stays(&p->kfd->svm, a->alloc->addr,
					a->alloc->addr + a->alloc->size));
}

/* The first occurrence: the finding's message, each dropped operation at
 * its own line. */
static struct an_finding *record(struct an_ctx *c, const struct an_rule *r,
				 const struct an_launch_arg *a, uint32_t ops,
				 const char *arch, const char *lines)
{
	struct an_kernel *k = a->launch->kernel;
	char names[128], split[256], on[320];

	an_atomic_lines_text(lines, an_aop_names(ops, names, sizeof(names)),
			     on, sizeof(on));
	return an_find(c, r, AN_SEV_WARNING, a->launch->proc, k, a->alloc,
		"%s uses integer atomics %s and argument %u points into "
		"fine-grained %s memory%s; on %.*s these are NOPs when the host "
		"is reached over PCIe, and work only over Infinity Fabric "
		"(CPU-GPU coherent A+A systems)",
		an_kernel_label(k), on, a->index, an_mem_name(a->mem), an_split_note(a, split, sizeof(split)),
		(int)strcspn(arch, ":"), arch);
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	struct an_kernel *k = a->launch->kernel;
	uint32_t ops = k ? k->int_ops & AN_INT_PCIE_NOP : 0, named, dropped;
	const char *arch;
	char at[96], lines[192];
	struct an_finding *f;
	struct isa_atab_facts facts;

	/* Each risky instruction with the argument it reaches: an add into
	 * host memory and a max into device memory is no finding. */
	if (!args_matter(a->launch) || an_arg_faults(a) ||
	    !an_sites_reach_ops(k->int_sites, a->index, AN_INT_PCIE_NOP,
				&named, at, sizeof(at)))
		return;
	if (named)
		ops = named;
	if (a->mem == HG_MEM_MANAGED && a->alloc && managed_on_gpu(a))
		return;
	arch = an_arch(a->launch->proc, k);
	/* Infinity Fabric to the CPU carries every integer atomic: only a
	 * GPU on PCIe loses them (the ROCm atomics table, whose MI200 A+A
	 * column says so for the machines the trace knows are wired so). */
	an_link_atab_facts(a->launch->proc, &facts);
	dropped = an_atomic_dropped(arch, &facts, ops, a->mem, a->gran);
	if (!dropped)
		return;
	/* The lines are those of the atomics the machine drops, each its
	 * own: never an add's that lands beside them. */
	if (!an_sites_reach_ops(k->int_sites, a->index, dropped, &named, at, sizeof(at)))
		return;
	co_sites_lines(k->int_sites, a->index, dropped, AN_SCOPES_ALL, lines,
		       sizeof(lines));
	/* A finding recorded already is only counted, not formatted again. */
	f = an_count(c, r, AN_SEV_WARNING, a->launch->proc, k, a->alloc);
	if (!f)
		f = record(c, r, a, dropped, arch, lines);
	/* The latest occurrence names the lines. */
	if (f)
		an_atomic_lines_set(f, lines);
}

/* "; the atomic is at app.hip:7", "; the atomics are at a.hip:7 and
 * a.hip:8". */
static const char *atomics_at(const struct an_finding *f, char *buf, size_t cap)
{
	char on[320];

	an_atomic_lines_text(f->atomic_lines, NULL, on, sizeof(on));
	if (strstr(on, " and "))
		snprintf(buf, cap, "; the atomics are%s", on);
	else if (f->atomic_at[0])
		snprintf(buf, cap, "; the atomic is at %s", f->atomic_at);
	else
		buf[0] = '\0';
	return buf;
}

static void fix_at(const struct an_finding *f, const char *site,
		   const char *call, char *buf, size_t cap)
{
	char at[360];

	buf[0] = '\0';
	atomics_at(f, at, sizeof(at));
	if (f->has_alloc && site[0] && an_finding_is_omp(f))
		snprintf(buf, cap, "at %s, map the target into the region "
				   "(map(tofrom: ...)) or allocate it with "
				   "omp_target_alloc instead of %s%s",
			 site, an_api_name(f->alloc.api), at);
	else if (f->has_alloc && site[0])
		snprintf(buf, cap, "at %s, allocate with hipMalloc instead of "
				   "%s and copy the result back%s",
			 site, an_api_name(f->alloc.api), at);
}

const struct an_rule an_rule_int_atomic_fine_host = {
	.id = "int-atomic-fine-host",
	.sev = AN_SEV_WARNING,
	.summary = "integer sub/min/max/bitwise/inc/dec atomics on fine-grained "
		   "host memory",
	.fix = "keep the target in device memory (hipMalloc) and copy the "
	       "result back, or use atomicAdd/atomicExch/atomicCAS, which work "
	       "over PCIe",
	.fix_omp = "map the target into the region (map(tofrom: ...)) or "
		   "allocate it with omp_target_alloc, and copy the result "
		   "back; or use an atomic add, exchange or compare-and-swap, "
		   "which work over PCIe",
	.on_launch_arg = check,
	.launch_args_matter = args_matter,
	.fix_at = fix_at,
};
