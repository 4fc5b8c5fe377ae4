/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): launch forms that are other
 * forms underneath, checked (and never run) as those are.
 */
#include "fh.h"

/* hip_ext.h is C++ only; ROCm 6 exports it.  The grid is in work items. */
FH_PUBLIC hipError_t hipHccModuleLaunchKernel(
	hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
	uint32_t by, uint32_t bz, size_t shm, hipStream_t st, void **args,
	void **extra, hipEvent_t e0, hipEvent_t e1);

hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t bx, uint32_t by,
				    uint32_t bz, size_t shm, hipStream_t st,
				    void **args, void **extra, hipEvent_t e0,
				    hipEvent_t e1)
{
	FH_INIT();
	if (!bx || !by || !bz)
		return fh_ret(hipErrorInvalidValue);
	return hipModuleLaunchKernel(f, gx / bx, gy / by, gz / bz, bx, by, bz,
				     (unsigned int)shm, st, args, extra);
}

/* Each entry a hipLaunchKernel on its own stream; the first error stops. */
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *l, int n,
					      unsigned int flags)
{
	hipError_t err = hipSuccess;

	FH_INIT();
	if (!l || n < 1)
		return fh_ret(hipErrorInvalidValue);
	for (int i = 0; i < n && err == hipSuccess; i++)
		err = hipLaunchKernel(l[i].func, l[i].gridDim, l[i].blockDim,
				      l[i].args, l[i].sharedMem, l[i].stream);
	return fh_ret(err);
}
