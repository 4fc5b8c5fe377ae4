/* SPDX-License-Identifier: MIT */
/*
 * The analyzer's view of AMD's atomics tables (isa/isa_atab.c, the one
 * source, through co_rules.c): which effect an atomic class has on some
 * memory of some GPU and machine, told apart the way the report words it.
 */
#include "an_atomic.h"

#include <string.h>

#include "co_rules.h"
#include "hg_events.h"

/* Processors the table speaks for; elsewhere hipgrain makes no claim. */
static int covered(const char *arch)
{
	static const char *const procs[] = {"gfx908", "gfx90a", "gfx940",
					    "gfx941", "gfx942", "gfx950"};
	size_t n = strcspn(arch, ":");

	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		if (strlen(procs[i]) == n && !strncmp(arch, procs[i], n))
			return 1;
	return 0;
}

static enum an_atomic_effect an_atomic_judge(const char *arch,
					     const struct isa_atab_facts *f,
					     uint32_t aops, uint8_t mem, uint8_t gran)
{
	struct co_rule_result r;

	if (gran != HG_GRAN_COARSE && gran != HG_GRAN_FINE &&
	    gran != HG_GRAN_MIXED)
		return AN_ATOMIC_UNKNOWN;
	if (!covered(arch))
		return AN_ATOMIC_UNKNOWN;
	switch (co_rule_lookup(arch, f, aops, (enum hg_mem)mem, (enum hg_gran)gran,
			       &r)) {
	case CO_EFFECT_NOP:
		/* Integer NOPs are a PCIe limit: they work over Infinity
		 * Fabric, and the report says both. */
		return (r.ops & HG_AOP_FP_MASK) ? AN_ATOMIC_NOP
						: AN_ATOMIC_NOP_OVER_PCIE;
	case CO_EFFECT_DOWNGRADED:
		return AN_ATOMIC_SCOPE_DOWNGRADE;
	default:
		return AN_ATOMIC_OK;
	}
}

/*
 * Every pointer argument of a kernel with atomics asks, and the table is
 * searched by name: the answers for the few arches, atomics and memories a
 * trace has are kept.
 */
#define AN_ATOMIC_MEMO_BITS 4

struct an_atomic_memo {
	char arch[64]; /* "": an empty slot */
	uint32_t aops;
	uint8_t mem, gran, facts;
	enum an_atomic_effect effect;
};

enum an_atomic_effect an_atomic_effect(const char *arch, const struct isa_atab_facts *f,
				       uint32_t aops, uint8_t mem, uint8_t gran)
{
	uint8_t facts = (uint8_t)(f->cpu_link | f->pcie_atomics << 2 | f->apu << 4);
	static struct an_atomic_memo memo[1u << AN_ATOMIC_MEMO_BITS];
	uint32_t key = aops ^ (uint32_t)mem << 24 ^ (uint32_t)gran << 16 ^
		       (uint32_t)facts << 28;
	struct an_atomic_memo *m =
		&memo[(key * 0x9e3779b9u) >> (32 - AN_ATOMIC_MEMO_BITS)];
	size_t len;
	enum an_atomic_effect e;

	if (m->arch[0] && m->aops == aops && m->mem == mem &&
	    m->gran == gran && m->facts == facts && !strcmp(m->arch, arch))
		return m->effect;
	e = an_atomic_judge(arch, f, aops, mem, gran);
	len = strlen(arch);
	if (len && len < sizeof(m->arch)) {
		memcpy(m->arch, arch, len + 1);
		m->aops = aops;
		m->mem = mem;
		m->gran = gran;
		m->facts = facts;
		m->effect = e;
	}
	return e;
}

uint32_t an_atomic_dropped(const char *arch, const struct isa_atab_facts *f,
			   uint32_t aops, uint8_t mem, uint8_t gran)
{
	struct co_rule_result r;

	if (!covered(arch) ||
	    co_rule_lookup(arch, f, aops & ~HG_AOP_FP_MASK, (enum hg_mem)mem,
			   (enum hg_gran)gran, &r) != CO_EFFECT_NOP)
		return 0;
	return r.ops;
}
