/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): handles and pools handed to
 * another process through a file descriptor, as
 * hipMemHandleTypePosixFileDescriptor does.  Export writes the descriptor
 * into the int its caller points at; import takes the descriptor as the
 * pointer's value (CUDA's convention, which RCCL follows).  A handle's
 * memfd carries a page that describes it, so an import in any process
 * knows its properties; a pool's memfd holds its one property.  A pool
 * pointer's export data holds its size: importing it maps fresh memory of
 * that size from the imported pool (within one process, as fh_ipc.c does,
 * contents are not shared).
 */
#include "fh_vm.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define FH_VM_MAGIC 0x68676d76u /* "hgmv" */

struct fh_vm_page {
	uint32_t magic;
	int32_t type, loc_type, loc_id;
};

int fh_vm_describe_fd(const struct ihipMemGenericAllocationHandle *h)
{
	struct fh_vm_page pg = {FH_VM_MAGIC, h->type, (int32_t)h->loc.type,
				h->loc.id};

	return ftruncate(h->fd, (off_t)(h->size + FH_PAGE)) ||
	       pwrite(h->fd, &pg, sizeof(pg), (off_t)h->size) !=
		       (ssize_t)sizeof(pg);
}

static int fh_fd_of(void *os)
{
	intptr_t fd = (intptr_t)os;

	return fd >= 0 && fd <= INT32_MAX ? (int)fd : -1;
}

hipError_t hipMemExportToShareableHandle(void *out,
					 hipMemGenericAllocationHandle_t h,
					 hipMemAllocationHandleType type,
					 unsigned long long flags)
{
	FH_INIT();
	int fd;

	if (!out || !h || flags || type != hipMemHandleTypePosixFileDescriptor)
		return fh_ret(hipErrorInvalidValue);
	fd = dup(h->fd);
	if (fd < 0)
		return fh_ret(hipErrorOutOfMemory);
	memcpy(out, &fd, sizeof(fd));
	return fh_ret(hipSuccess);
}

hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *h,
					   void *os,
					   hipMemAllocationHandleType type)
{
	FH_INIT();
	struct ihipMemGenericAllocationHandle *m;
	struct fh_vm_page pg = {0};
	int fd = fh_fd_of(os);
	struct stat st;

	if (!h || type != hipMemHandleTypePosixFileDescriptor || fd < 0 ||
	    fstat(fd, &st) || st.st_size <= 0 || st.st_size % FH_PAGE)
		return fh_ret(hipErrorInvalidValue);
	if (!(m = calloc(1, sizeof(*m))))
		return fh_ret(hipErrorOutOfMemory);
	m->size = (size_t)st.st_size;
	if (m->size > FH_PAGE &&
	    pread(fd, &pg, sizeof(pg), (off_t)(m->size - FH_PAGE)) ==
		    (ssize_t)sizeof(pg) &&
	    pg.magic == FH_VM_MAGIC) {
		m->size -= FH_PAGE;
		m->described = 1;
		m->type = pg.type;
		m->loc.type = (hipMemLocationType)pg.loc_type;
		m->loc.id = pg.loc_id;
	}
	m->fd = dup(fd);
	if (m->fd < 0) {
		free(m);
		return fh_ret(hipErrorOutOfMemory);
	}
	*h = m;
	fh_log("hipMemImportFromShareableHandle handle=%p size=%zu "
	       "described=%d -> hipSuccess", (void *)m, m->size, m->described);
	return fh_ret(hipSuccess);
}

/* A descriptor some other API made (a plain memfd, say) can be mapped but
 * not described: the double says so rather than invent properties. */
hipError_t hipMemGetAllocationPropertiesFromHandle(
	hipMemAllocationProp *prop, hipMemGenericAllocationHandle_t h)
{
	FH_INIT();
	if (!prop || !h)
		return fh_ret(hipErrorInvalidValue);
	if (!h->described)
		return fh_ret(hipErrorNotSupported);
	memset(prop, 0, sizeof(*prop));
	prop->type = (hipMemAllocationType)h->type;
	prop->location = h->loc;
	return fh_ret(hipSuccess);
}

hipError_t hipMemPoolExportToShareableHandle(void *out, hipMemPool_t pool,
					     hipMemAllocationHandleType type,
					     unsigned int flags)
{
	FH_INIT();
	int fd;

	if (!out || !pool || flags ||
	    type != hipMemHandleTypePosixFileDescriptor)
		return fh_ret(hipErrorInvalidValue);
	fd = memfd_create("fakehip-pool", MFD_CLOEXEC);
	if (fd < 0 || pwrite(fd, &pool->host, sizeof(pool->host), 0) !=
			      (ssize_t)sizeof(pool->host)) {
		if (fd >= 0)
			close(fd);
		return fh_ret(hipErrorOutOfMemory);
	}
	memcpy(out, &fd, sizeof(fd));
	return fh_ret(hipSuccess);
}

hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t *pool, void *os,
					       hipMemAllocationHandleType type,
					       unsigned int flags)
{
	FH_INIT();
	struct ihipMemPoolHandle_t *p;
	int fd = fh_fd_of(os), host;

	if (!pool || flags || type != hipMemHandleTypePosixFileDescriptor ||
	    fd < 0 || pread(fd, &host, sizeof(host), 0) != (ssize_t)sizeof(host))
		return fh_ret(hipErrorInvalidValue);
	if (!(p = malloc(sizeof(*p))))
		return fh_ret(hipErrorOutOfMemory);
	p->host = host;
	*pool = p;
	fh_log("hipMemPoolImportFromShareableHandle pool=%p host=%d -> "
	       "hipSuccess", (void *)p, host);
	return fh_ret(hipSuccess);
}

hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData *d, void *ptr)
{
	FH_INIT();
	size_t size = fh_base_size(ptr);

	if (!d || !size)
		return fh_ret(hipErrorInvalidValue);
	memset(d, 0, sizeof(*d));
	memcpy(d->reserved, &size, sizeof(size));
	return fh_ret(hipSuccess);
}

hipError_t hipMemPoolImportPointer(void **ptr, hipMemPool_t pool,
				   hipMemPoolPtrExportData *d)
{
	FH_INIT();
	size_t size = 0;

	if (d)
		memcpy(&size, d->reserved, sizeof(size));
	if (!ptr || !pool || !size)
		return fh_ret(hipErrorInvalidValue);
	return fh_ret(fh_map(ptr, size, pool->host ? FH_HOST : FH_DEVICE, 0));
}
