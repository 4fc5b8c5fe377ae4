/* SPDX-License-Identifier: MIT */
/*
 * Every interposed HIP entry point that returns hipError_t, listed once.
 * X(name, (params), (args), query, pre, post):
 *   query - 1: fetch the device's facts before the first such call;
 *           PL_Q_LAUNCH: that, and it is a launch (see pl_launch.c);
 *   pre   - statement run before the real call (the registry may need to
 *           let go of a range first; counted launches are written before
 *           anything that changes what they would be judged against);
 *   post  - statement that records the call's meaning, with `rc` in scope.
 * Both see `pl_fl`, the call's record in flight (pl_inflight.h).
 */
#ifndef PL_HIP_TABLE_H
#define PL_HIP_TABLE_H

#define PL_NONE ((void)0)

#define PL_HIP_ALLOC_TABLE(X)                                                  \
	X(hipMalloc, (void **ptr, size_t size), (ptr, size), 1, PL_NONE,       \
	  rec_alloc(HG_API_HIP_MALLOC, rc, ptr, size, 0))                      \
	X(hipMallocManaged, (void **ptr, size_t size, unsigned int flags),     \
	  (ptr, size, flags), 1, PL_NONE,                                      \
	  rec_alloc(HG_API_HIP_MALLOC_MANAGED, rc, ptr, size, flags))          \
	X(hipHostMalloc, (void **ptr, size_t size, unsigned int flags),        \
	  (ptr, size, flags), 1, PL_NONE,                                      \
	  rec_alloc(HG_API_HIP_HOST_MALLOC, rc, ptr, size, flags))             \
	X(hipHostAlloc, (void **ptr, size_t size, unsigned int flags),         \
	  (ptr, size, flags), 1, pl_vm_learn_layout(),                         \
	  rec_alloc(HG_API_HIP_HOST_ALLOC, rc, ptr, size, flags))              \
	X(hipExtHostAlloc, (void **ptr, size_t size, unsigned int flags),      \
	  (ptr, size, flags), 1, PL_NONE,                                      \
	  rec_alloc(HG_API_HIP_EXT_HOST_ALLOC, rc, ptr, size, flags))          \
	X(hipExtMallocWithFlags, (void **ptr, size_t size, unsigned int flags),\
	  (ptr, size, flags), 1, PL_NONE,                                      \
	  rec_alloc(HG_API_HIP_EXT_MALLOC_WITH_FLAGS, rc, ptr, size, flags))   \
	X(hipMallocPitch,                                                      \
	  (void **ptr, size_t *pitch, size_t width, size_t height),            \
	  (ptr, pitch, width, height), 1, PL_NONE,                             \
	  rec_pitch(HG_API_HIP_MALLOC_PITCH, rc, ptr, pitch, height))          \
	X(hipMalloc3D, (hipPitchedPtr * pp, hipExtent extent), (pp, extent),   \
	  1, PL_NONE, rec_3d(rc, pp, extent))                                  \
	X(hipMallocAsync, (void **ptr, size_t size, hipStream_t stream),       \
	  (ptr, size, stream), 1, PL_NONE,                                     \
	  pl_vm_rec_pool_alloc(HG_API_HIP_MALLOC_ASYNC, rc, ptr, size, NULL))  \
	X(hipMallocFromPoolAsync,                                              \
	  (void **ptr, size_t size, hipMemPool_t pool, hipStream_t stream),    \
	  (ptr, size, pool, stream), 1, PL_NONE,                               \
	  pl_vm_rec_pool_alloc(HG_API_HIP_MALLOC_FROM_POOL_ASYNC, rc, ptr,     \
			       size, pool))                                    \
	X(hipMallocHost, (void **ptr, size_t size), (ptr, size), 1, PL_NONE,   \
	  rec_alloc(HG_API_HIP_MALLOC_HOST, rc, ptr, size, 0))                 \
	X(hipMemAllocHost, (void **ptr, size_t size), (ptr, size), 1, PL_NONE, \
	  rec_alloc(HG_API_HIP_MEM_ALLOC_HOST, rc, ptr, size, 0))              \
	X(hipMemAllocPitch,                                                    \
	  (hipDeviceptr_t * ptr, size_t *pitch, size_t width, size_t height,   \
	   unsigned int elem),                                                 \
	  (ptr, pitch, width, height, elem), 1, PL_NONE,                       \
	  rec_pitch(HG_API_HIP_MEM_ALLOC_PITCH, rc, ptr, pitch, height))       \
	X(hipMemPoolImportPointer,                                             \
	  (void **ptr, hipMemPool_t pool, hipMemPoolPtrExportData *d),         \
	  (ptr, pool, d), 1, PL_NONE, pl_vm_rec_import(rc, ptr, pool))         \
	X(hipGraphAddMemAllocNode,                                             \
	  (hipGraphNode_t * n, hipGraph_t g, const hipGraphNode_t *deps,       \
	   size_t nd, hipMemAllocNodeParams * p),                               \
	  (n, g, deps, nd, p), 1, PL_NONE,                                     \
	  pl_graph_rec_alloc_node(rc, PL_GA_ADD(n, g), p))                     \
	X(hipMemMap,                                                           \
	  (void *p, size_t size, size_t off, hipMemGenericAllocationHandle_t h,\
	   unsigned long long fl),                                             \
	  (p, size, off, h, fl), 1, PL_NONE,                                   \
	  pl_vm_rec_map(rc, p, size, off, h))                                  \
	X(hipHostRegister, (void *p, size_t size, unsigned int flags),         \
	  (p, size, flags), 1, PL_NONE,                                        \
	  reg_track_hip_alloc(HG_API_HIP_HOST_REGISTER, rc, p, size, flags, 0, \
			      pl_device_current()))

