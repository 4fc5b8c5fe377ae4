/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): the virtual memory API and
 * stream-ordered pools.  A reservation is an inaccessible anonymous
 * mapping; a handle is a memfd of its size; hipMemMap maps the memfd over
 * the reservation (read-write at once: hipMemSetAccess only checks), and
 * hipMemUnmap puts the reservation back.  Properties are accepted as
 * ROCm 7 accepts them (pinned or uncached, on a device or the host), so
 * that tests can make every granularity a program can ask for.
 */
#include "fh.h"
#include "fh_vm.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define FH_UNCACHED 0x40000000 /* hipMemAllocationTypeUncached, ROCm 7 */
#define FH_LOC_HOST_LAST 4     /* host, host NUMA, current host NUMA */

static int fh_prop_ok(int type, hipMemLocation loc)
{
	return (type == hipMemAllocationTypePinned || type == FH_UNCACHED) &&
	       loc.type >= hipMemLocationTypeDevice &&
	       loc.type <= FH_LOC_HOST_LAST &&
	       (loc.type != hipMemLocationTypeDevice || loc.id == 0);
}

hipError_t fh_pool_map(void **ptr, size_t size, const hipMemPoolProps *props)
{
	if (!ptr || !size || !props ||
	    !fh_prop_ok(props->allocType, props->location))
		return hipErrorInvalidValue;
	return fh_map(ptr, size,
		      props->location.type == hipMemLocationTypeDevice
			      ? FH_DEVICE : FH_HOST, 0);
}

hipError_t hipMemGetAllocationGranularity(size_t *g,
					  const hipMemAllocationProp *prop,
					  hipMemAllocationGranularity_flags o)
{
	FH_INIT();
	if (!g || !prop)
		return fh_ret(hipErrorInvalidValue);
	*g = FH_PAGE;
	return fh_ret(hipSuccess);
}

hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t align,
				void *addr, unsigned long long flags)
{
	FH_INIT();
	void *p;

	if (!ptr || !size || size % FH_PAGE)
		return fh_ret(hipErrorInvalidValue);
	p = mmap(NULL, size, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return fh_ret(hipErrorOutOfMemory);
	*ptr = p;
	fh_log("hipMemAddressReserve ptr=%p size=%zu -> hipSuccess", p, size);
	return fh_ret(hipSuccess);
}

hipError_t hipMemAddressFree(void *ptr, size_t size)
{
	FH_INIT();
	if (!ptr || !size || munmap(ptr, size))
		return fh_ret(hipErrorInvalidValue);
	fh_log("hipMemAddressFree ptr=%p size=%zu -> hipSuccess", ptr, size);
	return fh_ret(hipSuccess);
}

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *h, size_t size,
			const hipMemAllocationProp *prop,
			unsigned long long flags)
{
	FH_INIT();
	struct ihipMemGenericAllocationHandle *m;

	if (!h || !prop || !size || size % FH_PAGE || flags ||
	    !fh_prop_ok(prop->type, prop->location))
		return fh_ret(hipErrorInvalidValue);
	m = malloc(sizeof(*m));
	if (!m)
		return fh_ret(hipErrorOutOfMemory);
	m->size = size;
	m->described = 1;
	m->type = prop->type;
	m->loc = prop->location;
	m->fd = memfd_create("fakehip-vm", MFD_CLOEXEC);
	if (m->fd < 0 || fh_vm_describe_fd(m)) {
		if (m->fd >= 0)
			close(m->fd);
		free(m);
		return fh_ret(hipErrorOutOfMemory);
	}
	*h = m;
	fh_log("hipMemCreate handle=%p size=%zu type=0x%x location=%d,%d -> "
	       "hipSuccess", (void *)m, size, (unsigned)prop->type,
	       (int)prop->location.type, prop->location.id);
	return fh_ret(hipSuccess);
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t h)
{
	FH_INIT();
	if (!h)
		return fh_ret(hipErrorInvalidValue);
	/* Logged first: GCC 14 refuses even to print a freed pointer. */
	fh_log("hipMemRelease handle=%p -> hipSuccess", (void *)h);
	close(h->fd);
	free(h);
	return fh_ret(hipSuccess);
}

