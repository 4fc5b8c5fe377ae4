/* SPDX-License-Identifier: MIT */
/*
 * The HIP API as the preload sees it: Debian's ROCm 5.2 headers, plus the
 * prototypes of entry points that only newer runtimes (or no header) have.
 * Our definitions are checked against these by the compiler.
 */
#ifndef PL_HIP_H
#define PL_HIP_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include "hg_hip_compat.h"

/* Compiler-generated registration, called from the program's constructors. */
void **__hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(void **modules, const void *host_function,
			   char *device_function, const char *device_name,
			   unsigned int thread_limit, void *tid, void *bid,
			   dim3 *block_dim, dim3 *grid_dim, int *wsize);
void __hipUnregisterFatBinary(void **modules);

/* hip_ext.h is C++ only (default arguments). */
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t bx, uint32_t by,
				    uint32_t bz, size_t shm, hipStream_t st,
				    void **args, void **extra, hipEvent_t e0,
				    hipEvent_t e1, uint32_t flags);

/* ROCm 6 names. */
hipError_t hipExtHostAlloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipMemPrefetchAsync_v2(const void *dev_ptr, size_t count,
				  hipMemLocation location, unsigned int flags,
				  hipStream_t stream);
hipError_t hipMemAdvise_v2(const void *dev_ptr, size_t count,
			   hipMemoryAdvise advice, hipMemLocation location);

/* Per-thread default stream forms (in ROCm 5.2's library, not its
 * headers) and ROCm 5.5+ entry points.  Each is called only by a program
 * whose runtime has it. */
hipError_t hipLaunchKernel_spt(const void *f, dim3 g, dim3 b, void **args,
			       size_t shm, hipStream_t st);
hipError_t hipLaunchCooperativeKernel_spt(const void *f, dim3 g, dim3 b,
					  void **args, uint32_t shm,
					  hipStream_t st);
hipError_t hipModuleLaunchCooperativeKernel(
	hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
	unsigned int bx, unsigned int by, unsigned int bz, unsigned int shm,
	hipStream_t st, void **args);
hipError_t hipGraphLaunch_spt(hipGraphExec_t g, hipStream_t st);
hipError_t hipStreamBeginCapture_spt(hipStream_t st, hipStreamCaptureMode m);
hipError_t hipStreamEndCapture_spt(hipStream_t st, hipGraph_t *g);

/* Around every real HIP call: returns whether to record it.  `query` asks
 * for the device's facts first, before the call, so our own queries never
 * overwrite the error the program will read back with hipGetLastError. */
#endif