#define PL_FREE_ENTRY(X, name, api, params, args, ptr)                         \
	X(name, params, args, 0,                                               \
	  (pl_launch_flush(), reg_track_hip_free_begin(ptr, &fst)),            \
	  reg_track_hip_free_end(api, rc, ptr, &fst,                           \
				 (uintptr_t)__builtin_return_address(0)))

#define PL_HIP_FREE_TABLE(X)                                                   \
	PL_FREE_ENTRY(X, hipFree, HG_API_HIP_FREE, (void *p), (p), p)          \
	PL_FREE_ENTRY(X, hipHostFree, HG_API_HIP_HOST_FREE, (void *p), (p), p) \
	PL_FREE_ENTRY(X, hipFreeHost, HG_API_HIP_FREE_HOST, (void *p), (p), p) \
	PL_FREE_ENTRY(X, hipFreeAsync, HG_API_HIP_FREE_ASYNC,                  \
		      (void *p, hipStream_t s), (p, s), p)                     \
	PL_FREE_ENTRY(X, hipHostUnregister, HG_API_HIP_HOST_UNREGISTER,        \
		      (void *p), (p), p)                                       \
	PL_FREE_ENTRY(X, hipMemUnmap, HG_API_HIP_MEM_UNMAP,                    \
		      (void *p, size_t n), (p, n), p)

#define PL_COPY(api, dst, src, n, kind, stream, async)                         \
	reg_track_memcpy(api, rc, (void *)(dst), src, n, kind,                 \
			 (uint64_t)(uintptr_t)(stream), async)

#define PL_HIP_COPY_TABLE(X)                                                   \
	X(hipMemcpy, (void *d, const void *s, size_t n, hipMemcpyKind k),      \
	  (d, s, n, k), 0, PL_NONE, PL_COPY(HG_API_HIP_MEMCPY, d, s, n, k, 0, 0)) \
	X(hipMemcpyAsync,                                                      \
	  (void *d, const void *s, size_t n, hipMemcpyKind k, hipStream_t st), \
	  (d, s, n, k, st), 0, PL_NONE,                                        \
	  PL_COPY(HG_API_HIP_MEMCPY_ASYNC, d, s, n, k, st, 1))                 \
	X(hipMemcpyWithStream,                                                 \
	  (void *d, const void *s, size_t n, hipMemcpyKind k, hipStream_t st), \
	  (d, s, n, k, st), 0, PL_NONE,                                        \
	  PL_COPY(HG_API_HIP_MEMCPY_WITH_STREAM, d, s, n, k, st, 0))           \
	X(hipMemcpyHtoD, (hipDeviceptr_t d, void *s, size_t n), (d, s, n), 0,  \
	  PL_NONE, PL_COPY(HG_API_HIP_MEMCPY_HTOD, d, s, n, 1, 0, 0))          \
	X(hipMemcpyDtoH, (void *d, hipDeviceptr_t s, size_t n), (d, s, n), 0,  \
	  PL_NONE, PL_COPY(HG_API_HIP_MEMCPY_DTOH, d, s, n, 2, 0, 0))          \
	X(hipMemcpyDtoD, (hipDeviceptr_t d, hipDeviceptr_t s, size_t n),       \
	  (d, s, n), 0, PL_NONE,                                               \
	  PL_COPY(HG_API_HIP_MEMCPY_DTOD, d, s, n, 3, 0, 0))                   \
	X(hipMemcpyHtoDAsync,                                                  \
	  (hipDeviceptr_t d, void *s, size_t n, hipStream_t st), (d, s, n, st),\
	  0, PL_NONE, PL_COPY(HG_API_HIP_MEMCPY_HTOD_ASYNC, d, s, n, 1, st, 1))\
	X(hipMemcpyDtoHAsync,                                                  \
	  (void *d, hipDeviceptr_t s, size_t n, hipStream_t st), (d, s, n, st),\
	  0, PL_NONE, PL_COPY(HG_API_HIP_MEMCPY_DTOH_ASYNC, d, s, n, 2, st, 1))\
	X(hipMemcpyDtoDAsync,                                                  \
	  (hipDeviceptr_t d, hipDeviceptr_t s, size_t n, hipStream_t st),      \
	  (d, s, n, st), 0, PL_NONE,                                           \
	  PL_COPY(HG_API_HIP_MEMCPY_DTOD_ASYNC, d, s, n, 3, st, 1))            \
	X(hipMemcpy2D,                                                         \
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,   \
	   hipMemcpyKind k),                                                   \
	  (d, dp, s, sp, w, h, k), 0, PL_NONE,                                 \
	  PL_COPY(HG_API_HIP_MEMCPY_2D, d, s, w * h, k, 0, 0))                 \
	X(hipMemcpy2DAsync,                                                    \
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,   \
	   hipMemcpyKind k, hipStream_t st),                                   \
	  (d, dp, s, sp, w, h, k, st), 0, PL_NONE,                             \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_ASYNC, d, s, w * h, k, st, 1))          \
	X(hipMemcpyPeer, (void *d, int dd, const void *s, int sd, size_t n),   \
	  (d, dd, s, sd, n), 0, PL_NONE,                                       \
	  PL_COPY(HG_API_HIP_MEMCPY_PEER, d, s, n, 3, 0, 0))                   \
	X(hipMemcpyPeerAsync,                                                  \
	  (void *d, int dd, const void *s, int sd, size_t n, hipStream_t st),  \
	  (d, dd, s, sd, n, st), 0, PL_NONE,                                   \
	  PL_COPY(HG_API_HIP_MEMCPY_PEER_ASYNC, d, s, n, 3, st, 1))

#define PL_SET(api, dst, v, n, stream)                                         \
	reg_track_memset(api, rc, (void *)(dst), (int)(v), n,                  \
			 (uint64_t)(uintptr_t)(stream))

