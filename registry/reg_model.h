/* SPDX-License-Identifier: MIT */
/*
 * What the allocator, its flags and the environment say about memory:
 * DESIGN.md's granularity table, from seed 000, seed 001 and the ROCm docs.
 * This is the model; the runtime's own answer is recorded beside it.
 */
#ifndef REG_MODEL_H
#define REG_MODEL_H

#include <stdint.h>

/* hipHostMalloc flags (hip_runtime_api.h, stable across ROCm 5 and 6). */
#define REG_HOST_MALLOC_MAPPED 0x2u
#define REG_HOST_MALLOC_NUMA_USER 0x20000000u
#define REG_HOST_MALLOC_COHERENT 0x40000000u
#define REG_HOST_MALLOC_NON_COHERENT 0x80000000u

/* hsa_amd_memory_pool_allocate: the pool's HSA global flags, and a bit of
 * hipgrain's own for a pool every agent can reach (system memory). */
#define REG_HSA_POOL_FINE 0x2u
#define REG_HSA_POOL_COARSE 0x4u
#define REG_HSA_POOL_ALL_AGENTS 0x100u

/* The flags hipgrain records for memory whose placement comes from
 * allocation properties (hipMemCreate then hipMemMap, pool allocations,
 * graph allocation nodes): the location type (hipMemLocationType: 1
 * device; 2, 3, 4 host, host NUMA node, current host NUMA node, ROCm 7)
 * and hipMemAllocationTypeUncached (ROCm 7), which is fine-grained device
 * memory.  0 is what ROCm 5 and 6 allow: pinned device memory, coarse. */
#define REG_PROP_LOC_MASK 0xffu
#define REG_PROP_LOC_HOST 2u
#define REG_PROP_UNCACHED 0x40000000u
/* Properties no call would tell (an imported pool on ROCm 7, a handle the
 * runtime would not describe): device memory of unknown granularity. */
#define REG_PROP_UNREAD 0x100u

/* hipMemAllocationProp's type and location, read from its bytes in the
 * order of the runtime's release: ROCm 5.2's {compressionType, location,
 * requestedHandleType, type}, or the later {type, requestedHandleType,
 * location} (5.7, 6.x) when new_order. */
struct reg_prop {
	int32_t type, loc_type, loc_id;
};
void reg_prop_read(const void *prop, int new_order, struct reg_prop *out);
/* The REG_PROP_* flags of an allocation type and a location type. */
uint32_t reg_prop_flags(int32_t type, int32_t loc_type);

/* hipMemAdvise values that change granularity. */
#define REG_ADVISE_SET_COARSE 100
#define REG_ADVISE_UNSET_COARSE 101

/* What the model depends on besides the call: HIP_HOST_COHERENT as read at
 * start (-1 when unset), and the HIP runtime's major version (0 while it
 * is not known): some allocators changed meaning between releases. */
struct reg_model_env {
	int host_coherent;
	int rocm_major;
};

void reg_model(uint8_t api, uint32_t flags, const struct reg_model_env *env, uint8_t *mem,
	       uint8_t *gran);

#endif
