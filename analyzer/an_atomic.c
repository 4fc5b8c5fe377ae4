/* SPDX-License-Identifier: MIT */
#include "an_atomic.h"

#include <stdbool.h>
#include <string.h>

#include "hg_events.h"

/* Integer atomics that are not NOPs over PCIe (ROCm atomics table). */
#define AN_INT_PCIE_OK (HG_AOP_ADD | HG_AOP_SUB | HG_AOP_SWAP | HG_AOP_CMPSWAP)

static bool an_arch_is(const char *arch, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arch, name, n) && (arch[n] == '\0' || arch[n] == ':');
}

static bool an_host_side(uint8_t mem)
{
	return mem == HG_MEM_HOST_PINNED || mem == HG_MEM_HOST_REGISTERED ||
	       mem == HG_MEM_MANAGED || mem == HG_MEM_SYSTEM;
}

enum an_atomic_effect an_atomic_effect(const char *arch, uint32_t aops,
				       uint8_t mem, uint8_t gran)
{
	bool mi100_200 = an_arch_is(arch, "gfx908") || an_arch_is(arch, "gfx90a");
	bool mi300 = an_arch_is(arch, "gfx940") || an_arch_is(arch, "gfx941") ||
		     an_arch_is(arch, "gfx942");

	if (gran == HG_GRAN_COARSE)
		return AN_ATOMIC_OK;
	if (gran != HG_GRAN_FINE && gran != HG_GRAN_MIXED)
		return AN_ATOMIC_UNKNOWN;
	if (aops & HG_AOP_FP_MASK) {
		if (mi100_200)
			return AN_ATOMIC_NOP;
		if (mi300)
			return an_host_side(mem) ? AN_ATOMIC_SCOPE_DOWNGRADE
						 : AN_ATOMIC_OK;
		return AN_ATOMIC_UNKNOWN;
	}
	if (aops & HG_AOP_INT_MASK & ~AN_INT_PCIE_OK) {
		if (mi100_200)
			return an_host_side(mem) ? AN_ATOMIC_NOP_OVER_PCIE
						 : AN_ATOMIC_OK;
		return mi300 ? AN_ATOMIC_OK : AN_ATOMIC_UNKNOWN;
	}
	return AN_ATOMIC_OK;
}
