/* SPDX-License-Identifier: MIT */
/*
 * Hardware FP atomic RMW on fine-grained memory: a NOP on MI100/MI200,
 * whatever scope it asks for (their atomics carry none).  On MI300 a
 * system-scope atomic (sc1) to fine-grained host memory is downgraded to
 * device scope; an agent-scope one asked for device scope and gets it, so
 * it is not a finding.  Judged per argument where the code object says
 * which arguments the atomics reach (codeobj's dataflow); per kernel where
 * it cannot.
 */
#include <stdio.h>
#include <string.h>

#include "an_atomic.h"
#include "an_link.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/*
 * "(flat_atomic_add_f64) at app.hip:42 on argument 0, which points" when
 * the code object says the atomics reach this argument (each line of
 * them: "at a.hip:5 and a.hip:7"); "(...) and argument 0 points", with
 * what is unknown, when it cannot say.
 */
static const char *what_reaches(const struct an_kernel *k, unsigned arg,
				const char *lines, char *buf, size_t cap)
{
	char line[320];

	an_atomic_lines_text(lines, NULL, line, sizeof(line));
	if (k->fp_sites && *k->fp_sites && (!strchr(k->fp_sites, '?') || *lines))
		snprintf(buf, cap, "(%s)%s on argument %u, which points",
			 k->fp_mnemonics, line, arg);
	else
		snprintf(buf, cap, "(%s)%s and argument %u%s points",
			 k->fp_mnemonics, line, arg,
			 k->fp_sites && *k->fp_sites
				 ? " (which argument they reach is unknown, so "
				   "every pointer argument counts)"
				 : "");
	return buf;
}

/* A kernel whose code object was read and has hardware FP atomics. */
static bool args_matter(const struct an_launch *l)
{
	const struct an_kernel *k = l->kernel;

	return k && k->profiled && k->status >= 0 && k->fp_ops;
}

/* The code object says a system-scope atomic (sc1) reaches the argument. */
static bool system_marked(const struct an_kernel *k, unsigned arg)
{
	char at[96];

	return an_sites_reach_scoped(k->fp_sites, arg, AN_SCOPE_SYSTEM, at,
				     sizeof(at)) &&
	       k->fp_sites && strstr(k->fp_sites, "^s");
}

/* The first occurrence: the finding's message. */
static struct an_finding *record(struct an_ctx *c, const struct an_rule *r,
				 const struct an_launch_arg *a,
				 enum an_atomic_effect e, const char *arch,
				 const char *lines)
{
	struct an_kernel *k = a->launch->kernel;
	char split[256], on[640];

	what_reaches(k, a->index, lines, on, sizeof(on));
	an_split_note(a, split, sizeof(split));
	if (e == AN_ATOMIC_NOP)
		return an_find(c, r, AN_SEV_ERROR, a->launch->proc, k,
			       a->alloc,
			       "%s uses hardware FP atomics %s into %s-grained "
			       "%s memory%s; on %.*s these atomics are silently "
			       "dropped (NOP), so results are wrong",
			       an_kernel_label(k), on, an_gran_name(a->gran),
			       an_mem_name(a->mem), split,
			       (int)strcspn(arch, ":"), arch);
	return an_find(c, r, AN_SEV_WARNING, a->launch->proc, k, a->alloc,
		       "%s uses %shardware FP atomics %s into fine-grained %s "
		       "memory; on %.*s over PCIe, system scope is "
		       "downgraded to device scope: the host and other GPUs "
		       "do not see them atomically",
		       an_kernel_label(k), system_marked(k, a->index)
					   ? "system-scope (sc1) " : "",
		       on, an_mem_name(a->mem), (int)strcspn(arch, ":"), arch);
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	struct an_kernel *k = a->launch->kernel;
	const char *arch;
	enum an_atomic_effect e;
	char at[96], lines[192];
	unsigned scopes;
	struct an_finding *f;
	struct isa_atab_facts facts;

	if (!args_matter(a->launch) || an_arg_faults(a))
		return;
	arch = an_arch(a->launch->proc, k);
	/* The downgrade is PCIe's: an MI300A reaches its host memory inside
	 * its own package, where system scope holds (the tables' MI300A
	 * column). */
	an_link_atab_facts(a->launch->proc, &facts);
	e = an_atomic_effect(arch, &facts, k->fp_ops, a->mem, a->gran);
	/* Most arguments are safe: no message is formatted for them, nor
	 * for those of a finding recorded already. */
	/* A downgrade is of system scope: agent-scope atomics do not count,
	 * nor are their lines named. */
	scopes = e == AN_ATOMIC_NOP ? AN_SCOPES_ALL
				    : AN_SCOPE_SYSTEM | AN_SCOPE_UNMARKED;
	if ((e != AN_ATOMIC_NOP && e != AN_ATOMIC_SCOPE_DOWNGRADE) ||
	    !an_sites_reach_scoped(k->fp_sites, a->index, scopes, at, sizeof(at)))
		return;
	co_sites_lines(k->fp_sites, a->index, ~0u, scopes, lines, sizeof(lines));
	f = an_count(c, r, e == AN_ATOMIC_NOP ? AN_SEV_ERROR : AN_SEV_WARNING,
		     a->launch->proc, k, a->alloc);
	if (!f)
		f = record(c, r, a, e, arch, lines);
	/* The latest occurrence names the lines. */
	if (f)
		an_atomic_lines_set(f, lines);
}

