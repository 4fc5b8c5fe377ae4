/* SPDX-License-Identifier: MIT */
/*
 * A kernel synchronizes with the host through coarse-grained memory.
 * Coarse-grained memory is coherent only at kernel boundaries; a flag or a
 * result exchanged while the kernel runs must live in fine-grained memory.
 *
 * Two halves.  Inferred here: the code object says the kernel loads,
 * stores or fences at system scope on an argument that points into
 * coarse-grained memory (codeobj's sys_sites).  A system-scope
 * read-modify-write alone does not count: HIP's unsafeAtomicAdd and its
 * default atomics are system scope on MI300, and an accumulator read after
 * the kernel ends is right.  Observed: the virtual GPU's L2 served a line
 * the host had since written (an_stale.c makes that finding), or held the
 * kernel's own stores unwritten when the budget stopped it, a wait for an
 * answer to a value nobody saw (an_unwritten.c).
 * Where the product's instructions at those sites reach past the L2 to
 * memory of that kind (isa_coh.c, the table the virtual GPU runs by),
 * the exchange works on that GPU though HIP does not promise it: a note,
 * not a warning.
 * Another GPU's memory (hipMalloc on GPU 0, a kernel on GPU 1 through peer
 * access) is not local to the reading GPU's L2: amdkfd maps a peer's
 * coarse-grained memory MTYPE NC there, as it maps system memory, so the
 * table's host row judges it, and the finding names the peer.
 */
#include <stdio.h>
#include <string.h>

#include "an_link.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"
#include "isa_coh.h"

/* Kinds that exchange data with another agent while the kernel runs. */
#define EXCHANGES                                                              \
	(CO_SYNC_BIT(CO_SYNC_LOAD) | CO_SYNC_BIT(CO_SYNC_STORE) |              \
	 CO_SYNC_BIT(CO_SYNC_ACQUIRE) | CO_SYNC_BIT(CO_SYNC_RELEASE))

/* "acquire at flag.hip:8, release at flag.hip:12" from co_sites_lines'
 * list, or the kinds alone where no entry has a line. */
static void words(const char *sites, unsigned arg, uint32_t ops, char *out,
		  size_t cap)
{
	char lines[256];
	size_t o = 0;

	out[0] = '\0';
	co_sites_lines(sites, arg, EXCHANGES, AN_SCOPE_SYSTEM, lines, sizeof(lines));
	for (const char *p = lines; *p && o + 1 < cap; p++) {
		const char *sub = *p == '@' ? " at " : *p == ';' ? ", " : NULL;
		int w = sub ? snprintf(out + o, cap - o, "%s", sub)
			    : snprintf(out + o, cap - o, "%c", *p);

		o += w > 0 ? (size_t)w : 0;
	}
	for (unsigned k = CO_SYNC_LOAD; !lines[0] && k <= CO_SYNC_RELEASE; k++)
		if ((ops & CO_SYNC_BIT(k)) && o + 1 < cap) {
			int w = snprintf(out + o, cap - o, "%s%s", o ? ", " : "",
					 co_sync_name(k));

			o += w > 0 ? (size_t)w : 0;
		}
	if (!out[0])
		snprintf(out, cap, "where the code does not show the argument");
}

/* The GPU whose memory the argument is, where that is another GPU than the
 * launch's (peer access); -1 otherwise. */
static int32_t peer_of(const struct an_launch_arg *a)
{
	if (!a->alloc || a->alloc->device < 0 ||
	    (a->mem != HG_MEM_DEVICE && a->mem != HG_MEM_DEVICE_FINE))
		return -1;
	return a->alloc->device != a->launch->device ? a->alloc->device : -1;
}

/* Where the memory lives, as the coherence table tells it apart: device
 * memory is probed where the machine says the CPU reaches the GPU over
 * xGMI or shares its package. */
static enum isa_coh_mem where_of(const struct an_launch_arg *a)
{
	struct isa_atab_facts f;

	if (peer_of(a) >= 0 || a->mem == HG_MEM_HOST_PINNED || a->mem == HG_MEM_HOST_REGISTERED ||
	    a->mem == HG_MEM_SYSTEM)
		return ISA_COH_HOST;
	an_link_atab_facts(a->launch->proc, &f);
	return f.cpu_link == ISA_LINK_XGMI || f.apu == ISA_FACT_YES ? ISA_COH_PROBED
								    : ISA_COH_DEVICE;
}

