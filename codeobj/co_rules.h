/* SPDX-License-Identifier: MIT */
/*
 * Which atomic operations misbehave on which memory, per architecture: one
 * table, as data, shared by `hipgrain scan`, the analyzer and the preload's
 * online warning.
 */
#ifndef CO_RULES_H
#define CO_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_events.h"

enum co_effect {
	CO_EFFECT_OK = 0,
	CO_EFFECT_NOP = 1,        /* the atomic silently does nothing */
	CO_EFFECT_DOWNGRADED = 2, /* performed, but with a weaker scope */
};

#define CO_MEMBIT(m) (1u << (m))

struct co_rule {
	const char *archs;     /* comma list of processors, e.g. "gfx908,gfx90a" */
	uint32_t ops;          /* enum hg_aop bits the rule is about */
	uint32_t mems;         /* CO_MEMBIT(enum hg_mem) set */
	enum hg_gran gran;     /* FINE or COARSE (MIXED counts as FINE) */
	enum co_effect effect;
	const char *reason;    /* one line */
	const char *source;    /* where the rule comes from */
};

struct co_rule_result {
	enum co_effect effect;
	uint32_t ops;           /* the subset of the asked ops the rule covers */
	const struct co_rule *rule; /* NULL when nothing matched (effect OK) */
};

/*
 * Looks up what atomic operations `ops` (enum hg_aop bits) do on memory of
 * class `mem` and granularity `gran` on processor `arch` ("gfx90a", a target
 * id such as "gfx90a:xnack-" is fine too).  The first matching rule wins.
 */
enum co_effect co_rule_lookup(const char *arch, uint32_t ops, enum hg_mem mem,
			      enum hg_gran gran, struct co_rule_result *out);

const char *co_effect_name(enum co_effect e);
/* Whether any rule speaks of this processor ("gfx90a"): a target none does
 * has no atomic hazard hipgrain knows of, and scan need not decode it. */
bool co_rules_cover(const char *proc);
size_t co_rules_count(void);
const struct co_rule *co_rules_at(size_t i);

#endif