#define PL_HIP_SET_TABLE(X)                                                    \
	X(hipMemset, (void *d, int v, size_t n), (d, v, n), 0, PL_NONE,        \
	  PL_SET(HG_API_HIP_MEMSET, d, v, n, 0))                               \
	X(hipMemsetAsync, (void *d, int v, size_t n, hipStream_t st),          \
	  (d, v, n, st), 0, PL_NONE, PL_SET(HG_API_HIP_MEMSET_ASYNC, d, v, n, st)) \
	X(hipMemsetD8, (hipDeviceptr_t d, unsigned char v, size_t n),          \
	  (d, v, n), 0, PL_NONE, PL_SET(HG_API_HIP_MEMSET_D8, d, v, n, 0))     \
	X(hipMemsetD32, (hipDeviceptr_t d, int v, size_t n), (d, v, n), 0,     \
	  PL_NONE, PL_SET(HG_API_HIP_MEMSET_D32, d, v, n * 4, 0))              \
	X(hipMemset2D, (void *d, size_t p, int v, size_t w, size_t h),         \
	  (d, p, v, w, h), 0, PL_NONE, PL_SET(HG_API_HIP_MEMSET_2D, d, v, p * h, 0))

/* `pl_fl` is the call's record in flight (pl_inflight.h): advice and
 * prefetches are resolved into it before the call (pl_hip.c). */
#define PL_HIP_RANGE_TABLE(X)                                                  \
	X(hipMemPrefetchAsync,                                                 \
	  (const void *p, size_t n, int dev, hipStream_t st), (p, n, dev, st), \
	  1, range_begin(pl_fl, HG_API_HIP_MEM_PREFETCH_ASYNC, p, n, 0, dev),     \
	  rec_prefetch(pl_fl, rc, st))                                            \
	X(hipMemPrefetchAsync_v2,                                              \
	  (const void *p, size_t n, hipMemLocation loc, unsigned int fl,      \
	   hipStream_t st),                                                    \
	  (p, n, loc, fl, st), 1,                                             \
	  range_begin(pl_fl, HG_API_HIP_MEM_PREFETCH_ASYNC_V2, p, n, 0, loc.id),  \
	  rec_prefetch(pl_fl, rc, st))                                            \
	X(hipMemAdvise, (const void *p, size_t n, hipMemoryAdvise a, int dev), \
	  (p, n, a, dev), 1,                                                   \
	  range_begin(pl_fl, HG_API_HIP_MEM_ADVISE, p, n, a, dev),                \
	  rec_advise(pl_fl, rc))                                                  \
	X(hipMemAdvise_v2,                                                     \
	  (const void *p, size_t n, hipMemoryAdvise a, hipMemLocation loc),    \
	  (p, n, a, loc), 1,                                                   \
	  range_begin(pl_fl, HG_API_HIP_MEM_ADVISE_V2, p, n, a, loc.id),          \
	  rec_advise(pl_fl, rc))

#define PL_HIP_LAUNCH_TABLE(X)                                                 \
	X(hipLaunchKernel,                                                     \
	  (const void *f, dim3 g, dim3 b, void **args, size_t shm,             \
	   hipStream_t st),                                                    \
	  (f, g, b, args, shm, st), PL_Q_LAUNCH, PL_NONE,                                \
	  pl_graph_launch_or_capture(HG_API_HIP_LAUNCH_KERNEL, rc, f, g, b, args, NULL,     \
			shm, st))                                              \
	X(hipExtLaunchKernel,                                                  \
	  (const void *f, dim3 g, dim3 b, void **args, size_t shm,             \
	   hipStream_t st, hipEvent_t e0, hipEvent_t e1, int fl),              \
	  (f, g, b, args, shm, st, e0, e1, fl), PL_Q_LAUNCH, PL_NONE,                    \
	  pl_graph_launch_or_capture(HG_API_HIP_EXT_LAUNCH_KERNEL, rc, f, g, b, args, NULL, \
			shm, st))                                              \
	X(hipLaunchCooperativeKernel,                                          \
	  (const void *f, dim3 g, dim3 b, void **args, unsigned int shm,       \
	   hipStream_t st),                                                    \
	  (f, g, b, args, shm, st), PL_Q_LAUNCH, PL_NONE,                                \
	  pl_graph_launch_or_capture(HG_API_HIP_LAUNCH_COOPERATIVE_KERNEL, rc, f, g, b,     \
			args, NULL, shm, st))                                  \
	X(hipModuleLaunchKernel,                                               \
	  (hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, \
	   unsigned int bx, unsigned int by, unsigned int bz,                  \
	   unsigned int shm, hipStream_t st, void **args, void **extra),       \
	  (f, gx, gy, gz, bx, by, bz, shm, st, args, extra), PL_Q_LAUNCH, PL_NONE,       \
	  pl_graph_launch_or_capture(HG_API_HIP_MODULE_LAUNCH_KERNEL, rc, f,                \
			(dim3){gx, gy, gz}, (dim3){bx, by, bz}, args, extra,   \
			shm, st))                                              \
	X(hipExtModuleLaunchKernel,                                            \
	  (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,             \
	   uint32_t bx, uint32_t by, uint32_t bz, size_t shm, hipStream_t st,  \
	   void **args, void **extra, hipEvent_t e0, hipEvent_t e1,            \
	   uint32_t fl),                                                       \
	  (f, gx, gy, gz, bx, by, bz, shm, st, args, extra, e0, e1, fl),\
	  PL_Q_LAUNCH,    \
	  PL_NONE,                                                             \
	  pl_graph_launch_or_capture(HG_API_HIP_EXT_MODULE_LAUNCH_KERNEL, rc, f,            \
			(dim3){gx / (bx ? bx : 1), gy / (by ? by : 1),         \
			       gz / (bz ? bz : 1)},                            \
			(dim3){bx, by, bz}, args, extra, shm, st))