/* Whether every kind of site in ops reaches memory of this kind on fam. */
static bool exchanges(enum isa_family fam, enum isa_coh_mem where, uint32_t ops)
{
	static const enum isa_coh_op as[] = {
		[CO_SYNC_LOAD] = ISA_COH_LOAD, [CO_SYNC_STORE] = ISA_COH_STORE,
		[CO_SYNC_ACQUIRE] = ISA_COH_INV, [CO_SYNC_RELEASE] = ISA_COH_WB,
	};

	for (unsigned k = CO_SYNC_LOAD; k <= CO_SYNC_RELEASE; k++)
		if ((ops & CO_SYNC_BIT(k)) && !isa_coh_exchanges(fam, where, as[k]))
			return false;
	return ops != 0;
}

static bool args_matter(const struct an_launch *l)
{
	const struct an_kernel *k = l->kernel;

	return k && k->sys_sites && *k->sys_sites;
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch_arg *a)
{
	struct an_kernel *k = a->launch->kernel;
	char what[200], at[96], proc[32], place[96];
	const char *arch;
	enum isa_coh_mem where;
	uint32_t ops;

	if (a->gran != HG_GRAN_COARSE || !args_matter(a->launch) ||
	    !co_sites_reach(k->sys_sites, a->index, EXCHANGES, AN_SCOPE_SYSTEM,
			    &ops, at, sizeof(at)))
		return;
	words(k->sys_sites, a->index, ops, what, sizeof(what));
	arch = an_arch(a->launch->proc, k);
	snprintf(proc, sizeof(proc), "%.*s", (int)strcspn(arch, ":"), arch);
	where = where_of(a);
	if (peer_of(a) >= 0)
		snprintf(place, sizeof(place), "%s memory of GPU %d, which GPU %d reaches "
			 "as a peer", an_mem_name(a->mem), (int)peer_of(a),
			 (int)a->launch->device);
	else
		snprintf(place, sizeof(place), "%s memory", an_mem_name(a->mem));
	if (exchanges(isa_family_of(proc), where, ops)) {
		an_find_arg(c, r, AN_SEV_NOTE, a->launch->proc, k, a->alloc, a->index,
			    "%s synchronizes at system scope (%s) through argument %u, "
			    "which points into coarse-grained %s: on %s %s, so "
			    "the exchange works there, but HIP makes coarse-grained memory "
			    "coherent only at kernel boundaries: %s",
			    an_kernel_label(k), what, a->index, place, proc,
			    where == ISA_COH_PROBED
				    ? "the CPU reaches its memory over xGMI, whose "
				      "writes invalidate the line the GPU's L2 holds"
				    : "these instructions reach past the GPU's L2 to it",
			    where == ISA_COH_PROBED
				    ? "a node whose CPU is on PCIe sees none of it"
				    : "a plain load or store between them (a spin on a "
				      "flag) is served from the L2's line, and an MI100 "
				      "(gfx908) sees none of it");
		return;
	}
	an_find_arg(c, r, AN_SEV_WARNING, a->launch->proc, k, a->alloc, a->index,
		    "%s synchronizes at system scope (%s) through argument %u, "
		    "which points into coarse-grained %s: the host and other "
		    "GPUs see its writes, and it sees theirs, only at kernel "
		    "boundaries, so a flag or result exchanged while it runs is "
		    "never seen or stale",
		    an_kernel_label(k), what, a->index, place);
}

const struct an_rule an_rule_coarse_sync = {
    .id = "coarse-sync",
    .sev = AN_SEV_ERROR,
    .summary = "a kernel waits for, or reads, the host's write, or publishes "
	       "its own, through coarse-grained memory while it runs",
    .fix = "put the flag or the exchanged data in fine-grained memory "
	   "(hipHostMalloc without hipHostMallocNonCoherent, "
	   "hipExtMallocWithFlags with hipDeviceMallocFinegrained, or "
	   "hipMemAdvise(UnsetCoarseGrain) on managed memory), or exchange it "
	   "only between kernels; a value a kernel publishes there is seen "
	   "mid-kernel only after a system-scope release (__threadfence_system) "
	   "on a GPU whose release writes its L2 back (MI200, MI300; not MI100)",
    .on_launch_arg = check,
    .launch_args_matter = args_matter,
};
