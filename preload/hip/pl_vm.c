/* SPDX-License-Identifier: MIT */
/*
 * Allocation properties (see pl_vm.h).  A handle or pool is remembered by
 * its value, with what its properties say, until the runtime hands out the
 * same value again: nothing is looked up but at a map or an allocation.
 */
#include "pl_device.h"
#include "pl_vm.h"

#include <stddef.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_hip.h"
#include "pl_query.h"
#include "reg.h"
#include "hg_lmap.h"

#define MAX_DEVICES 64

/* ROCm 7 lets a pool's memory be on the host, or uncached: before it, a
 * pool is pinned device memory whatever else it was asked. */
#define POOL_ANY_KIND 70000000

/* The first runtime taken to have the new order: 5.5, the release that
 * brought graph allocation nodes and reworked this API to CUDA's shape
 * (5.2 and 5.7 are the ones checked). */
#define PROP_NEW_ORDER 50500000

/* reg_prop_read's offsets, against the headers built with: a release
 * that breaks the rule above stops the build here. */
#if HIP_VERSION < PROP_NEW_ORDER
_Static_assert(offsetof(hipMemAllocationProp, location) == 4 &&
		       offsetof(hipMemAllocationProp, type) == 16,
	       "ROCm 5.2's hipMemAllocationProp");
#else
_Static_assert(offsetof(hipMemAllocationProp, type) == 0 &&
		       offsetof(hipMemAllocationProp, location) == 8,
	       "the later hipMemAllocationProp");
#endif

/* A remembered value: REG_PROP_* flags, the device + 1, and a bit that
 * tells an entry from none. */
#define KNOWN (1ull << 63)

static struct hg_lmap handles = HG_LMAP_INIT, pools = HG_LMAP_INIT;
static _Atomic uint64_t device_pool[MAX_DEVICES];

static uint64_t describe(int type, int loc_type, int loc_id)
{
	uint64_t flags = reg_prop_flags(type, loc_type);

	if (loc_type == hipMemLocationTypeDevice)
		flags |= (uint64_t)(uint16_t)(loc_id + 1) << 32;
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
	/* HIP_VERSION: major * 10000000 + minor * 100000 + patch. */
	__atomic_store_n(&reg_cfg.rocm_major, v / 10000000, __ATOMIC_RELAXED);
}

void pl_vm_rec_create(hipError_t rc, hipMemGenericAllocationHandle_t *h,
		      size_t size, const hipMemAllocationProp *prop)
{
	uint64_t d = 0;

	if (rc == hipSuccess && h && prop) {
		struct reg_prop p;

		reg_prop_read(prop, runtime_version >= PROP_NEW_ORDER, &p);
		d = describe(p.type, p.loc_type, p.loc_id);
		hg_lmap_put(&handles, (uintptr_t)*h, (void *)(uintptr_t)d);
	}
	reg_emit_call(HG_API_HIP_MEM_CREATE, rc, size);
}

/* An imported handle carries its exporter's properties, and the runtime
 * tells them. */
void pl_vm_rec_import_handle(hipError_t rc,
			     hipMemGenericAllocationHandle_t *h)
{
	static __typeof__(&hipMemGetAllocationPropertiesFromHandle) get;
	/* Room for a later release's longer struct. */
	union {
		hipMemAllocationProp prop;
		unsigned char room[256];
	} u;
	uint64_t d = KNOWN | REG_PROP_UNREAD;

	if (rc == hipSuccess && h) {
		if (!get)
			get = (__typeof__(get))pl_find_sym(
				"hipMemGetAllocationPropertiesFromHandle");
		memset(&u, 0, sizeof(u));
		if (get && get(&u.prop, *h) == hipSuccess) {
			struct reg_prop p;

			reg_prop_read(&u.prop, runtime_version >= PROP_NEW_ORDER,
				      &p);
			d = describe(p.type, p.loc_type, p.loc_id);
		} else {
			if (get)
				pl_query_failed();
			reg_emit_warning(HG_WARN_PROPERTIES_UNREAD,
					 "hipMemImportFromShareableHandle: the "
					 "runtime did not describe the handle; "
					 "its mappings are device memory of "
					 "unknown granularity");
		}
		hg_lmap_put(&handles, (uintptr_t)*h, (void *)(uintptr_t)d);
	}
	reg_emit_call(HG_API_HIP_MEM_IMPORT_FROM_SHAREABLE_HANDLE, rc,
		      rc == hipSuccess && h ? (uintptr_t)*h : 0);
}

