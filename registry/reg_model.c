/* SPDX-License-Identifier: MIT */
#include "reg_model.h"

#include <string.h>

#include "hg_events.h"

static uint8_t host_malloc_gran(uint32_t flags, int host_coherent)
{
	const uint32_t always_fine = REG_HOST_MALLOC_MAPPED |
				     REG_HOST_MALLOC_NUMA_USER;
	int coherent = !!(flags & REG_HOST_MALLOC_COHERENT);
	int noncoherent = !!(flags & REG_HOST_MALLOC_NON_COHERENT);

	if (coherent && noncoherent)
		return HG_GRAN_UNKNOWN; /* illegal; the runtime refuses it */
	if (coherent)
		return HG_GRAN_FINE;
	if (noncoherent)
		return HG_GRAN_COARSE;
	if (flags == 0 || (flags & always_fine))
		return HG_GRAN_FINE;
	/* Portable/WriteCombined without a coherence flag or Mapped: the
	 * variable decides, non-coherent unless it is 1.  The HIP guide reads
	 * otherwise; what the real runtime asks the driver for is this, on
	 * ROCm 5.2.3 and 6.4.3 alike (tests/vgpu, the driver table). */
	return host_coherent == 1 ? HG_GRAN_FINE : HG_GRAN_COARSE;
}

/* Memory described by allocation properties (REG_PROP_*). */
static void prop_model(uint32_t flags, uint8_t *mem, uint8_t *gran)
{
	uint32_t loc = flags & REG_PROP_LOC_MASK;

	if (flags & REG_PROP_UNREAD) {
		*mem = HG_MEM_DEVICE;
		*gran = HG_GRAN_UNKNOWN;
	} else if (loc >= REG_PROP_LOC_HOST && loc <= REG_PROP_LOC_HOST + 2) {
		*mem = HG_MEM_HOST_PINNED;
		*gran = HG_GRAN_FINE;
	} else if (flags & REG_PROP_UNCACHED) {
		*mem = HG_MEM_DEVICE_FINE;
		*gran = HG_GRAN_FINE;
	} else {
		*mem = HG_MEM_DEVICE;
		*gran = HG_GRAN_COARSE;
	}
}

/* hsa_amd_memory_pool_allocate: the pool's own flags say. */
static void hsa_pool_model(uint32_t flags, uint8_t *mem, uint8_t *gran)
{
	*mem = !(flags & REG_HSA_POOL_FINE) ? HG_MEM_DEVICE
	       : flags & REG_HSA_POOL_ALL_AGENTS ? HG_MEM_HOST_PINNED
						  : HG_MEM_DEVICE_FINE;
	*gran = flags & REG_HSA_POOL_FINE     ? HG_GRAN_FINE
		: flags & REG_HSA_POOL_COARSE ? HG_GRAN_COARSE
					      : HG_GRAN_UNKNOWN;
}

void reg_model(uint8_t api, uint32_t flags, const struct reg_model_env *env, uint8_t *mem,
	       uint8_t *gran)
{
	switch (api) {
	case HG_API_HIP_MALLOC:
	case HG_API_HIP_MALLOC_PITCH:
	case HG_API_HIP_MALLOC_3D:
	case HG_API_HIP_MEM_ALLOC_PITCH:
	/* OpenMP: a map's device copy and omp_target_alloc (seed 000's
	 * "OpenMP Allocation Mechanism"). */
	case HG_API_OMP_MAP:
	case HG_API_OMP_TARGET_ALLOC:
	case HG_API_LLVM_OMP_TARGET_ALLOC_DEVICE:
	/* Another process's or API's device memory: its flags are not ours
	 * to read. */
	case HG_API_HIP_IPC_OPEN_MEM_HANDLE:
	case HG_API_HIP_EXTERNAL_MEMORY_GET_MAPPED_BUFFER:
		*mem = HG_MEM_DEVICE;
		*gran = HG_GRAN_COARSE;
		return;
	/* hipMallocAsync: the device's current pool's properties. */
	case HG_API_HIP_MALLOC_ASYNC:
	case HG_API_HIP_MALLOC_FROM_POOL_ASYNC:
	case HG_API_HIP_MEM_MAP:
	case HG_API_HIP_GRAPH_MEM_ALLOC:
	case HG_API_HIP_MEM_POOL_IMPORT_POINTER:
		prop_model(flags, mem, gran);
		return;
	case HG_API_HIP_EXT_MALLOC_WITH_FLAGS:
		/* Finegrained (1), signal memory (2), Uncached (3). */
		*mem = flags ? HG_MEM_DEVICE_FINE : HG_MEM_DEVICE;
		*gran = flags ? HG_GRAN_FINE : HG_GRAN_COARSE;
		return;
	case HG_API_HIP_MALLOC_MANAGED:
	case HG_API_LLVM_OMP_TARGET_ALLOC_SHARED:
		*mem = HG_MEM_MANAGED;
		*gran = HG_GRAN_FINE;
		return;
	case HG_API_HIP_HOST_ALLOC:
		/* ROCm 5's hipHostAlloc allocates device memory, as hipMalloc
		 * does: the runtime asks the driver for coarse VRAM (the
		 * driver table, 5.2.3); ROCm 6's is hipHostMalloc's. */
		if (env->rocm_major == 5) {
			*mem = HG_MEM_DEVICE;
			*gran = HG_GRAN_COARSE;
			return;
		}
		/* fall through */
	case HG_API_HIP_HOST_MALLOC:
	case HG_API_HIP_EXT_HOST_ALLOC:
	case HG_API_HIP_MALLOC_HOST: /* both hipHostMalloc(p, n, 0) */
	case HG_API_HIP_MEM_ALLOC_HOST:
		*mem = HG_MEM_HOST_PINNED;
		*gran = host_malloc_gran(flags, env->host_coherent);
		return;
	case HG_API_HSA_MEMORY_POOL_ALLOCATE:
		hsa_pool_model(flags, mem, gran);
		return;
	case HG_API_HSA_MEMORY_LOCK:
	case HG_API_HSA_MEMORY_LOCK_TO_POOL:
		*mem = HG_MEM_HOST_REGISTERED;
		*gran = HG_GRAN_FINE;
		return;
	case HG_API_LLVM_OMP_TARGET_ALLOC_HOST: /* pinned, fine, like hipHostMalloc */
		*mem = HG_MEM_HOST_PINNED;
		*gran = HG_GRAN_FINE;
		return;
	case HG_API_OMP_ALLOC_PINNED: /* the heap, locked for the GPU */
	case HG_API_HIP_HOST_REGISTER:
		*mem = HG_MEM_HOST_REGISTERED;
		*gran = HG_GRAN_FINE;
		return;
	default: /* the system allocator: malloc, new, ... */
		*mem = HG_MEM_SYSTEM;
		*gran = HG_GRAN_FINE;
		return;
	}
}

static int32_t int_at(const void *base, size_t off)
{
	int32_t v;

	memcpy(&v, (const unsigned char *)base + off, sizeof(v));
	return v;
}

void reg_prop_read(const void *prop, int new_order, struct reg_prop *out)
{
	out->type = int_at(prop, new_order ? 0 : 16);
	out->loc_type = int_at(prop, new_order ? 8 : 4);
	out->loc_id = int_at(prop, new_order ? 12 : 8);
}

uint32_t reg_prop_flags(int32_t type, int32_t loc_type)
{
	uint32_t flags = (uint32_t)loc_type & REG_PROP_LOC_MASK;

	return type == (int32_t)REG_PROP_UNCACHED ? flags | REG_PROP_UNCACHED
						  : flags;
}