#define PL_LAUNCH_MORE_TABLE(X)                                                \
	X(hipLaunchKernel_spt,                                                 \
	  (const void *f, dim3 g, dim3 b, void **args, size_t shm,             \
	   hipStream_t st),                                                    \
	  (f, g, b, args, shm, st), PL_Q_LAUNCH, PL_NONE,                      \
	  pl_graph_launch_or_capture(HG_API_HIP_LAUNCH_KERNEL_SPT, rc, f, g, b,\
				     args, NULL, shm, st))                     \
	X(hipLaunchCooperativeKernel_spt,                                      \
	  (const void *f, dim3 g, dim3 b, void **args, uint32_t shm,           \
	   hipStream_t st),                                                    \
	  (f, g, b, args, shm, st), PL_Q_LAUNCH, PL_NONE,                      \
	  pl_graph_launch_or_capture(HG_API_HIP_LAUNCH_COOPERATIVE_KERNEL_SPT, \
				     rc, f, g, b, args, NULL, shm, st))        \
	X(hipModuleLaunchCooperativeKernel,                                    \
	  (hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, \
	   unsigned int bx, unsigned int by, unsigned int bz,                  \
	   unsigned int shm, hipStream_t st, void **args),                     \
	  (f, gx, gy, gz, bx, by, bz, shm, st, args), PL_Q_LAUNCH, PL_NONE,    \
	  pl_graph_launch_or_capture(                                          \
		  HG_API_HIP_MODULE_LAUNCH_COOPERATIVE_KERNEL, rc, f,          \
		  (dim3){gx, gy, gz}, (dim3){bx, by, bz}, args, NULL, shm, st))\
	X(hipLaunchCooperativeKernelMultiDevice,                               \
	  (hipLaunchParams * l, int n, unsigned int fl), (l, n, fl),           \
	  PL_Q_LAUNCH, PL_NONE, rec_multi_device(rc, l, n))                    \
	X(hipModuleLaunchCooperativeKernelMultiDevice,                         \
	  (hipFunctionLaunchParams * l, unsigned int n,                        \
	   unsigned int fl),                                                   \
	  (l, n, fl), PL_Q_LAUNCH, PL_NONE, rec_module_multi_device(rc, l, n))

/* The launch API before HIP 3 (pl_legacy.c). */
#define PL_HIP_LEGACY_TABLE(X)                                                 \
	X(hipConfigureCall,                                                    \
	  (dim3 g, dim3 b, size_t shm, hipStream_t st), (g, b, shm, st), 1,    \
	  PL_NONE, pl_legacy_configure(rc, g, b, shm, st))                     \
	X(hipSetupArgument, (const void *arg, size_t size, size_t offset),     \
	  (arg, size, offset), 1, PL_NONE,                                     \
	  pl_legacy_argument(rc, arg, size, offset))                           \
	X(hipLaunchByPtr, (const void *f), (f), PL_Q_LAUNCH, PL_NONE,          \
	  pl_legacy_launch(rc, f))

/* Graphs (pl_graph*.c): a node is what it does, at each hipGraphLaunch. */
#define PL_GRAPH_DEPS hipGraphNode_t *n, hipGraph_t g, const hipGraphNode_t *deps, size_t nd

#define PL_HIP_GRAPH_TABLE(X)                                                  \
	X(hipGraphLaunch, (hipGraphExec_t g, hipStream_t st), (g, st), 1,      \
	  PL_NONE, pl_graph_rec_launch(HG_API_HIP_GRAPH_LAUNCH, rc, g, st,     \
				       PL_CALLER()))                             \
	X(hipGraphLaunch_spt, (hipGraphExec_t g, hipStream_t st), (g, st), 1,  \
	  PL_NONE, pl_graph_rec_launch(HG_API_HIP_GRAPH_LAUNCH_SPT, rc, g, st, \
				       PL_CALLER()))                             \
	X(hipGraphAddKernelNode, (PL_GRAPH_DEPS, const hipKernelNodeParams *p),\
	  (n, g, deps, nd, p), 1, PL_NONE,                                     \
	  pl_graph_rec_kernel(HG_API_HIP_GRAPH_ADD_KERNEL_NODE, rc,            \
			      PL_GA_ADD(n, g), p))                             \
	X(hipGraphKernelNodeSetParams,                                         \
	  (hipGraphNode_t n, const hipKernelNodeParams *p), (n, p), 1,         \
	  PL_NONE,                                                             \
	  pl_graph_rec_kernel(HG_API_HIP_GRAPH_KERNEL_NODE_SET_PARAMS, rc,     \
			      PL_GA_NODE(n), p))                               \
	X(hipGraphExecKernelNodeSetParams,                                     \
	  (hipGraphExec_t x, hipGraphNode_t n, const hipKernelNodeParams *p),  \
	  (x, n, p), 1, PL_NONE,                                               \
	  pl_graph_rec_kernel(HG_API_HIP_GRAPH_EXEC_KERNEL_NODE_SET_PARAMS,    \
			      rc, PL_GA_EXEC(x, n), p))                        \
	X(hipGraphInstantiate,                                                 \
	  (hipGraphExec_t * x, hipGraph_t g, hipGraphNode_t *en, char *log,    \
	   size_t n),                                                          \
	  (x, g, en, log, n), 0, PL_NONE,                                      \
	  pl_graph_rec_instantiate(HG_API_HIP_GRAPH_INSTANTIATE, rc, x, g))    \
	X(hipGraphInstantiateWithFlags,                                        \
	  (hipGraphExec_t * x, hipGraph_t g, unsigned long long fl),           \
	  (x, g, fl), 0, PL_NONE,                                              \
	  pl_graph_rec_instantiate(HG_API_HIP_GRAPH_INSTANTIATE_WITH_FLAGS, rc,\
				   x, g))                                      \
	X(hipGraphDestroy, (hipGraph_t g), (g), 0, PL_NONE,                    \
	  pl_graph_forget_graph(rc, g))                                        \
	X(hipGraphExecDestroy, (hipGraphExec_t x), (x), 0, PL_NONE,            \
	  pl_graph_forget_exec(rc, x))                                         \
	X(hipStreamBeginCapture, (hipStream_t st, hipStreamCaptureMode m),     \
	  (st, m), 0, PL_NONE,                                                 \
	  pl_graph_rec_begin_capture(HG_API_HIP_STREAM_BEGIN_CAPTURE, rc, st,  \
				     NULL))                                    \
	X(hipStreamBeginCapture_spt, (hipStream_t st, hipStreamCaptureMode m), \
	  (st, m), 0, PL_NONE,                                                 \
	  pl_graph_rec_begin_capture(HG_API_HIP_STREAM_BEGIN_CAPTURE, rc, st,  \
				     NULL))                                    \
	X(hipStreamEndCapture, (hipStream_t st, hipGraph_t * g), (st, g), 0,   \
	  PL_NONE, pl_graph_rec_end_capture(rc, st, g))                        \
	X(hipStreamEndCapture_spt, (hipStream_t st, hipGraph_t * g), (st, g),  \
	  0, PL_NONE, pl_graph_rec_end_capture(rc, st, g))

