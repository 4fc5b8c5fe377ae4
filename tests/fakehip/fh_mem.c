/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): allocation and release.
 * Argument checks follow ROCm 5.2 (ROCclr hip_memory.cpp): a NULL out
 * pointer is hipErrorInvalidValue, size 0 succeeds with *ptr = NULL,
 * Coherent|NonCoherent together is hipErrorInvalidValue, hipFree(NULL)
 * succeeds, an unknown pointer is hipErrorInvalidValue.  hipFree and
 * hipHostFree both release any HIP allocation (5.2 routes both through the
 * same ihipFree), which is exactly the mismatch hipgrain reports.
 */
#include "fh.h"

#include <stdint.h>

#define FH_FREEABLE                                                            \
	(FH_KIND_BIT(FH_DEVICE) | FH_KIND_BIT(FH_DEVICE_FINE) |                \
	 FH_KIND_BIT(FH_MANAGED) | FH_KIND_BIT(FH_HOST))

static hipError_t fh_alloc(const char *api, void **ptr, size_t size,
			   enum fh_kind kind, unsigned int flags)
{
	hipError_t err = hipSuccess;
	if (!ptr)
		err = hipErrorInvalidValue;
	else if (size == 0)
		*ptr = NULL;
	else
		err = fh_map(ptr, size, kind, flags);
	fh_log("%s ptr=%p size=%zu flags=0x%x -> %s", api,
	       ptr && err == hipSuccess ? *ptr : NULL, size, flags,
	       hipGetErrorName(err));
	return fh_ret(err);
}

static hipError_t fh_free(const char *api, void *ptr, unsigned int mask)
{
	hipError_t err = ptr ? fh_unmap(ptr, mask) : hipSuccess;
	fh_log("%s ptr=%p -> %s", api, ptr, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipMalloc(void **ptr, size_t size)
{
	FH_INIT();
	return fh_alloc("hipMalloc", ptr, size, FH_DEVICE, 0);
}

hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
	FH_INIT();
	if (!pitch)
		return fh_ret(hipErrorInvalidValue);
	*pitch = (width + 255) & ~(size_t)255;
	return fh_alloc("hipMallocPitch", ptr, *pitch * height, FH_DEVICE, 0);
}

hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream)
{
	FH_INIT();
	return fh_alloc("hipMallocAsync", ptr, size, fh_pool_kind(), 0);
}

hipError_t hipExtMallocWithFlags(void **ptr, size_t size, unsigned int flags)
{
	FH_INIT();
	if (flags & ~(unsigned int)(hipDeviceMallocFinegrained | hipMallocSignalMemory))
		return fh_ret(hipErrorInvalidValue);
	return fh_alloc("hipExtMallocWithFlags", ptr, size,
			flags ? FH_DEVICE_FINE : FH_DEVICE, flags);
}

hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags)
{
	FH_INIT();
	if (flags != hipMemAttachGlobal && flags != hipMemAttachHost)
		return fh_ret(hipErrorInvalidValue);
	return fh_alloc("hipMallocManaged", ptr, size, FH_MANAGED, flags);
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags)
{
	FH_INIT();
	if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)) {
		fh_log("hipHostMalloc size=%zu flags=0x%x -> hipErrorInvalidValue",
		       size, flags);
		return fh_ret(hipErrorInvalidValue);
	}
	return fh_alloc("hipHostMalloc", ptr, size, FH_HOST, flags);
}

hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags)
{
	FH_INIT();
	return fh_alloc("hipHostAlloc", ptr, size, FH_HOST, flags);
}

hipError_t hipMallocHost(void **ptr, size_t size)
{
	FH_INIT();
	return fh_alloc("hipMallocHost", ptr, size, FH_HOST, 0);
}

hipError_t hipMemAllocHost(void **ptr, size_t size)
{
	FH_INIT();
	return fh_alloc("hipMemAllocHost", ptr, size, FH_HOST, 0);
}

hipError_t hipMemAllocPitch(hipDeviceptr_t *ptr, size_t *pitch, size_t width,
			    size_t height, unsigned int elem)
{
	FH_INIT();
	if (!pitch || !elem)
		return fh_ret(hipErrorInvalidValue);
	*pitch = (width + 255) & ~(size_t)255;
	return fh_alloc("hipMemAllocPitch", ptr, *pitch * height, FH_DEVICE, 0);
}

hipError_t hipFree(void *ptr)
{
	FH_INIT();
	return fh_free("hipFree", ptr, FH_FREEABLE);
}

hipError_t hipFreeAsync(void *ptr, hipStream_t stream)
{
	FH_INIT();
	return fh_free("hipFreeAsync", ptr, FH_FREEABLE);
}

hipError_t hipHostFree(void *ptr)
{
	FH_INIT();
	return fh_free("hipHostFree", ptr, FH_FREEABLE);
}

hipError_t hipFreeHost(void *ptr)
{
	FH_INIT();
	return fh_free("hipFreeHost", ptr, FH_FREEABLE);
}

hipError_t hipHostRegister(void *ptr, size_t size, unsigned int flags)
{
	FH_INIT();
	hipError_t err = hipSuccess;
	if (!ptr || size == 0) {
		err = hipErrorInvalidValue;
	} else {
		fh_lock();
		if (fh_find(ptr))
			err = hipErrorHostMemoryAlreadyRegistered;
		else if (!fh_add((uintptr_t)ptr, size, NULL, 0, FH_REGISTERED, flags))
			err = hipErrorOutOfMemory;
		fh_unlock();
	}
	fh_log("hipHostRegister ptr=%p size=%zu flags=0x%x -> %s", ptr, size,
	       flags, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipHostUnregister(void *ptr)
{
	FH_INIT();
	hipError_t err = fh_unmap(ptr, FH_KIND_BIT(FH_REGISTERED));
	if (err != hipSuccess)
		err = hipErrorHostMemoryNotRegistered;
	fh_log("hipHostUnregister ptr=%p -> %s", ptr, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipHostGetDevicePointer(void **dev, void *host, unsigned int flags)
{
	FH_INIT();
	if (!dev || !host || flags)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	struct fh_alloc *e = fh_find(host);
	int ok = e && (e->kind == FH_HOST || e->kind == FH_REGISTERED);
	fh_unlock();
	if (!ok)
		return fh_ret(hipErrorInvalidValue);
	*dev = host; /* one address space, as on a large-BAR ROCm system */
	return fh_ret(hipSuccess);
}

hipError_t hipMemPtrGetInfo(void *ptr, size_t *size)
{
	FH_INIT();
	if (!ptr || !size)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	struct fh_alloc *e = fh_find(ptr);
	if (e)
		*size = e->size;
	fh_unlock();
	return fh_ret(e ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total)
{
	FH_INIT();
	if (!free_bytes || !total)
		return fh_ret(hipErrorInvalidValue);
	*total = (size_t)64 << 30;
	*free_bytes = *total;
	return fh_ret(hipSuccess);
}
