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
 * the host had since written (an_stale.c makes that finding).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/* Kinds that exchange data with another agent while the kernel runs. */
static bool exchanges(const char *kind, size_t len)
{
	static const char *const words[] = { "load", "store", "acquire", "release" };

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (strlen(words[i]) == len && !strncmp(kind, words[i], len))
			return true;
	return false;
}

/*
 * Whether an entry of sites ("1+acquire^s@flag.hip:8", "?+release^s")
 * exchanges at system scope through argument arg, or through an argument
 * nobody knows: the first such kind into *what and its line into at.
 */
static bool reaches(const char *sites, unsigned arg, char *what, size_t wcap,
		    char *at, size_t cap)
{
	bool hit = false;

	at[0] = what[0] = '\0';
	for (const char *p = sites; p && *p;) {
		size_t n = strcspn(p, ";"), m = strcspn(p, "@");
		const char *plus = memchr(p, '+', m < n ? m : n);
		size_t klen = plus ? strcspn(plus + 1, "@;^") : 0;
		const char *caret = memchr(p, '^', m < n ? m : n);
		char *end;
		unsigned long a = strtoul(p, &end, 10);

		if (plus && caret && caret[1] == 's' && exchanges(plus + 1, klen) &&
		    (*p == '?' || (end != p && a == arg))) {
			if (!hit || (!at[0] && m < n)) {
				snprintf(what, wcap, "%.*s", (int)klen, plus + 1);
				if (m < n)
					snprintf(at, cap, " at %.*s", (int)(n - m - 1),
						 p + m + 1);
			}
			hit = true;
		}
		p += n + (p[n] == ';');
	}
	return hit;
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
	char what[16], at[96];

	if (a->gran != HG_GRAN_COARSE || !args_matter(a->launch) ||
	    !reaches(k->sys_sites, a->index, what, sizeof(what), at, sizeof(at)))
		return;
	an_find_arg(c, r, AN_SEV_WARNING, a->launch->proc, k, a->alloc, a->index,
		    "%s synchronizes at system scope (%s%s) through argument %u, "
		    "which points into coarse-grained %s memory: the host and other "
		    "GPUs see its writes, and it sees theirs, only at kernel "
		    "boundaries, so a flag or result exchanged while it runs is "
		    "never seen or stale",
		    an_kernel_label(k), what, at, a->index, an_mem_name(a->mem));
}

const struct an_rule an_rule_coarse_sync = {
    .id = "coarse-sync",
    .sev = AN_SEV_ERROR,
    .summary = "a kernel waits for, or reads, the host's write through "
	       "coarse-grained memory while it runs",
    .fix = "put the flag or the exchanged data in fine-grained memory "
	   "(hipHostMalloc without hipHostMallocNonCoherent, or "
	   "hipMemAdvise(UnsetCoarseGrain) on managed memory), or exchange it "
	   "only between kernels",
    .on_launch_arg = check,
    .launch_args_matter = args_matter,
};
