/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "co_rules.h"

#define HOST_MEMS                                                              \
	(CO_MEMBIT(HG_MEM_HOST_PINNED) | CO_MEMBIT(HG_MEM_HOST_REGISTERED) |   \
	 CO_MEMBIT(HG_MEM_SYSTEM) | CO_MEMBIT(HG_MEM_SYSTEM_UNTRACKED) |       \
	 CO_MEMBIT(HG_MEM_MANAGED) /* may reside in host DRAM */)
#define DEVICE_MEMS                                                            \
	(CO_MEMBIT(HG_MEM_DEVICE) | CO_MEMBIT(HG_MEM_DEVICE_FINE))
#define ALL_MEMS (HOST_MEMS | DEVICE_MEMS | CO_MEMBIT(HG_MEM_UNKNOWN))
#define INT_NO_PCIE                                                            \
	(HG_AOP_MIN | HG_AOP_MAX | HG_AOP_AND | HG_AOP_OR | HG_AOP_XOR |       \
	 HG_AOP_INC | HG_AOP_DEC)
#define ROCM_TABLE "ROCm docs, AMD GPU atomics operation support (reference/gpu-atomics-operation)"
#define SEED000 "AMD's talk \"AMD Node Memory Model\" (HLRS, September 2023): FP atomics on fine/coarse grained memory"

static const struct co_rule rules[] = {
	{"gfx908,gfx90a", HG_AOP_FP_MASK, ALL_MEMS, HG_GRAN_FINE, CO_EFFECT_NOP,
	 "hardware FP atomics on fine-grained memory silently do nothing on MI100/MI200",
	 SEED000 "; " ROCM_TABLE},
	{"gfx908,gfx90a", INT_NO_PCIE, HOST_MEMS, HG_GRAN_FINE, CO_EFFECT_NOP,
	 "integer min/max/and/or/xor/inc/dec to fine-grained host memory over PCIe "
	 "(no PCIe AtomicOp for them) do nothing on MI100/MI200",
	 ROCM_TABLE},
	{"gfx940,gfx941,gfx942,gfx950,gfx9-4-generic", HG_AOP_FP_MASK | HG_AOP_INT_MASK | HG_AOP_CMPSWAP,
	 HOST_MEMS, HG_GRAN_FINE, CO_EFFECT_DOWNGRADED,
	 "on MI300 system-scope atomics (sc1) to fine-grained host memory over "
	 "PCIe are downgraded from system to device scope; agent-scope ones (no "
	 "sc1) asked for device scope and get it",
	 ROCM_TABLE},
	{"gfx940,gfx941,gfx942,gfx950,gfx9-4-generic", HG_AOP_FP_MASK, DEVICE_MEMS, HG_GRAN_FINE,
	 CO_EFFECT_OK, "MI300 performs hardware FP atomics on fine-grained device memory",
	 ROCM_TABLE},
};

#include "co_int.h"

static bool arch_in(const char *list, const char *arch);

bool co_rules_cover(const char *proc)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (arch_in(rules[i].archs, proc))
			return true;
	return false;
}

/* "gfx90a:xnack-" is in "gfx908,gfx90a": features do not matter here. */
static bool arch_in(const char *list, const char *arch)
{
	return co_list_has(list, arch, strcspn(arch, ":"));
}

enum co_effect co_rule_lookup(const char *arch, uint32_t ops, enum hg_mem mem,
			      enum hg_gran gran, struct co_rule_result *out)
{
	struct co_rule_result r = {CO_EFFECT_OK, 0, NULL};
	enum hg_gran g = gran == HG_GRAN_MIXED ? HG_GRAN_FINE : gran;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		const struct co_rule *ru = &rules[i];
		if ((ru->ops & ops) && (ru->mems & CO_MEMBIT(mem)) && ru->gran == g &&
		    arch_in(ru->archs, arch)) {
			r = (struct co_rule_result){ru->effect, ru->ops & ops, ru};
			break;
		}
	}
	if (out)
		*out = r;
	return r.effect;
}

const char *co_effect_name(enum co_effect e)
{
	return e == CO_EFFECT_NOP ? "nop" : e == CO_EFFECT_DOWNGRADED ? "downgraded" : "ok";
}

size_t co_rules_count(void) { return sizeof rules / sizeof rules[0]; }

const struct co_rule *co_rules_at(size_t i)
{
	return i < co_rules_count() ? &rules[i] : NULL;
}