hipError_t hipMemMap(void *ptr, size_t size, size_t offset,
		     hipMemGenericAllocationHandle_t h,
		     unsigned long long flags)
{
	FH_INIT();
	struct fh_alloc *e;
	void *p;

	if (!ptr || !h || !size || flags || offset + size > h->size ||
	    (uintptr_t)ptr % FH_PAGE || offset % FH_PAGE)
		return fh_ret(hipErrorInvalidValue);
	p = mmap(ptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 h->fd, (off_t)offset);
	if (p == MAP_FAILED)
		return fh_ret(hipErrorOutOfMemory);
	fh_lock();
	e = fh_add((uintptr_t)ptr, size, NULL, 0, FH_VM, 0);
	fh_unlock();
	fh_log("hipMemMap ptr=%p size=%zu handle=%p -> %s", ptr, size,
	       (void *)h, e ? "hipSuccess" : "hipErrorOutOfMemory");
	return fh_ret(e ? hipSuccess : hipErrorOutOfMemory);
}

hipError_t hipMemUnmap(void *ptr, size_t size)
{
	FH_INIT();
	hipError_t err = ptr ? fh_unmap(ptr, FH_KIND_BIT(FH_VM))
			     : hipErrorInvalidValue;

	if (err == hipSuccess)
		mmap(ptr, size, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
		     -1, 0);
	fh_log("hipMemUnmap ptr=%p size=%zu -> %s", ptr, size,
	       hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *d,
			   size_t count)
{
	FH_INIT();
	return fh_ret(ptr && size && d && count ? hipSuccess
						: hipErrorInvalidValue);
}

/* hipMallocAsync allocates from the device's current pool: its default
 * one (device memory) until hipDeviceSetMemPool names another. */
static struct ihipMemPoolHandle_t fh_default_pool;
static hipMemPool_t fh_current_pool = &fh_default_pool;

enum fh_kind fh_pool_kind(void)
{
	int host;

	fh_lock();
	host = fh_current_pool->host;
	fh_unlock();
	return host ? FH_HOST : FH_DEVICE;
}

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *pool, int dev)
{
	FH_INIT();
	if (!pool || dev != 0)
		return fh_ret(hipErrorInvalidValue);
	*pool = &fh_default_pool;
	return fh_ret(hipSuccess);
}

hipError_t hipDeviceGetMemPool(hipMemPool_t *pool, int dev)
{
	FH_INIT();
	if (!pool || dev != 0)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	*pool = fh_current_pool;
	fh_unlock();
	return fh_ret(hipSuccess);
}

hipError_t hipDeviceSetMemPool(int dev, hipMemPool_t pool)
{
	FH_INIT();
	if (!pool || dev != 0)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	fh_current_pool = pool;
	fh_unlock();
	fh_log("hipDeviceSetMemPool device=%d pool=%p -> hipSuccess", dev,
	       (void *)pool);
	return fh_ret(hipSuccess);
}

hipError_t hipMemPoolCreate(hipMemPool_t *pool, const hipMemPoolProps *props)
{
	FH_INIT();
	struct ihipMemPoolHandle_t *p;

	if (!pool || !props || !fh_prop_ok(props->allocType, props->location))
		return fh_ret(hipErrorInvalidValue);
	p = malloc(sizeof(*p));
	if (!p)
		return fh_ret(hipErrorOutOfMemory);
	p->host = props->location.type != hipMemLocationTypeDevice;
	*pool = p;
	fh_log("hipMemPoolCreate pool=%p location=%d -> hipSuccess",
	       (void *)p, (int)props->location.type);
	return fh_ret(hipSuccess);
}

hipError_t hipMemPoolDestroy(hipMemPool_t pool)
{
	FH_INIT();
	if (!pool || pool == &fh_default_pool)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	if (fh_current_pool == pool)
		fh_current_pool = &fh_default_pool;
	fh_unlock();
	free(pool);
	return fh_ret(hipSuccess);
}

hipError_t hipMallocFromPoolAsync(void **ptr, size_t size, hipMemPool_t pool,
				  hipStream_t stream)
{
	FH_INIT();
	hipError_t err = ptr && pool ? hipSuccess : hipErrorInvalidValue;

	if (err == hipSuccess && size)
		err = fh_map(ptr, size, pool->host ? FH_HOST : FH_DEVICE, 0);
	else if (err == hipSuccess)
		*ptr = NULL;
	fh_log("hipMallocFromPoolAsync ptr=%p size=%zu pool=%p -> %s",
	       ptr && err == hipSuccess ? *ptr : NULL, size, (void *)pool,
	       hipGetErrorName(err));
	return fh_ret(err);
}
