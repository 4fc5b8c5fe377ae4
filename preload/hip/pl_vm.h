/* SPDX-License-Identifier: MIT */
/*
 * Memory placed by allocation properties: the virtual memory API
 * (hipMemCreate's handle, mapped by hipMemMap), stream-ordered pools
 * (hipMemPoolCreate's properties; the device's current pool for
 * hipMallocAsync) and graph allocation nodes.  Their granularity is what
 * the properties say (reg_model.h, REG_PROP_*).
 */
#ifndef PL_VM_H
#define PL_VM_H

#include "pl_hip.h"

/* Which layout of hipMemAllocationProp the runtime has (its version). */
void pl_vm_learn_layout(void);
int pl_vm_runtime_version(void);
void pl_vm_rec_create(hipError_t rc, hipMemGenericAllocationHandle_t *h,
		      size_t size, const hipMemAllocationProp *prop);
/* hipMemImportFromShareableHandle: the handle's properties, asked. */
void pl_vm_rec_import_handle(hipError_t rc,
			     hipMemGenericAllocationHandle_t *h);
/* hipMemPoolImportFromShareableHandle. */
void pl_vm_rec_pool_import(hipError_t rc, hipMemPool_t *pool);
void pl_vm_rec_map(hipError_t rc, void *p, size_t size, size_t offset,
		   hipMemGenericAllocationHandle_t h);
void pl_vm_rec_pool(hipError_t rc, hipMemPool_t *pool,
		    const hipMemPoolProps *props);
void pl_vm_rec_device_pool(hipError_t rc, int dev, hipMemPool_t pool);
/* hipMallocAsync (pool NULL: the device's current pool) and
 * hipMallocFromPoolAsync. */
void pl_vm_rec_pool_alloc(uint8_t api, hipError_t rc, void **p, size_t size,
			  hipMemPool_t pool);
void pl_vm_rec_import(hipError_t rc, void **p, hipMemPool_t pool);
/* A graph allocation node's memory, from the node's creation; returns
 * what its properties say, for pl_vm_rec_graph_alloc_again. */
uint64_t pl_vm_rec_graph_alloc(hipError_t rc, hipGraphNode_t *node,
			       const hipMemAllocNodeParams *p);
/* The same memory, allocated again by a launch after a free (HIP gives a
 * graph's allocation node the same address at each launch). */
void pl_vm_rec_graph_alloc_again(void *p, size_t size, uint64_t d);

#endif
