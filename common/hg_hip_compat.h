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

#endif /* HG_HIP_COMPAT_H */