/* Copy and set nodes, added or set anew (pl_graph_copy.c). */
#define PL_HIP_GRAPH_COPY_TABLE(X)                                             \
	X(hipGraphAddMemcpyNode1D,                                             \
	  (PL_GRAPH_DEPS, void *d, const void *s, size_t c, hipMemcpyKind k),  \
	  (n, g, deps, nd, d, s, c, k), 0, PL_NONE,                            \
	  pl_graph_rec_copy1d(HG_API_HIP_GRAPH_ADD_MEMCPY_NODE_1D, rc,         \
			      PL_GA_ADD(n, g), d, s, c, k))                    \
	X(hipGraphAddMemcpyNode, (PL_GRAPH_DEPS, const hipMemcpy3DParms *p),   \
	  (n, g, deps, nd, p), 0, PL_NONE,                                     \
	  pl_graph_rec_copy3d(HG_API_HIP_GRAPH_ADD_MEMCPY_NODE, rc,            \
			      PL_GA_ADD(n, g), p))                             \
	X(hipGraphAddMemcpyNodeToSymbol,                                       \
	  (PL_GRAPH_DEPS, const void *sym, const void *s, size_t c, size_t o,  \
	   hipMemcpyKind k),                                                   \
	  (n, g, deps, nd, sym, s, c, o, k), 0, PL_NONE,                       \
	  pl_graph_rec_copy_symbol(HG_API_HIP_GRAPH_ADD_MEMCPY_NODE_TO_SYMBOL, \
				   rc, PL_GA_ADD(n, g), sym, s, c, o, k, 1))   \
	X(hipGraphAddMemcpyNodeFromSymbol,                                     \
	  (PL_GRAPH_DEPS, void *d, const void *sym, size_t c, size_t o,        \
	   hipMemcpyKind k),                                                   \
	  (n, g, deps, nd, d, sym, c, o, k), 0, PL_NONE,                       \
	  pl_graph_rec_copy_symbol(                                            \
		  HG_API_HIP_GRAPH_ADD_MEMCPY_NODE_FROM_SYMBOL, rc,            \
		  PL_GA_ADD(n, g), sym, d, c, o, k, 0))                        \
	X(hipGraphAddMemsetNode, (PL_GRAPH_DEPS, const hipMemsetParams *p),    \
	  (n, g, deps, nd, p), 0, PL_NONE,                                     \
	  pl_graph_rec_set(HG_API_HIP_GRAPH_ADD_MEMSET_NODE, rc,               \
			   PL_GA_ADD(n, g), p))                                \
	X(hipGraphMemcpyNodeSetParams,                                         \
	  (hipGraphNode_t n, const hipMemcpy3DParms *p), (n, p), 0, PL_NONE,   \
	  pl_graph_rec_copy3d(HG_API_HIP_GRAPH_MEMCPY_NODE_SET_PARAMS, rc,     \
			      PL_GA_NODE(n), p))                               \
	X(hipGraphMemcpyNodeSetParams1D,                                       \
	  (hipGraphNode_t n, void *d, const void *s, size_t c,                 \
	   hipMemcpyKind k),                                                   \
	  (n, d, s, c, k), 0, PL_NONE,                                         \
	  pl_graph_rec_copy1d(HG_API_HIP_GRAPH_MEMCPY_NODE_SET_PARAMS_1D, rc,  \
			      PL_GA_NODE(n), d, s, c, k))                      \
	X(hipGraphMemcpyNodeSetParamsToSymbol,                                 \
	  (hipGraphNode_t n, const void *sym, const void *s, size_t c,         \
	   size_t o, hipMemcpyKind k),                                         \
	  (n, sym, s, c, o, k), 0, PL_NONE,                                    \
	  pl_graph_rec_copy_symbol(                                            \
		  HG_API_HIP_GRAPH_MEMCPY_NODE_SET_PARAMS_TO_SYMBOL, rc,       \
		  PL_GA_NODE(n), sym, s, c, o, k, 1))                          \
	X(hipGraphMemcpyNodeSetParamsFromSymbol,                               \
	  (hipGraphNode_t n, void *d, const void *sym, size_t c, size_t o,     \
	   hipMemcpyKind k),                                                   \
	  (n, d, sym, c, o, k), 0, PL_NONE,                                    \
	  pl_graph_rec_copy_symbol(                                            \
		  HG_API_HIP_GRAPH_MEMCPY_NODE_SET_PARAMS_FROM_SYMBOL, rc,     \
		  PL_GA_NODE(n), sym, d, c, o, k, 0))                          \
	X(hipGraphMemsetNodeSetParams,                                         \
	  (hipGraphNode_t n, const hipMemsetParams *p), (n, p), 0, PL_NONE,    \
	  pl_graph_rec_set(HG_API_HIP_GRAPH_MEMSET_NODE_SET_PARAMS, rc,        \
			   PL_GA_NODE(n), p))                                  \
	PL_HIP_GRAPH_EXEC_COPY_TABLE(X)                                        \
	PL_HIP_GRAPH_DRV_TABLE(X)

