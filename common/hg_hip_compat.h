/* SPDX-License-Identifier: MIT */
/*
 * Types and entry points of ROCm 5.5 and later (their layout unchanged in
 * 6.4), declared here only where the headers built against lack them
 * (ROCm 5.2): meson's type checks define HG_HAVE_* (hip_compat_args).
 * The preload wraps these functions, the test double implements them and
 * the tests call them, each under the same declaration.
 *
 * Include after <hip/hip_runtime_api.h>.
 */
#ifndef HG_HIP_COMPAT_H
#define HG_HIP_COMPAT_H

/* Default visibility, as the headers' own declarations have (their
 * visibility push): the preload and the double export them. */
#define HG_HIP_PUBLIC __attribute__((visibility("default")))

#ifndef HG_HAVE_MEM_ALLOC_NODE_PARAMS
typedef struct hipMemAllocNodeParams {
	hipMemPoolProps poolProps;
	const hipMemAccessDesc *accessDescs;
	size_t accessDescCount;
	size_t bytesize;
	void *dptr;
} hipMemAllocNodeParams;
HG_HIP_PUBLIC hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *node,
						 hipGraph_t g,
						 const hipGraphNode_t *deps,
						 size_t ndeps,
						 hipMemAllocNodeParams *p);
#endif

#ifndef HG_HAVE_FUNCTION_LAUNCH_PARAMS
typedef struct hipFunctionLaunchParams_t {
	hipFunction_t function;
	unsigned int gridDimX, gridDimY, gridDimZ;
	unsigned int blockDimX, blockDimY, blockDimZ;
	unsigned int sharedMemBytes;
	hipStream_t hStream;
	void **kernelParams;
} hipFunctionLaunchParams;
HG_HIP_PUBLIC hipError_t hipModuleLaunchCooperativeKernelMultiDevice(
	hipFunctionLaunchParams *list, unsigned int n, unsigned int flags);
#endif

/* ROCm 6's graph node forms.  Where the headers lack a struct, the members
 * hipgrain reads are declared at ROCm 6.4's offsets; the rest of a union
 * is its reserved words. */
#ifndef HG_HAVE_MEMSET_NODE_PARAMS
typedef struct HIP_MEMSET_NODE_PARAMS {
	hipDeviceptr_t dst;
	size_t pitch;
	unsigned int value;
	unsigned int elementSize;
	size_t width;
	size_t height;
} HIP_MEMSET_NODE_PARAMS;
#endif

#ifndef HG_HAVE_GRAPH_NODE_PARAMS
typedef struct hipGraphNodeParams {
	int type; /* ROCm 6's hipGraphNodeType numbering */
	int reserved0[3];
	union {
		long long reserved1[29];
		hipKernelNodeParams kernel;
		struct {
			int flags;
			int reserved[3];
			hipMemcpy3DParms copyParams;
		} memcpy;
		hipMemsetParams memset;
		struct {
			hipGraph_t graph;
		} graph;
		hipMemAllocNodeParams alloc;
		struct {
			void *dptr;
		} free;
	};
	long long reserved2;
} hipGraphNodeParams;
#endif

#ifndef HG_HAVE_GRAPH_INSTANTIATE_PARAMS
typedef struct hipGraphInstantiateParams hipGraphInstantiateParams;
#endif
#ifndef HG_HAVE_GRAPH_EDGE_DATA
typedef struct hipGraphEdgeData hipGraphEdgeData;
#endif

/* Entry points of ROCm 5.7 and 6 (the same declarations as theirs). */
HG_HIP_PUBLIC hipError_t hipGraphNodeSetEnabled(hipGraphExec_t x,
						hipGraphNode_t n,
						unsigned int on);
HG_HIP_PUBLIC hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *n,
						hipGraph_t g,
						const hipGraphNode_t *deps,
						size_t nd, void *p);
HG_HIP_PUBLIC hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *n,
						   hipGraph_t g,
						   const hipGraphNode_t *deps,
						   size_t nd, hipDeviceptr_t p);
HG_HIP_PUBLIC hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *n,
						  hipGraph_t g,
						  const hipGraphNode_t *deps,
						  size_t nd,
						  const HIP_MEMCPY3D *p,
						  hipCtx_t ctx);
HG_HIP_PUBLIC hipError_t hipDrvGraphAddMemsetNode(
	hipGraphNode_t *n, hipGraph_t g, const hipGraphNode_t *deps,
	size_t nd, const HIP_MEMSET_NODE_PARAMS *p, hipCtx_t ctx);