void pl_vm_rec_map(hipError_t rc, void *p, size_t size, size_t offset,
		   hipMemGenericAllocationHandle_t h)
{
	uint64_t d = (uintptr_t)hg_lmap_get(&handles, (uintptr_t)h);

	reg_track_hip_alloc(HG_API_HIP_MEM_MAP, rc, rc == hipSuccess ? p : NULL,
			    size, flags_of(d), offset, device_of(d));
}

void pl_vm_rec_pool(hipError_t rc, hipMemPool_t *pool,
		    const hipMemPoolProps *props)
{
	if (rc == hipSuccess && pool && props)
		hg_lmap_put(&pools, (uintptr_t)*pool,
			    (void *)(uintptr_t)describe(props->allocType,
							props->location.type,
							props->location.id));
	reg_emit_call(HG_API_HIP_MEM_POOL_CREATE, rc,
		      rc == hipSuccess && pool ? (uintptr_t)*pool : 0);
}

void pl_vm_rec_device_pool(hipError_t rc, int dev, hipMemPool_t pool)
{
	if (rc == hipSuccess && dev >= 0 && dev < MAX_DEVICES)
		device_pool[dev] = (uintptr_t)pool;
}

/* No call tells an imported pool's properties.  Before ROCm 7 there is
 * one kind of pool, and its memory is coarse device memory; from ROCm 7 it
 * may be host or uncached memory, which only the exporter knows. */
void pl_vm_rec_pool_import(hipError_t rc, hipMemPool_t *pool)
{
	uint64_t d = runtime_version >= POOL_ANY_KIND
			     ? KNOWN | REG_PROP_UNREAD
			     : describe(hipMemAllocationTypePinned,
					hipMemLocationTypeDevice, -1);

	if (rc == hipSuccess && pool) {
		hg_lmap_put(&pools, (uintptr_t)*pool, (void *)(uintptr_t)d);
		if (d & REG_PROP_UNREAD)
			reg_emit_warning(HG_WARN_PROPERTIES_UNREAD,
					 "hipMemPoolImportFromShareableHandle: "
					 "an imported pool's properties are "
					 "the exporter's; its memory is device "
					 "memory of unknown granularity");
	}
	reg_emit_call(HG_API_HIP_MEM_POOL_IMPORT_FROM_SHAREABLE_HANDLE, rc,
		      rc == hipSuccess && pool ? (uintptr_t)*pool : 0);
}

/* A pool never seen created (a device's default pool): pinned memory of
 * the device, coarse. */
static uint64_t pool_of(hipMemPool_t pool)
{
	int dev = pl_device_current();

	if (!pool && dev >= 0 && dev < MAX_DEVICES)
		pool = (hipMemPool_t)(uintptr_t)device_pool[dev];
	return pool ? (uintptr_t)hg_lmap_get(&pools, (uintptr_t)pool) : 0;
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
	static __typeof__(&hipMemPtrGetInfo) info;
	uint64_t d = pool_of(pool);
	void *at = rc == hipSuccess && p ? *p : NULL;
	size_t size = 0;

	if (at && !info)
		info = (__typeof__(info))pl_find_sym("hipMemPtrGetInfo");
	if (at && info && info(at, &size) != hipSuccess) {
		pl_query_failed();
		size = 0;
	}
	if (at && !size)
		size = 1;
	reg_track_hip_alloc(HG_API_HIP_MEM_POOL_IMPORT_POINTER, rc, at, size,
			    flags_of(d), 0, device_of(d));
}

uint64_t pl_vm_rec_graph_alloc(hipError_t rc, hipGraphNode_t *node,
			       const hipMemAllocNodeParams *p)
{
	int ok = rc == hipSuccess && node && p;
	uint64_t d = p ? describe(p->poolProps.allocType,
				  p->poolProps.location.type,
				  p->poolProps.location.id) : 0;

	reg_track_hip_alloc(HG_API_HIP_GRAPH_MEM_ALLOC, rc,
			    ok ? p->dptr : NULL, p ? p->bytesize : 0,
			    flags_of(d), 0, device_of(d));
	return d;
}

void pl_vm_rec_graph_alloc_again(void *p, size_t size, uint64_t d)
{
	reg_track_hip_alloc(HG_API_HIP_GRAPH_MEM_ALLOC, hipSuccess, p, size,
			    flags_of(d), 0, device_of(d));
}

/* What pl_vm_learn_layout learnt: the runtime's version, 0 if unknown. */
int pl_vm_runtime_version(void)
{
	return runtime_version > 0 ? runtime_version : 0;
}
