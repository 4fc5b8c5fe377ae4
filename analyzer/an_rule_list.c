/* SPDX-License-Identifier: MIT */
/* The rule list: every rule once, and which of them each hook calls. */
#include <stdbool.h>
#include <string.h>

#include "an_rule.h"

#define AN_RULE_LIST(X)                                                        \
	X(fp_atomic_fine_grain)                                                \
	X(int_atomic_fine_host)                                                \
	X(pageable_kernel_arg_no_xnack)                                        \
	X(xnack_mode_mismatch)                                                 \
	X(host_malloc_illegal_flags)                                           \
	X(dealloc_mismatch)                                                    \
	X(use_after_free)                                                      \
	X(prefetch_unsupported)                                                \
	X(advise_unsupported)                                                  \
	X(async_copy_pageable)                                                 \
	X(gpu_leak)                                                            \
	X(migratable_misaligned)                                               \
	X(managed_no_prefetch)                                                 \
	X(map_makes_coarse)                                                    \
	X(usm_without_xnack)                                                   \
	X(runtime_granularity_differs)                                         \
	X(lds_race)                                                            \
	X(group_race)                                                          \
	X(coarse_sync)                                                          \
	X(died_in_call)

#define AN_X(name) extern const struct an_rule an_rule_##name;
AN_RULE_LIST(AN_X)
#undef AN_X

const struct an_rule *const an_rules[] = {
#define AN_X(name) &an_rule_##name,
	AN_RULE_LIST(AN_X)
#undef AN_X
};
const unsigned an_nrules = sizeof(an_rules) / sizeof(an_rules[0]);
_Static_assert(sizeof(an_rules) / sizeof(an_rules[0]) <= AN_MAX_RULES,
	       "AN_MAX_RULES is too small");

static bool an_has_hook(const struct an_rule *r, enum an_hook h)
{
	switch (h) {
	case AN_ON_ALLOC:
		return r->on_alloc;
	case AN_ON_FREE:
		return r->on_free;
	case AN_ON_LAUNCH:
		return r->on_launch;
	case AN_ON_LAUNCH_ARG:
		return r->on_launch_arg;
	default:
		return false;
	}
}

struct an_hooked an_hooked[AN_HOOKS];

void an_rules_hook_up(void)
{
	static const struct an_rule *r[AN_HOOKS][sizeof(an_rules) /
						 sizeof(an_rules[0])];

	for (unsigned k = 0; k < AN_HOOKS; k++) {
		an_hooked[k].n = 0;
		for (unsigned i = 0; i < an_nrules; i++)
			if (an_has_hook(an_rules[i], (enum an_hook)k))
				r[k][an_hooked[k].n++] = an_rules[i];
		an_hooked[k].r = r[k];
	}
}

const struct an_rule *an_rule_by_id(const char *id)
{
	for (unsigned i = 0; i < an_nrules; i++)
		if (!strcmp(an_rules[i]->id, id))
			return an_rules[i];
	return NULL;
}