#define PL_HIP_GRAPH_EXEC_COPY_TABLE(X)                                        \
	X(hipGraphExecMemcpyNodeSetParams,                                     \
	  (hipGraphExec_t x, hipGraphNode_t n, hipMemcpy3DParms *p),           \
	  (x, n, p), 0, PL_NONE,                                               \
	  pl_graph_rec_copy3d(HG_API_HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,    \
			      rc, PL_GA_EXEC(x, n), p))                        \
	X(hipGraphExecMemcpyNodeSetParams1D,                                   \
	  (hipGraphExec_t x, hipGraphNode_t n, void *d, const void *s,         \
	   size_t c, hipMemcpyKind k),                                         \
	  (x, n, d, s, c, k), 0, PL_NONE,                                      \
	  pl_graph_rec_copy1d(HG_API_HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS_1D, \
			      rc, PL_GA_EXEC(x, n), d, s, c, k))               \
	X(hipGraphExecMemcpyNodeSetParamsToSymbol,                             \
	  (hipGraphExec_t x, hipGraphNode_t n, const void *sym, const void *s, \
	   size_t c, size_t o, hipMemcpyKind k),                               \
	  (x, n, sym, s, c, o, k), 0, PL_NONE,                                 \
	  pl_graph_rec_copy_symbol(                                            \
		  HG_API_HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS_TO_SYMBOL, rc,  \
		  PL_GA_EXEC(x, n), sym, s, c, o, k, 1))                       \
	X(hipGraphExecMemcpyNodeSetParamsFromSymbol,                           \
	  (hipGraphExec_t x, hipGraphNode_t n, void *d, const void *sym,       \
	   size_t c, size_t o, hipMemcpyKind k),                               \
	  (x, n, d, sym, c, o, k), 0, PL_NONE,                                 \
	  pl_graph_rec_copy_symbol(                                            \
		  HG_API_HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS_FROM_SYMBOL,    \
		  rc, PL_GA_EXEC(x, n), sym, d, c, o, k, 0))                   \
	X(hipGraphExecMemsetNodeSetParams,                                     \
	  (hipGraphExec_t x, hipGraphNode_t n, const hipMemsetParams *p),      \
	  (x, n, p), 0, PL_NONE,                                               \
	  pl_graph_rec_set(HG_API_HIP_GRAPH_EXEC_MEMSET_NODE_SET_PARAMS, rc,   \
			   PL_GA_EXEC(x, n), p))

/* Graphs of graphs and whole-graph changes (pl_graph_tree.c,
 * pl_graph_run.c), free nodes, capture into a graph. */
#define PL_HIP_GRAPH_TREE_TABLE(X)                                             \
	X(hipGraphClone, (hipGraph_t * c, hipGraph_t g), (c, g), 0, PL_NONE,   \
	  pl_graph_rec_clone(rc, c, g))                                        \
	X(hipGraphNodeFindInClone,                                             \
	  (hipGraphNode_t * f, hipGraphNode_t o, hipGraph_t c), (f, o, c), 0,  \
	  PL_NONE, pl_graph_rec_find_in_clone(rc, f, o, c))                    \
	X(hipGraphAddChildGraphNode, (PL_GRAPH_DEPS, hipGraph_t child),        \
	  (n, g, deps, nd, child), 0, PL_NONE,                                 \
	  pl_graph_rec_child(HG_API_HIP_GRAPH_ADD_CHILD_GRAPH_NODE, rc,        \
			     PL_GA_ADD(n, g), child))                          \
	X(hipGraphExecChildGraphNodeSetParams,                                 \
	  (hipGraphExec_t x, hipGraphNode_t n, hipGraph_t child), (x, n, child),\
	  0, PL_NONE,                                                          \
	  pl_graph_rec_child(HG_API_HIP_GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,\
			     rc, PL_GA_EXEC(x, n), child))                     \
	X(hipGraphExecUpdate,                                                  \
	  (hipGraphExec_t x, hipGraph_t g, hipGraphNode_t *en,                 \
	   hipGraphExecUpdateResult *r),                                       \
	  (x, g, en, r), 0, PL_NONE, pl_graph_rec_exec_update(rc, x, g))       \
	X(hipGraphInstantiateWithParams,                                       \
	  (hipGraphExec_t * x, hipGraph_t g, hipGraphInstantiateParams *p),    \
	  (x, g, p), 0, PL_NONE,                                               \
	  pl_graph_rec_instantiate(HG_API_HIP_GRAPH_INSTANTIATE_WITH_PARAMS,   \
				   rc, x, g))                                  \
	X(hipGraphDestroyNode, (hipGraphNode_t n), (n), 0, PL_NONE,            \
	  pl_graph_rec_destroy_node(rc, n))                                    \
	X(hipGraphNodeSetEnabled,                                              \
	  (hipGraphExec_t x, hipGraphNode_t n, unsigned int on), (x, n, on),   \
	  0, PL_NONE, pl_graph_rec_set_enabled(rc, x, n, on))                  \
	X(hipGraphAddNode, (PL_GRAPH_DEPS, hipGraphNodeParams *p),             \
	  (n, g, deps, nd, p), 1, PL_NONE,                                     \
	  pl_graph_rec_generic(HG_API_HIP_GRAPH_ADD_NODE, rc, PL_GA_ADD(n, g), \
			       p))                                             \
	X(hipGraphNodeSetParams, (hipGraphNode_t n, hipGraphNodeParams *p),    \
	  (n, p), 1, PL_NONE,                                                  \
	  pl_graph_rec_generic(HG_API_HIP_GRAPH_NODE_SET_PARAMS, rc,           \
			       PL_GA_NODE(n), p))                              \
	X(hipGraphExecNodeSetParams,                                           \
	  (hipGraphExec_t x, hipGraphNode_t n, hipGraphNodeParams *p),         \
	  (x, n, p), 1, PL_NONE,                                               \
	  pl_graph_rec_generic(HG_API_HIP_GRAPH_EXEC_NODE_SET_PARAMS, rc,      \
			       PL_GA_EXEC(x, n), p))                           \
	X(hipGraphAddMemFreeNode, (PL_GRAPH_DEPS, void *p),                    \
	  (n, g, deps, nd, p), 0, PL_NONE,                                     \
	  pl_graph_rec_free_node(HG_API_HIP_GRAPH_ADD_MEM_FREE_NODE, rc,       \
				 PL_GA_ADD(n, g), p))                          \
	X(hipDrvGraphAddMemFreeNode, (PL_GRAPH_DEPS, hipDeviceptr_t p),        \
	  (n, g, deps, nd, p), 0, PL_NONE,                                     \
	  pl_graph_rec_free_node(HG_API_HIP_DRV_GRAPH_ADD_MEM_FREE_NODE, rc,   \
				 PL_GA_ADD(n, g), p))                          \
	X(hipStreamBeginCaptureToGraph,                                        \
	  (hipStream_t st, hipGraph_t g, const hipGraphNode_t *deps,           \
	   const hipGraphEdgeData *data, size_t nd, hipStreamCaptureMode m),   \
	  (st, g, deps, data, nd, m), 0, PL_NONE,                              \
	  pl_graph_rec_begin_capture(HG_API_HIP_STREAM_BEGIN_CAPTURE_TO_GRAPH, \
				     rc, st, g))