/* What to allocate instead, for the allocator that made the memory fine. */
static const char *instead(const struct an_alloc *a, char *buf, size_t cap)
{
	const char *api = an_api_name(a->api);

	/* Memory placed by properties: the fix is in the properties. */
	switch (a->api) {
	case HG_API_HIP_MEM_MAP:
		snprintf(buf, cap, "create the handle %s maps as pinned device "
				   "memory (hipMemAllocationTypePinned on "
				   "hipMemLocationTypeDevice)", api);
		return buf;
	case HG_API_HIP_MALLOC_ASYNC:
	case HG_API_HIP_MALLOC_FROM_POOL_ASYNC:
	case HG_API_HIP_GRAPH_MEM_ALLOC:
		snprintf(buf, cap, "allocate with %s from a pool on the device "
				   "(hipMemLocationTypeDevice), or with hipMalloc",
			 api);
		return buf;
	}
	switch (a->mem) {
	case HG_MEM_HOST_PINNED:
		snprintf(buf, cap, "allocate with hipMalloc instead of %s, or "
				   "pass hipHostMallocNonCoherent", api);
		break;
	case HG_MEM_MANAGED:
		snprintf(buf, cap, "allocate with hipMalloc instead of %s, or "
				   "hipMemAdvise(ptr, size, "
				   "hipMemAdviseSetCoarseGrain, dev) the pages "
				   "the kernel reaches", api);
		break;
	default:
		snprintf(buf, cap, "allocate with hipMalloc instead of %s", api);
	}
	return buf;
}

/* "; or make the atomic at a.hip:5", "; or make the atomics at a.hip:5
 * and a.hip:7"; "" when no line is known. */
static const char *make_at(const struct an_finding *f, char *buf, size_t cap)
{
	char on[320];

	an_atomic_lines_text(f->atomic_lines, NULL, on, sizeof(on));
	if (strstr(on, " and "))
		snprintf(buf, cap, "; or make the atomics%s", on);
	else if (f->atomic_at[0])
		snprintf(buf, cap, "; or make the atomic at %s", f->atomic_at);
	else
		buf[0] = '\0';
	return buf;
}

static void fix_at(const struct an_finding *f, const char *site,
		   const char *call, char *buf, size_t cap)
{
	char how[256], at[360];

	make_at(f, at, sizeof(at));
	if (!f->has_alloc || !site[0]) {
		buf[0] = '\0';
		return;
	}
	/* A target region's fix is OpenMP's: a map, omp_target_alloc, the
	 * safe atomic hint. */
	if (an_finding_is_omp(f)) {
		snprintf(buf, cap,
			 "at %s, allocate with omp_target_alloc instead of %s, "
			 "or map it into the target region (map(tofrom: ...))"
			 "%s%s",
			 site, an_api_name(f->alloc.api), at,
			 at[0] ? " safe (hint(AMD_safe_fp_atomics), "
					   "or -mno-unsafe-fp-atomics)"
					 : "");
		return;
	}
	/* A downgrade (the warning) is undone by asking for device scope. */
	snprintf(buf, cap, "at %s, %s%s%s", site,
		 instead(&f->alloc, how, sizeof(how)), at,
		 !at[0] ? ""
		 : f->sev == AN_SEV_WARNING
			 ? " agent-scope (atomicAdd, not atomicAdd_system) where "
			   "the host and other GPUs need not see it atomically"
			 : " a CAS loop (atomicAdd, not unsafeAtomicAdd, built "
			   "without -munsafe-fp-atomics: either one makes it "
			   "the hardware atomic)");
}

const struct an_rule an_rule_fp_atomic_fine_grain = {
	.id = "fp-atomic-fine-grain",
	.sev = AN_SEV_ERROR,
	.summary = "hardware FP atomics on fine-grained memory",
	.fix = "allocate with hipMalloc, or hipMemAdvise(ptr, size, "
	       "hipMemAdviseSetCoarseGrain, dev) the whole range, or "
	       "hipHostMallocNonCoherent for host memory; or get a CAS "
	       "loop: atomicAdd, not unsafeAtomicAdd, built without "
	       "-munsafe-fp-atomics",
	.fix_omp = "map the target into the region (map(tofrom: x[:1])), "
		   "allocate it with omp_target_alloc, or make the atomic "
		   "safe (hint(AMD_safe_fp_atomics), or compile with "
		   "-mno-unsafe-fp-atomics)",
	.on_launch_arg = check,
	.launch_args_matter = args_matter,
	.fix_at = fix_at,
};
