/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): device memory from outside
 * the process, within one process.  An IPC handle holds its allocation's
 * size; opening it maps fresh device memory of that size (contents are not
 * shared).  External memory is a size; each mapped buffer fresh device
 * memory, unmapped when the external memory is destroyed.
 */
#include "fh.h"

#include <stdlib.h>
#include <string.h>

hipError_t hipMemGetAddressRange(hipDeviceptr_t *base, size_t *size,
				 hipDeviceptr_t p)
{
	struct fh_alloc *a;

	FH_INIT();
	fh_lock();
	a = fh_find(p);
	if (a && base)
		*base = (hipDeviceptr_t)a->base;
	if (a && size)
		*size = a->size;
	fh_unlock();
	return fh_ret(a ? hipSuccess : hipErrorNotFound);
}

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *h, void *p)
{
	FH_INIT();
	size_t size = fh_base_size(p);

	if (!h || !size)
		return fh_ret(hipErrorInvalidValue);
	memset(h, 0, sizeof(*h));
	memcpy(h->reserved, &size, sizeof(size));
	return fh_ret(hipSuccess);
}

hipError_t hipIpcOpenMemHandle(void **p, hipIpcMemHandle_t h,
			       unsigned int flags)
{
	size_t size;

	FH_INIT();
	memcpy(&size, h.reserved, sizeof(size));
	if (!p || !size)
		return fh_ret(hipErrorInvalidValue);
	return fh_ret(fh_map(p, size, FH_DEVICE, 0));
}

hipError_t hipIpcCloseMemHandle(void *p)
{
	FH_INIT();
	return fh_ret(fh_unmap(p, FH_KIND_BIT(FH_DEVICE)));
}

#define FH_EXT_BUFFERS 16

struct fh_ext {
	unsigned long long size;
	int n;
	void *buf[FH_EXT_BUFFERS];
};

hipError_t hipImportExternalMemory(hipExternalMemory_t *out,
				   const hipExternalMemoryHandleDesc *d)
{
	struct fh_ext *e;

	FH_INIT();
	if (!out || !d || !d->size || !(e = calloc(1, sizeof(*e))))
		return fh_ret(hipErrorInvalidValue);
	e->size = d->size;
	*out = e;
	return fh_ret(hipSuccess);
}

hipError_t hipExternalMemoryGetMappedBuffer(void **p, hipExternalMemory_t ext,
					    const hipExternalMemoryBufferDesc *d)
{
	struct fh_ext *e = ext;
	hipError_t err;

	FH_INIT();
	if (!p || !e || !d || !d->size || d->offset > e->size ||
	    d->size > e->size - d->offset || e->n == FH_EXT_BUFFERS)
		return fh_ret(hipErrorInvalidValue);
	err = fh_map(p, d->size, FH_DEVICE, 0);
	if (err == hipSuccess)
		e->buf[e->n++] = *p;
	return fh_ret(err);
}

hipError_t hipDestroyExternalMemory(hipExternalMemory_t ext)
{
	struct fh_ext *e = ext;

	FH_INIT();
	if (!e)
		return fh_ret(hipErrorInvalidValue);
	for (int i = 0; i < e->n; i++)
		fh_unmap(e->buf[i], FH_KIND_BIT(FH_DEVICE));
	free(e);
	return fh_ret(hipSuccess);
}
