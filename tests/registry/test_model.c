/* SPDX-License-Identifier: MIT */
/* The granularity model against DESIGN.md's table. */
#include "hg_events.h"
#include "reg_model.h"
#include "tap.h"

static int is_on(int rocm, uint8_t api, uint32_t flags, int coherent,
		 uint8_t mem, uint8_t gran)
{
	struct reg_model_env env = {coherent, rocm};
	uint8_t m, g;

	reg_model(api, flags, &env, &m, &g);
	return m == mem && g == gran;
}

static int is(uint8_t api, uint32_t flags, int coherent, uint8_t mem, uint8_t gran)
{
	return is_on(0, api, flags, coherent, mem, gran);
}

int main(void)
{
	ok(is(HG_API_HIP_MALLOC, 0, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "hipMalloc: coarse device memory");
	ok(is(HG_API_HIP_EXT_MALLOC_WITH_FLAGS, 1, -1, HG_MEM_DEVICE_FINE,
	      HG_GRAN_FINE), "hipExtMallocWithFlags(Finegrained): fine");
	ok(is(HG_API_HIP_EXT_MALLOC_WITH_FLAGS, 3, -1, HG_MEM_DEVICE_FINE,
	      HG_GRAN_FINE), "hipExtMallocWithFlags(Uncached): fine");
	ok(is(HG_API_HIP_MALLOC_MANAGED, 1, -1, HG_MEM_MANAGED, HG_GRAN_FINE),
	   "hipMallocManaged: fine");
	ok(is(HG_API_HIP_HOST_MALLOC, 0, 0, HG_MEM_HOST_PINNED, HG_GRAN_FINE),
	   "hipHostMalloc(Default): fine even with HIP_HOST_COHERENT=0");
	ok(is(HG_API_HIP_HOST_MALLOC, REG_HOST_MALLOC_NON_COHERENT, -1,
	      HG_MEM_HOST_PINNED, HG_GRAN_COARSE), "NonCoherent: coarse");
	ok(is(HG_API_HIP_HOST_MALLOC, REG_HOST_MALLOC_COHERENT, 0,
	      HG_MEM_HOST_PINNED, HG_GRAN_FINE), "Coherent: fine, env ignored");
	ok(is(HG_API_HIP_HOST_MALLOC,
	      REG_HOST_MALLOC_COHERENT | REG_HOST_MALLOC_NON_COHERENT, -1,
	      HG_MEM_HOST_PINNED, HG_GRAN_UNKNOWN),
	   "Coherent|NonCoherent: illegal, no granularity");
	ok(is(HG_API_HIP_HOST_MALLOC, 0x4 /* WriteCombined */, 0,
	      HG_MEM_HOST_PINNED, HG_GRAN_COARSE),
	   "WriteCombined with HIP_HOST_COHERENT=0: coarse");
	ok(is(HG_API_HIP_HOST_MALLOC, 0x4, -1, HG_MEM_HOST_PINNED, HG_GRAN_COARSE),
	   "WriteCombined with HIP_HOST_COHERENT unset: coarse (the runtime's "
	   "request to the driver, ROCm 5.2.3 and 6.4.3)");
	ok(is(HG_API_HIP_HOST_MALLOC, 0x4, 1, HG_MEM_HOST_PINNED, HG_GRAN_FINE),
	   "WriteCombined with HIP_HOST_COHERENT=1: fine");
	ok(is(HG_API_HIP_HOST_MALLOC, 0x1 /* Portable */, -1, HG_MEM_HOST_PINNED,
	      HG_GRAN_COARSE), "Portable with HIP_HOST_COHERENT unset: coarse");
	ok(is_on(5, HG_API_HIP_HOST_ALLOC, 0, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "hipHostAlloc on ROCm 5: coarse device memory (the driver table)");
	ok(is_on(6, HG_API_HIP_HOST_ALLOC, 0, -1, HG_MEM_HOST_PINNED, HG_GRAN_FINE),
	   "hipHostAlloc on ROCm 6: fine pinned host memory");
	ok(is(HG_API_HIP_HOST_MALLOC, 0x3 /* Portable|Mapped */, -1,
	      HG_MEM_HOST_PINNED, HG_GRAN_FINE), "Portable|Mapped: fine");
	ok(is(HG_API_MALLOC, 0, -1, HG_MEM_SYSTEM, HG_GRAN_FINE),
	   "malloc: fine system memory");
	/* Seed 000's "OpenMP Allocation Mechanism" table. */
	ok(is(HG_API_OMP_MAP, 0x3, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "OpenMP map (default mode): a coarse device copy");
	ok(is(HG_API_OMP_TARGET_ALLOC, 0, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "omp_target_alloc: coarse device memory");
	ok(is(HG_API_LLVM_OMP_TARGET_ALLOC_HOST, 0, -1, HG_MEM_HOST_PINNED,
	      HG_GRAN_FINE), "llvm_omp_target_alloc_host: fine pinned host");
	ok(is(HG_API_LLVM_OMP_TARGET_ALLOC_SHARED, 0, -1, HG_MEM_MANAGED,
	      HG_GRAN_FINE), "llvm_omp_target_alloc_shared: fine managed");
	ok(is(HG_API_OMP_ALLOC_PINNED, 0, -1, HG_MEM_HOST_REGISTERED,
	      HG_GRAN_FINE), "omp_alloc, pinned allocator: memory lock, fine");
	/* HSA: the pool's global flags decide. */
	ok(is(HG_API_HSA_MEMORY_POOL_ALLOCATE, REG_HSA_POOL_COARSE, -1,
	      HG_MEM_DEVICE, HG_GRAN_COARSE), "HSA coarse pool: coarse device");
	ok(is(HG_API_HSA_MEMORY_POOL_ALLOCATE, REG_HSA_POOL_FINE, -1,
	      HG_MEM_DEVICE_FINE, HG_GRAN_FINE), "HSA fine device pool: fine");
	ok(is(HG_API_HSA_MEMORY_POOL_ALLOCATE,
	      REG_HSA_POOL_FINE | REG_HSA_POOL_ALL_AGENTS, -1,
	      HG_MEM_HOST_PINNED, HG_GRAN_FINE),
	   "HSA fine system pool: fine pinned host memory");
	ok(is(HG_API_HSA_MEMORY_LOCK, 0, -1, HG_MEM_HOST_REGISTERED,
	      HG_GRAN_FINE), "hsa_amd_memory_lock: fine registered host");
	/* Allocation properties (hipMemCreate, pools, graph nodes). */
	ok(is(HG_API_HIP_MEM_MAP, 1, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "hipMemMap of pinned device memory: coarse");
	ok(is(HG_API_HIP_MEM_MAP, 1 | REG_PROP_UNCACHED, -1,
	      HG_MEM_DEVICE_FINE, HG_GRAN_FINE),
	   "hipMemMap of uncached device memory: fine");
	ok(is(HG_API_HIP_MEM_MAP, REG_PROP_LOC_HOST, -1, HG_MEM_HOST_PINNED,
	      HG_GRAN_FINE), "hipMemMap of host memory: fine pinned host");
	ok(is(HG_API_HIP_MALLOC_FROM_POOL_ASYNC, 0, -1, HG_MEM_DEVICE,
	      HG_GRAN_COARSE), "a pool of unknown properties: coarse device");
	ok(is(HG_API_HIP_MEM_POOL_IMPORT_POINTER, REG_PROP_UNREAD, -1,
	      HG_MEM_DEVICE, HG_GRAN_UNKNOWN),
	   "a pointer from a pool whose properties were not read: unknown");
	ok(is(HG_API_HIP_MEM_MAP, REG_PROP_UNREAD | REG_PROP_LOC_HOST, -1,
	      HG_MEM_DEVICE, HG_GRAN_UNKNOWN),
	   "unread properties: unknown, whatever else the flags hold");
	ok(is(HG_API_HIP_MALLOC_FROM_POOL_ASYNC, REG_PROP_LOC_HOST + 1, -1,
	      HG_MEM_HOST_PINNED, HG_GRAN_FINE), "a host NUMA pool: fine");
	ok(is(HG_API_HIP_MALLOC_ASYNC, 0, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "hipMallocAsync from the default pool: coarse device");
	ok(is(HG_API_HIP_MALLOC_ASYNC, REG_PROP_LOC_HOST, -1,
	      HG_MEM_HOST_PINNED, HG_GRAN_FINE),
	   "hipMallocAsync from a host pool made current: fine");
	ok(is(HG_API_HIP_MALLOC_HOST, 0, -1, HG_MEM_HOST_PINNED, HG_GRAN_FINE),
	   "hipMallocHost: fine pinned host");
	ok(is(HG_API_HIP_MEM_ALLOC_PITCH, 0, -1, HG_MEM_DEVICE, HG_GRAN_COARSE),
	   "hipMemAllocPitch: coarse device");
	/* hipMemAllocationProp in both field orders: uncached device memory
	 * on device 3 (ROCm 7's type). */
	{
		const int32_t old[] = {0, 1, 3, 0, (int32_t)REG_PROP_UNCACHED};
		const int32_t new[] = {(int32_t)REG_PROP_UNCACHED, 0, 1, 3, 0};
		struct reg_prop a, b;

		reg_prop_read(old, 0, &a);
		reg_prop_read(new, 1, &b);
		ok(a.type == (int32_t)REG_PROP_UNCACHED && a.loc_type == 1 &&
			   a.loc_id == 3,
		   "ROCm 5.2's field order: type, location read");
		ok(b.type == a.type && b.loc_type == 1 && b.loc_id == 3,
		   "the later field order: the same");
		ok(reg_prop_flags(b.type, b.loc_type) == (1 | REG_PROP_UNCACHED),
		   "uncached device memory: location 1, uncached bit");
		ok(reg_prop_flags(1, 2) == REG_PROP_LOC_HOST,
		   "pinned host memory: the location only");
	}
	return done();
}
