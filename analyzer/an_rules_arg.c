/* SPDX-License-Identifier: MIT */
/*
 * Which rules see a launch's arguments.  A program makes many launches of
 * several arguments each: what can be told once per launch (the kernel has
 * none of the atomics a rule is about) or once per kind of memory is, rather
 * than by asking every rule about every argument.
 */
#include "an_rule.h"

/* Bit i stands for an_rules[i]. */
struct an_arg_table {
	uint32_t all;	/* the rules with on_launch_arg */
	uint32_t gated; /* those of them with launch_args_matter */
	/* Those that judge an argument of this kind of memory; the last: a
	 * kind beyond the masks (a damaged trace), for the rules without. */
	uint32_t by_mem[33];
};

static const struct an_arg_table *an_arg_table(void)
{
	static struct an_arg_table t;
	static bool built;

	if (built)
		return &t;
	for (unsigned i = 0; i < an_nrules; i++) {
		const struct an_rule *r = an_rules[i];
		uint32_t bit = 1u << i;

		if (!r->on_launch_arg)
			continue;
		t.all |= bit;
		if (r->launch_args_matter)
			t.gated |= bit;
		for (unsigned m = 0; m <= 32; m++)
			if (!r->arg_mems ||
			    (m < 32 && (r->arg_mems & AN_MEM_BIT(m))))
				t.by_mem[m] |= bit;
	}
	built = true;
	return &t;
}

uint32_t an_rules_for_args(const struct an_launch *l)
{
	const struct an_arg_table *t = an_arg_table();
	uint32_t rules = t->all;

	for (uint32_t g = t->gated; g; g &= g - 1) {
		unsigned i = (unsigned)__builtin_ctz(g);

		if (!an_rules[i]->launch_args_matter(l))
			rules &= ~(1u << i);
	}
	return rules;
}

void an_rules_on_arg(struct an_ctx *c, uint32_t rules,
		     const struct an_launch_arg *a)
{
	rules &= an_arg_table()->by_mem[a->mem < 32 ? a->mem : 32];
	for (; rules; rules &= rules - 1) {
		const struct an_rule *r = an_rules[__builtin_ctz(rules)];

		r->on_launch_arg(c, r, a);
	}
}