HG_HIP_PUBLIC hipError_t hipDrvGraphMemcpyNodeSetParams(
	hipGraphNode_t n, const HIP_MEMCPY3D *p);
HG_HIP_PUBLIC hipError_t hipDrvGraphExecMemcpyNodeSetParams(
	hipGraphExec_t x, hipGraphNode_t n, const HIP_MEMCPY3D *p,
	hipCtx_t ctx);
HG_HIP_PUBLIC hipError_t hipDrvGraphExecMemsetNodeSetParams(
	hipGraphExec_t x, hipGraphNode_t n, const HIP_MEMSET_NODE_PARAMS *p,
	hipCtx_t ctx);
HG_HIP_PUBLIC hipError_t hipGraphInstantiateWithParams(
	hipGraphExec_t *x, hipGraph_t g, hipGraphInstantiateParams *p);
HG_HIP_PUBLIC hipError_t hipGraphAddNode(hipGraphNode_t *n, hipGraph_t g,
					 const hipGraphNode_t *deps,
					 size_t nd, hipGraphNodeParams *p);
HG_HIP_PUBLIC hipError_t hipGraphNodeSetParams(hipGraphNode_t n,
					       hipGraphNodeParams *p);
HG_HIP_PUBLIC hipError_t hipGraphExecNodeSetParams(hipGraphExec_t x,
						   hipGraphNode_t n,
						   hipGraphNodeParams *p);
HG_HIP_PUBLIC hipError_t hipStreamBeginCaptureToGraph(
	hipStream_t st, hipGraph_t g, const hipGraphNode_t *deps,
	const hipGraphEdgeData *data, size_t nd, hipStreamCaptureMode m);

/* Per-thread default stream forms of ROCm 5.5 and later: a later header
 * declares each the same way, and the declarations coexist. */
HG_HIP_PUBLIC hipError_t hipMemcpy2DAsync_spt(void *dst, size_t dpitch,
					      const void *src, size_t spitch,
					      size_t width, size_t height,
					      hipMemcpyKind kind,
					      hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms *p,
					      hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemcpyToSymbolAsync_spt(const void *symbol,
						    const void *src,
						    size_t size, size_t offset,
						    hipMemcpyKind kind,
						    hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemcpyFromSymbolAsync_spt(void *dst,
						      const void *symbol,
						      size_t size,
						      size_t offset,
						      hipMemcpyKind kind,
						      hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemsetAsync_spt(void *dst, int value, size_t size,
					    hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemset2DAsync_spt(void *dst, size_t pitch,
					      int value, size_t width,
					      size_t height,
					      hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemset3DAsync_spt(hipPitchedPtr pp, int value,
					      hipExtent e, hipStream_t stream);

/* Array copies of ROCm 5.5 and later (the same in 6.4's header). */
HG_HIP_PUBLIC hipError_t hipMemcpyAtoA(hipArray_t dst, size_t dst_off,
				       hipArray_t src, size_t src_off,
				       size_t n);
HG_HIP_PUBLIC hipError_t hipMemcpyAtoD(hipDeviceptr_t dst, hipArray_t src,
				       size_t src_off, size_t n);
HG_HIP_PUBLIC hipError_t hipMemcpyAtoHAsync(void *dst, hipArray_t src,
					    size_t src_off, size_t n,
					    hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemcpyDtoA(hipArray_t dst, size_t dst_off,
				       hipDeviceptr_t src, size_t n);
HG_HIP_PUBLIC hipError_t hipMemcpyHtoAAsync(hipArray_t dst, size_t dst_off,
					    const void *src, size_t n,
					    hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemcpy2DArrayToArray(
	hipArray_t dst, size_t dst_w, size_t dst_h, hipArray_const_t src,
	size_t src_w, size_t src_h, size_t width, size_t height,
	hipMemcpyKind kind);
HG_HIP_PUBLIC hipError_t hipMemcpyFromArray_spt(void *dst, hipArray_const_t src,
						size_t w, size_t h, size_t n,
						hipMemcpyKind kind);
HG_HIP_PUBLIC hipError_t hipMemcpy2DToArrayAsync_spt(
	hipArray_t dst, size_t w, size_t h, const void *src, size_t spitch,
	size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream);
HG_HIP_PUBLIC hipError_t hipMemcpy2DFromArrayAsync_spt(
	void *dst, size_t dpitch, hipArray_const_t src, size_t w, size_t h,
	size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream);

#endif /* HG_HIP_COMPAT_H */