/* ROCm 6's driver forms. */
#define PL_HIP_GRAPH_DRV_TABLE(X)                                              \
	X(hipDrvGraphAddMemcpyNode,                                            \
	  (PL_GRAPH_DEPS, const HIP_MEMCPY3D *p, hipCtx_t ctx),                \
	  (n, g, deps, nd, p, ctx), 0, PL_NONE,                                \
	  pl_graph_rec_copy_drv(HG_API_HIP_DRV_GRAPH_ADD_MEMCPY_NODE, rc,      \
				PL_GA_ADD(n, g), p))                           \
	X(hipDrvGraphAddMemsetNode,                                            \
	  (PL_GRAPH_DEPS, const HIP_MEMSET_NODE_PARAMS *p, hipCtx_t ctx),      \
	  (n, g, deps, nd, p, ctx), 0, PL_NONE,                                \
	  pl_graph_rec_set_drv(HG_API_HIP_DRV_GRAPH_ADD_MEMSET_NODE, rc,       \
			       PL_GA_ADD(n, g), p))                            \
	X(hipDrvGraphMemcpyNodeSetParams,                                      \
	  (hipGraphNode_t n, const HIP_MEMCPY3D *p), (n, p), 0, PL_NONE,       \
	  pl_graph_rec_copy_drv(HG_API_HIP_DRV_GRAPH_MEMCPY_NODE_SET_PARAMS,   \
				rc, PL_GA_NODE(n), p))                         \
	X(hipDrvGraphExecMemcpyNodeSetParams,                                  \
	  (hipGraphExec_t x, hipGraphNode_t n, const HIP_MEMCPY3D *p,          \
	   hipCtx_t ctx),                                                      \
	  (x, n, p, ctx), 0, PL_NONE,                                          \
	  pl_graph_rec_copy_drv(                                               \
		  HG_API_HIP_DRV_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS, rc,        \
		  PL_GA_EXEC(x, n), p))                                        \
	X(hipDrvGraphExecMemsetNodeSetParams,                                  \
	  (hipGraphExec_t x, hipGraphNode_t n, const HIP_MEMSET_NODE_PARAMS *p,\
	   hipCtx_t ctx),                                                      \
	  (x, n, p, ctx), 0, PL_NONE,                                          \
	  pl_graph_rec_set_drv(HG_API_HIP_DRV_GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,\
			       rc, PL_GA_EXEC(x, n), p))

/* The virtual memory API and pools (pl_vm.c); hipMemMap and hipMemUnmap
 * are an allocation and a free. */
#define PL_HIP_VM_TABLE(X)                                                     \
	X(hipMemCreate,                                                        \
	  (hipMemGenericAllocationHandle_t * h, size_t size,                   \
	   const hipMemAllocationProp *prop, unsigned long long fl),           \
	  (h, size, prop, fl), 1, pl_vm_learn_layout(),                        \
	  pl_vm_rec_create(rc, h, size, prop))                                 \
	X(hipMemRelease, (hipMemGenericAllocationHandle_t h), (h), 0, PL_NONE, \
	  PL_CALL(HG_API_HIP_MEM_RELEASE, h))                                  \
	X(hipMemAddressReserve,                                                \
	  (void **p, size_t size, size_t align, void *addr,                    \
	   unsigned long long fl),                                             \
	  (p, size, align, addr, fl), 1, PL_NONE,                              \
	  PL_CALL(HG_API_HIP_MEM_ADDRESS_RESERVE,                              \
		  rc == hipSuccess && p ? *p : NULL))                          \
	X(hipMemAddressFree, (void *p, size_t size), (p, size), 0, PL_NONE,    \
	  PL_CALL(HG_API_HIP_MEM_ADDRESS_FREE, p))                             \
	X(hipMemImportFromShareableHandle,                                     \
	  (hipMemGenericAllocationHandle_t * h, void *os,                      \
	   hipMemAllocationHandleType t),                                      \
	  (h, os, t), 1, pl_vm_learn_layout(), pl_vm_rec_import_handle(rc, h)) \
	X(hipMemPoolImportFromShareableHandle,                                 \
	  (hipMemPool_t * pool, void *os, hipMemAllocationHandleType t,        \
	   unsigned int fl),                                                   \
	  (pool, os, t, fl), 1, pl_vm_learn_layout(),                          \
	  pl_vm_rec_pool_import(rc, pool))                                     \
	X(hipMemPoolCreate,                                                    \
	  (hipMemPool_t * pool, const hipMemPoolProps *props), (pool, props),  \
	  1, PL_NONE, pl_vm_rec_pool(rc, pool, props))                         \
	X(hipMemPoolDestroy, (hipMemPool_t pool), (pool), 0, PL_NONE,          \
	  PL_CALL(HG_API_HIP_MEM_POOL_DESTROY, pool))                          \
	X(hipDeviceSetMemPool, (int dev, hipMemPool_t pool), (dev, pool), 0,   \
	  PL_NONE, pl_vm_rec_device_pool(rc, dev, pool))

