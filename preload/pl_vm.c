/* SPDX-License-Identifier: MIT */
/*
 * Allocation properties (see pl_vm.h).  A handle or pool is remembered by
 * its value, with what its properties say, until the runtime hands out the
 * same value again: nothing is looked up but at a map or an allocation.
 */
#include "pl_vm.h"


#include "hg_events.h"
#include "pl_boot.h"
#include "reg_emit.h"
#include "reg_map.h"
#include "reg_model.h"
#include "reg_track.h"

/* ROCm 7's values, absent from the 5 and 6 headers hipgrain builds with. */
#define ALLOC_TYPE_UNCACHED 0x40000000
#define MAX_DEVICES 64

/* hipMemAllocationProp's first fields, as ROCm 5.2 laid them out and as
 * later releases reordered them (ROCm 5.7 and 6.4 have the new order). */
struct prop_old {
	unsigned char compression;
	hipMemLocation location;
	int handle_type;
	int type;
};
struct prop_new {
	int type;
	int handle_type;
	hipMemLocation location;
};

/* The first runtime taken to have the new order: 5.5, the release that
 * brought graph allocation nodes and reworked this API to CUDA's shape
 * (5.2 and 5.7 are the ones checked). */
#define PROP_NEW_ORDER 50500000

/* A remembered value: REG_PROP_* flags, the device + 1, and a bit that
 * tells an entry from none. */
#define KNOWN (1ull << 63)

static struct reg_map handles = REG_MAP_INIT, pools = REG_MAP_INIT;
static _Atomic uint64_t device_pool[MAX_DEVICES];

static uint64_t describe(int type, hipMemLocation loc)
{
	uint64_t flags = (uint32_t)loc.type & REG_PROP_LOC_MASK;

	if (type == ALLOC_TYPE_UNCACHED)
		flags |= REG_PROP_UNCACHED;
	if (loc.type == hipMemLocationTypeDevice)
		flags |= (uint64_t)(uint16_t)(loc.id + 1) << 32;
	return flags | KNOWN;
}

static uint32_t flags_of(uint64_t d)
{
	return (uint32_t)d;
}

static int device_of(uint64_t d)
{
	int dev = (int)((d >> 32) & 0xffff) - 1;

	return dev >= 0 ? dev : pl_device_current();
}

static _Atomic int runtime_version = -1;

/* Asked before the call, so that the runtime's answer to hipGetLastError
 * stays the program's. */
void pl_vm_learn_layout(void)
{
	hipError_t (*version)(int *);
	int v = 0;

	if (runtime_version >= 0)
		return;
	version = (hipError_t(*)(int *))pl_next_sym("hipRuntimeGetVersion");
	if (!version || version(&v) != hipSuccess)
		v = 0;
	runtime_version = v;
}

void pl_vm_rec_create(hipError_t rc, hipMemGenericAllocationHandle_t *h,
		      size_t size, const hipMemAllocationProp *prop)
{
	uint64_t d = 0;

	if (rc == hipSuccess && h && prop) {
		if (runtime_version >= PROP_NEW_ORDER) {
			const struct prop_new *p = (const void *)prop;

			d = describe(p->type, p->location);
		} else {
			const struct prop_old *p = (const void *)prop;

			d = describe(p->type, p->location);
		}
		reg_map_put(&handles, (uintptr_t)*h, (void *)(uintptr_t)d);
	}
	reg_emit_call(HG_API_HIP_MEM_CREATE, rc, size);
}

void pl_vm_rec_map(hipError_t rc, void *p, size_t size, size_t offset,
		   hipMemGenericAllocationHandle_t h)
{
	uint64_t d = (uintptr_t)reg_map_get(&handles, (uintptr_t)h);

	reg_track_hip_alloc(HG_API_HIP_MEM_MAP, rc, rc == hipSuccess ? p : NULL,
			    size, flags_of(d), offset, device_of(d));
}

void pl_vm_rec_pool(hipError_t rc, hipMemPool_t *pool,
		    const hipMemPoolProps *props)
{
	if (rc == hipSuccess && pool && props)
		reg_map_put(&pools, (uintptr_t)*pool,
			    (void *)(uintptr_t)describe(props->allocType,
							props->location));
	reg_emit_call(HG_API_HIP_MEM_POOL_CREATE, rc,
		      rc == hipSuccess && pool ? (uintptr_t)*pool : 0);
}

void pl_vm_rec_device_pool(hipError_t rc, int dev, hipMemPool_t pool)
{
	if (rc == hipSuccess && dev >= 0 && dev < MAX_DEVICES)
		device_pool[dev] = (uintptr_t)pool;
}

/* A pool never seen created (a device's default pool): pinned memory of
 * the device, coarse. */
static uint64_t pool_of(hipMemPool_t pool)
{
	int dev = pl_device_current();

	if (!pool && dev >= 0 && dev < MAX_DEVICES)
		pool = (hipMemPool_t)(uintptr_t)device_pool[dev];
	return pool ? (uintptr_t)reg_map_get(&pools, (uintptr_t)pool) : 0;
}

void pl_vm_rec_pool_alloc(uint8_t api, hipError_t rc, void **p, size_t size,
			  hipMemPool_t pool)
{
	uint64_t d = pool_of(pool);

	reg_track_hip_alloc(api, rc, rc == hipSuccess && p ? *p : NULL, size,
			    flags_of(d), 0, device_of(d));
}

/* The import names no size: the runtime's answer, else the one byte the
 * pointer is known to reach. */
void pl_vm_rec_import(hipError_t rc, void **p, hipMemPool_t pool)
{
	hipError_t (*info)(void *, size_t *) =
		(hipError_t(*)(void *, size_t *))pl_find_sym("hipMemPtrGetInfo");
	uint64_t d = pool_of(pool);
	void *at = rc == hipSuccess && p ? *p : NULL;
	size_t size = 0;

	if (at && (!info || info(at, &size) != hipSuccess || !size))
		size = 1;
	reg_track_hip_alloc(HG_API_HIP_MEM_POOL_IMPORT_POINTER, rc, at, size,
			    flags_of(d), 0, device_of(d));
}

void pl_vm_rec_graph_alloc(hipError_t rc, hipGraphNode_t *node,
			   const hipMemAllocNodeParams *p)
{
	int ok = rc == hipSuccess && node && p;
	uint64_t d = p ? describe(p->poolProps.allocType,
				  p->poolProps.location) : 0;

	reg_track_hip_alloc(HG_API_HIP_GRAPH_MEM_ALLOC, rc,
			    ok ? p->dptr : NULL, p ? p->bytesize : 0,
			    flags_of(d), 0, device_of(d));
}
