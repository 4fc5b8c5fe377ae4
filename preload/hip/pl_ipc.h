/* SPDX-License-Identifier: MIT */
/*
 * Device memory that comes from outside the process: another process's
 * allocation opened through an IPC handle, and external memory (another
 * API's, imported by handle) mapped as buffers.  Each is an allocation of
 * device memory, coarse-grained as the registry's model takes a device
 * allocation to be; closing the handle, or destroying the external memory
 * (which unmaps its buffers), frees it.
 */
#ifndef PL_IPC_H
#define PL_IPC_H

#include "pl_hip.h"
#include "pl_hip_table.h"

/* After a successful open: the range, as the runtime answers
 * hipMemGetAddressRange (its size is not an argument). */
void pl_ipc_rec_open(hipError_t rc, void **p);
void pl_ipc_rec_buffer(hipError_t rc, void **p, hipExternalMemory_t ext,
		       const hipExternalMemoryBufferDesc *d);
/* Around hipDestroyExternalMemory: its buffers leave the registry before
 * the call, and come back if the runtime refused. */
void pl_ipc_destroy_begin(hipExternalMemory_t ext);
void pl_ipc_destroy_end(hipError_t rc, hipExternalMemory_t ext);

#define PL_IPC_TABLE(X)                                                        \
	X(hipIpcOpenMemHandle,                                                 \
	  (void **p, hipIpcMemHandle_t h, unsigned int fl), (p, h, fl), 1,     \
	  PL_NONE, pl_ipc_rec_open(rc, p))                                     \
	PL_FREE_ENTRY(X, hipIpcCloseMemHandle, HG_API_HIP_IPC_CLOSE_MEM_HANDLE,\
		      (void *p), (p), p)                                       \
	X(hipImportExternalMemory,                                             \
	  (hipExternalMemory_t * ext, const hipExternalMemoryHandleDesc *d),   \
	  (ext, d), 1, PL_NONE,                                                \
	  reg_emit_call(HG_API_HIP_IMPORT_EXTERNAL_MEMORY, rc,                 \
			rc == hipSuccess && ext ? (uintptr_t)*ext : 0))        \
	X(hipExternalMemoryGetMappedBuffer,                                    \
	  (void **p, hipExternalMemory_t ext,                                  \
	   const hipExternalMemoryBufferDesc *d),                              \
	  (p, ext, d), 1, PL_NONE, pl_ipc_rec_buffer(rc, p, ext, d))           \
	X(hipDestroyExternalMemory, (hipExternalMemory_t ext), (ext), 0,       \
	  pl_ipc_destroy_begin(ext), pl_ipc_destroy_end(rc, ext))

#endif