#define PL_CALL(api, arg) reg_emit_call(api, rc, (uint64_t)(uintptr_t)(arg))

/* A <<<>>> launch the runtime refuses at its configuration never reaches
 * hipLaunchKernel, yet the program reads the refusal back as its launch's
 * error (hipGetLastError): it is a failed launch, and only a failure is
 * written. */
#define pl_rec_launch_config(rc)                                               \
	do {                                                                   \
		if (rc != hipSuccess)                                          \
			reg_emit_call(HG_API_HIP_LAUNCH_KERNEL, rc, 0);        \
	} while (0)

#define PL_HIP_MISC_TABLE(X)                                                   \
	X(hipDeviceSynchronize, (void), (), 0, PL_NONE,                        \
	  PL_CALL(HG_API_HIP_DEVICE_SYNCHRONIZE, 0))                           \
	X(hipStreamSynchronize, (hipStream_t st), (st), 0, PL_NONE,            \
	  PL_CALL(HG_API_HIP_STREAM_SYNCHRONIZE, st))                          \
	X(hipSetDevice, (int dev), (dev), 0, PL_NONE,                          \
	  pl_rec_set_device(rc, dev))                                          \
	X(hipInit, (unsigned int fl), (fl), 1, PL_NONE,                        \
	  PL_CALL(HG_API_HIP_INIT, fl))                                        \
	X(hipGetDevice, (int *dev), (dev), 1, PL_NONE,                         \
	  PL_CALL(HG_API_HIP_GET_DEVICE, 0))                                   \
	X(__hipPushCallConfiguration,                                          \
	  (dim3 g, dim3 b, size_t shm, hipStream_t st), (g, b, shm, st), 0,    \
	  PL_NONE, pl_rec_launch_config(rc))                                   \
	X(hipGetDeviceCount, (int *n), (n), 1, PL_NONE,                        \
	  PL_CALL(HG_API_HIP_GET_DEVICE_COUNT, 0))                             \
	X(hipGetDeviceProperties, (hipDeviceProp_t * p, int dev), (p, dev), 1, \
	  PL_NONE, PL_CALL(HG_API_HIP_GET_DEVICE_PROPERTIES, dev))             \
	X(hipStreamCreate, (hipStream_t * s), (s), 1, PL_NONE,                 \
	  (PL_CALL(HG_API_HIP_STREAM_CREATE, 0), pl_stream_made(rc, s)))       \
	X(hipStreamCreateWithFlags, (hipStream_t * s, unsigned int fl),        \
	  (s, fl), 1, PL_NONE, pl_stream_made(rc, s))                          \
	X(hipStreamCreateWithPriority,                                         \
	  (hipStream_t * s, unsigned int fl, int prio), (s, fl, prio), 1,      \
	  PL_NONE, pl_stream_made(rc, s))                                      \
	X(hipExtStreamCreateWithCUMask,                                        \
	  (hipStream_t * s, uint32_t n, const uint32_t *mask), (s, n, mask),   \
	  1, PL_NONE, pl_stream_made(rc, s))                                   \
	X(hipStreamDestroy, (hipStream_t s), (s), 0, PL_NONE,                  \
	  pl_stream_gone(rc, s))                                               \
	X(hipModuleLoad, (hipModule_t * m, const char *path), (m, path), 0,    \
	  PL_NONE, pl_rec_module_load(HG_API_HIP_MODULE_LOAD, rc, m, NULL, path)) \
	X(hipModuleLoadData, (hipModule_t * m, const void *img), (m, img), 0,  \
	  PL_NONE,                                                             \
	  pl_rec_module_load(HG_API_HIP_MODULE_LOAD_DATA, rc, m, img, NULL))   \
	X(hipModuleLoadDataEx,                                                 \
	  (hipModule_t * m, const void *img, unsigned int n, hipJitOption *o,  \
	   void **v),                                                          \
	  (m, img, n, o, v), 0, PL_NONE,                                       \
	  pl_rec_module_load(HG_API_HIP_MODULE_LOAD_DATA_EX, rc, m, img, NULL))\
	X(hipModuleGetFunction,                                                \
	  (hipFunction_t * f, hipModule_t m, const char *name), (f, m, name),  \
	  0, PL_NONE, pl_rec_get_function(rc, f, m, name))

#define PL_HIP_TABLE(X)                                                        \
	PL_HIP_ALLOC_TABLE(X)                                                  \
	PL_HIP_FREE_TABLE(X)                                                   \
	PL_HIP_COPY_TABLE(X)                                                   \
	PL_HIP_SET_TABLE(X)                                                    \
	PL_HIP_RANGE_TABLE(X)                                                  \
	PL_HIP_LAUNCH_TABLE(X)                                                 \
	PL_LAUNCH_MORE_TABLE(X)                                                \
	PL_HIP_LEGACY_TABLE(X)                                                 \
	PL_HIP_GRAPH_TABLE(X)                                                  \
	PL_HIP_GRAPH_COPY_TABLE(X)                                             \
	PL_HIP_GRAPH_TREE_TABLE(X)                                             \
	PL_HIP_VM_TABLE(X)                                                     \
	PL_HIP_MISC_TABLE(X)

#endif
