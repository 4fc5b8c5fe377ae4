/* SPDX-License-Identifier: MIT */
/*
 * The HSA front end: the calls through which every AMD runtime places
 * memory (one table, pl_hsa_table.h).  What they record is what the runtime
 * did, not what a model assumes: a range set coarse or fine with
 * hsa_amd_svm_attributes_set is a granularity change from the runtime
 * itself (the report follows it), a pool allocation carries the pool's own
 * flags, a lock registers host memory.  Calls are recorded when the program
 * makes them and when a HIP or OpenMP runtime makes them inside one of the
 * calls hipgrain traces (hipMemAdvise, a target region, ...), never when
 * hipgrain's own queries do.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_hsa_table.h"
#include "pl_launch.h"
#include "reg.h"

static void rec_svm(hsa_status_t rc, void *ptr, size_t size,
		    const hsa_amd_svm_attribute_pair_t *attrs, size_t n)
{
	reg_emit_call(HG_API_HSA_SVM_ATTRIBUTES_SET, (int32_t)rc,
		      (uintptr_t)ptr);
	/* The program's own call is a placement it asked for, as advice is;
	 * a runtime's, inside a traced call, is what the runtime did. */
	uint8_t src =
	    pl_in_runtime ? HG_GRAN_SRC_RUNTIME : HG_GRAN_SRC_HSA_CALL;

	for (size_t i = 0; rc == HSA_STATUS_SUCCESS && attrs && i < n; i++) {
		if (attrs[i].attribute != HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG)
			continue;
		if (attrs[i].value == HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED)
			reg_track_granularity(ptr, size, HG_GRAN_COARSE, src);
		else if (attrs[i].value == HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED)
			reg_track_granularity(ptr, size, HG_GRAN_FINE, src);
	}
}

/* The pool's global flags, as the runtime states them (0 if it does not). */
static uint32_t pool_flags(hsa_amd_memory_pool_t pool)
{
	static __typeof__(&hsa_amd_memory_pool_get_info) info;
	uint32_t flags = 0;
	bool all = false;

	if (!info)
		info = (__typeof__(info))pl_next_sym(
		    "hsa_amd_memory_pool_get_info");
	if (info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags))
		return 0;
	if (!info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all) &&
	    all)
		flags |= REG_HSA_POOL_ALL_AGENTS;
	return flags;
}

/*
 * Memory a runtime allocates or locks inside a traced call is its own
 * (a pool hipMalloc carves up, the pinning behind hipHostRegister): the
 * front end's call already stands for it, so only a call event says it
 * happened.  What the program allocates or locks itself is an allocation.
 */
static bool nested(uint8_t api, hsa_status_t rc, const void *p)
{
	if (!pl_in_runtime)
		return false;
	reg_emit_call(api, (int32_t)rc, (uintptr_t)p);
	return true;
}

static void rec_pool_alloc(hsa_status_t rc, hsa_amd_memory_pool_t pool,
			   size_t size, void **ptr)
{
	void *p = rc == HSA_STATUS_SUCCESS && ptr ? *ptr : NULL;

	if (!nested(HG_API_HSA_MEMORY_POOL_ALLOCATE, rc, p))
		reg_track_hip_alloc(HG_API_HSA_MEMORY_POOL_ALLOCATE, (int)rc, p,
				    size, pool_flags(pool), 0, 0);
}

static void rec_lock(uint8_t api, hsa_status_t rc, void *p, size_t size)
{
	if (!nested(api, rc, p))
		reg_track_hip_alloc(api, (int)rc, p, size, 0, 0, 0);
}

static void rec_free_begin(void *p, struct reg_hip_free *st)
{
	if (pl_in_runtime)
		return;
	pl_launch_flush();
	reg_track_hip_free_begin(p, st);
}

static void rec_free_end(uint8_t api, hsa_status_t rc, void *p,
			 const struct reg_hip_free *st)
{
	if (!nested(api, rc, p))
		reg_track_hip_free_end(api, (int)rc, p, st,
				       (uintptr_t)__builtin_return_address(0));
}

#define PL_HSA_WRAP(name, params, args, pre, post)                             \
	PL_EXPORT hsa_status_t name params                                     \
	{                                                                      \
		static __typeof__(&name) real;                                 \
		struct reg_hip_free fst __attribute__((unused)) = {0};         \
		int tr = pl_tracking_runtime();                                \
		hsa_status_t rc;                                               \
		PL_NESTED();                                                   \
		if (!real)                                                     \
			real = (__typeof__(&name))pl_next_sym(#name);          \
		if (tr)                                                        \
			pre;                                                   \
		rc = real args;                                                \
		if (tr)                                                        \
			post;                                                  \
		return rc;                                                     \
	}

PL_HSA_TABLE(PL_HSA_WRAP)
