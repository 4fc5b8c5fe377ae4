/* SPDX-License-Identifier: MIT */
/*
 * What atomic operations do on which memory, per GPU and machine: AMD's
 * tables (isa/isa_atab.h, the one source) asked for a set of operations
 * at once, with the words `hipgrain scan`, the analyzer and the preload's
 * online warning use for each kind of effect.
 */
#ifndef CO_RULES_H
#define CO_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_events.h"
#include "isa_atab.h"

enum co_effect {
	CO_EFFECT_OK = 0,
	CO_EFFECT_NOP = 1,        /* the atomic silently does nothing */
	CO_EFFECT_DOWNGRADED = 2, /* performed, but with a weaker scope */
};

/* How the report words one kind of effect: which operations, memory and
 * effect it speaks of. */
struct co_rule {
	uint32_t ops;          /* enum hg_aop bits the words are about */
	uint32_t mems;         /* CO_MEMBIT(enum hg_mem) set */
	enum co_effect effect;
	const char *reason;    /* one line */
	const char *source;    /* where the rule comes from */
};

#define CO_MEMBIT(m) (1u << (m))

struct co_rule_result {
	enum co_effect effect;
	uint32_t ops;           /* the subset of the asked ops with that effect */
	const struct co_rule *rule; /* its words; NULL when the effect is OK */
	const char *column;     /* the tables' product column, "" when none */
	const char *row;        /* the cell's file and line in AMD's tables */
	char assumed[160];      /* "" or what was assumed of the machine */
};

/*
 * What atomic operations `ops` (enum hg_aop bits) do at system scope on
 * memory of class `mem` and granularity `gran` on processor `arch`
 * ("gfx90a", a target id such as "gfx90a:xnack-" is fine too) on a machine
 * with facts f (NULL: nothing known).  The worst effect of any operation
 * wins.
 */
enum co_effect co_rule_lookup(const char *arch, const struct isa_atab_facts *f,
			      uint32_t ops, enum hg_mem mem, enum hg_gran gran,
			      struct co_rule_result *out);

const char *co_effect_name(enum co_effect e);
/* Whether the tables speak of this processor ("gfx90a"): a target they do
 * not has no atomic hazard hipgrain knows of, and scan need not decode it. */
bool co_rules_cover(const char *proc);

#endif
