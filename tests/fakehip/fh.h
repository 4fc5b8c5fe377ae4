/* SPDX-License-Identifier: MIT */
/*
 * tests/fakehip: a TEST DOUBLE of libamdhip64.so.5, never a way to run HIP
 * programs.  Kernels are never executed; memory is plain host memory.
 * Internal declarations shared by its files; nothing here is exported (the
 * version script fh_gen.py writes exports only the release's HIP API).
 */
#ifndef FH_H
#define FH_H

#include <hip/hip_runtime_api.h>
#include "hg_hip_compat.h"
#include <stddef.h>
#include <stdint.h>

#define FH_HIDDEN __attribute__((visibility("hidden")))
/* On definitions of entry points some release's headers declare outside
 * their visibility push (ROCm 5.7's _spt forms) or not at all. */
#define FH_PUBLIC __attribute__((visibility("default")))
#define FH_PAGE ((size_t)4096)

enum fh_kind {
	FH_DEVICE,     /* hipMalloc, hipMallocPitch, hipMallocAsync */
	FH_DEVICE_FINE, /* hipExtMallocWithFlags(Finegrained/Uncached) */
	FH_MANAGED,    /* hipMallocManaged */
	FH_HOST,       /* hipHostMalloc, hipHostAlloc */
	FH_REGISTERED, /* hipHostRegister: the caller's memory */
	FH_VM,         /* hipMemMap: a handle's memory mapped at a reserved VA */
};

struct fh_alloc {
	uintptr_t base;
	size_t size;
	void *map; /* mmap'd region, NULL for FH_REGISTERED */
	size_t map_size;
	enum fh_kind kind;
	unsigned int flags;
	int live;
};

/* Records err as the thread's last error (HIP 5.2 does so on every call). */
FH_HIDDEN hipError_t fh_ret(hipError_t err);
/* Appends one line to $HGFAKE_LOG, if set. */
FH_HIDDEN void fh_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

FH_HIDDEN void fh_lock(void);
FH_HIDDEN void fh_unlock(void);
/* Page-aligned zeroed memory behind a read-only zero page; never malloc. */
FH_HIDDEN hipError_t fh_map(void **ptr, size_t size, enum fh_kind kind,
			    unsigned int flags);
/* The live allocation containing p (caller holds the lock), or NULL. */
FH_HIDDEN struct fh_alloc *fh_find(const void *p);
/* The size of the live allocation p is the start of, else 0 (what an IPC
 * handle or a pool pointer's export data carries). */
FH_HIDDEN size_t fh_base_size(const void *p);
FH_HIDDEN struct fh_alloc *fh_add(uintptr_t base, size_t size, void *map,
				  size_t map_size, enum fh_kind kind,
				  unsigned int flags);
/* Unmaps and forgets the allocation starting at p; hipErrorInvalidValue
 * when p is not the start of a live allocation of an accepted kind. */
FH_HIDDEN hipError_t fh_unmap(void *p, unsigned int kind_mask);
/* Whether [p, p+n) touches memory this runtime freed earlier. */
FH_HIDDEN int fh_was_freed(const void *p, size_t n);
/* Forget advice recorded for [base, base+size). */
FH_HIDDEN void fh_advice_forget(uintptr_t base, size_t size);

/* Every entry point but the version and error queries starts with this:
 * without a device the real runtime answers hipErrorInvalidDevice. */
#define FH_INIT()                                                              \
	do {                                                                   \
		if (fh_no_device())                                            \
			return fh_ret(hipErrorInvalidDevice);                  \
	} while (0)

#define FH_KIND_BIT(k) (1u << (k))

/* The fh_kind of what hipMallocAsync allocates: its device's current
 * pool's. */
FH_HIDDEN enum fh_kind fh_pool_kind(void);
/* Memory of a pool with these properties (fh_vm.c): ROCm 7's choices
 * accepted. */
FH_HIDDEN hipError_t fh_pool_map(void **ptr, size_t size,
				 const hipMemPoolProps *props);

/* Graphs (fh_graph.c), for the node forms of fh_graph_node.c.  The
 * fh_graph_new and fh_node_new callers hold the lock. */
FH_HIDDEN int fh_graph_ok(hipGraph_t g);
FH_HIDDEN int fh_exec_ok(hipGraphExec_t x);
FH_HIDDEN int fh_node_ok(hipGraphNode_t n);
FH_HIDDEN int fh_node_is_kernel(hipGraphNode_t n);
FH_HIDDEN hipGraph_t fh_graph_new(void);
FH_HIDDEN hipGraphNode_t fh_node_new(hipGraph_t g, int kernel);
/* Adds a node unless err says otherwise, logs the call, returns err. */
FH_HIDDEN hipError_t fh_node_add(const char *api, hipGraphNode_t *node,
				 hipGraph_t g, int kernel, hipError_t err);
FH_HIDDEN hipError_t fh_kernel_params_ok(const hipKernelNodeParams *p);

/* A copy of n bytes in the direction kind names, and a set of count
 * elements of width bytes (1, 2 or 4), each checked as the real runtime
 * checks it and logged under api (fh_copy.c). */
FH_HIDDEN hipError_t fh_copy(const char *api, void *dst, const void *src,
			     size_t n, int kind);
FH_HIDDEN hipError_t fh_set(const char *api, void *dst, int value,
			    size_t count, size_t width);

/* A device variable: device memory of size bytes that the host variable's
 * address (the symbol) names (fh_symbol.c). */
FH_HIDDEN void fh_var_register(const void *var, size_t size);

/* Whether a launch on stream is captured (becomes a graph node). */
FH_HIDDEN int fh_capture_launch(hipStream_t stream);

FH_HIDDEN const char *fh_arch(void);
FH_HIDDEN int fh_no_device(void);
FH_HIDDEN const char *fh_kernel_name(const void *host_fn);

/* Declared in hip_ext.h for C++ only. */
hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks,
			      dim3 dimBlocks, void **args, size_t sharedMemBytes,
			      hipStream_t stream, hipEvent_t startEvent,
			      hipEvent_t stopEvent, int flags);

/* In ROCm 5.2's library, not its headers. */
hipError_t hipLaunchKernel_spt(const void *fn, dim3 grid, dim3 block,
			       void **args, size_t shmem, hipStream_t stream);

#endif /* FH_H */
