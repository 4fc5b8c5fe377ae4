/* SPDX-License-Identifier: MIT */
/* IPC and external memory as allocations (pl_ipc.h). */
#include "pl_device.h"
#include "pl_ipc.h"

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_launch.h"
#include "pl_query.h"
#include "reg.h"
#include "hg_lmap.h"

/* A mapped buffer -> its external memory, to free the buffers with it. */
static struct hg_lmap buffers = HG_LMAP_INIT;

void pl_ipc_rec_open(hipError_t rc, void **p)
{
	static __typeof__(&hipMemGetAddressRange) range;
	hipDeviceptr_t base = NULL;
	size_t size = 0;
	void *at = rc == hipSuccess && p ? *p : NULL;

	if (at) {
		if (!range)
			range = (__typeof__(range))pl_next_sym(
				"hipMemGetAddressRange");
		if (range(&base, &size, at) != hipSuccess) {
			pl_query_failed();
			size = 0;
		} else {
			size -= (uintptr_t)at - (uintptr_t)base;
		}
	}
	reg_track_hip_alloc(HG_API_HIP_IPC_OPEN_MEM_HANDLE, rc, at, size, 0, 0,
			    pl_device_current());
}

/* Each mapped buffer's external memory, keyed by the buffer. */
struct buffer {
	hipExternalMemory_t ext;
	void *at;
};

static void remember(hipExternalMemory_t ext, void *at)
{
	struct buffer *b = pl_libc.malloc(sizeof(*b));

	if (!b)
		return;
	*b = (struct buffer){ext, at};
	if (!hg_lmap_put(&buffers, (uintptr_t)at, b))
		pl_libc.free(b);
}

void pl_ipc_rec_buffer(hipError_t rc, void **p, hipExternalMemory_t ext,
		       const hipExternalMemoryBufferDesc *d)
{
	void *at = rc == hipSuccess && p && d ? *p : NULL;

	reg_track_hip_alloc(HG_API_HIP_EXTERNAL_MEMORY_GET_MAPPED_BUFFER, rc, at,
			    d ? d->size : 0, 0, d ? d->offset : 0,
			    pl_device_current());
	if (at)
		remember(ext, at);
}

/* The buffers of the external memory being destroyed, on this thread (one
 * external memory maps a few; past PL_IPC_BUFFERS they stay live). */
#define PL_IPC_BUFFERS 64

static __thread struct dying {
	hipExternalMemory_t ext;
	int n;
	void *at[PL_IPC_BUFFERS];
	struct reg_hip_free st[PL_IPC_BUFFERS];
} dying;

static bool of_ext(void *value, void *arg)
{
	const struct buffer *b = value;
	struct dying *d = arg;

	if (b->ext != d->ext || d->n == PL_IPC_BUFFERS)
		return false;
	d->at[d->n++] = b->at;
	return true;
}

void pl_ipc_destroy_begin(hipExternalMemory_t ext)
{
	dying.ext = ext;
	dying.n = 0;
	if (!ext)
		return;
	pl_launch_flush();
	hg_lmap_remove_if(&buffers, of_ext, &dying, pl_libc.free);
	for (int i = 0; i < dying.n; i++)
		reg_track_hip_free_begin(dying.at[i], &dying.st[i]);
}

void pl_ipc_destroy_end(hipError_t rc, hipExternalMemory_t ext)
{
	uintptr_t caller = (uintptr_t)__builtin_return_address(0);

	for (int i = 0; i < dying.n; i++) {
		reg_track_hip_free_end(HG_API_HIP_DESTROY_EXTERNAL_MEMORY, rc,
				       dying.at[i], &dying.st[i], caller);
		if (rc != hipSuccess) /* the runtime kept them */
			remember(ext, dying.at[i]);
	}
	if (!dying.n)
		reg_emit_call(HG_API_HIP_DESTROY_EXTERNAL_MEMORY, rc,
			      (uintptr_t)ext);
	dying.n = 0;
}
