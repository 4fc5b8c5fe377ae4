/* SPDX-License-Identifier: MIT */
/*
 * NULL, zero-size and invalid-flag HIP calls.  hipgrain must forward each
 * one untouched: this program prints every return code, and the test checks
 * the output is the same with and without the preload.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <stdio.h>

#define SHOW(call) printf("%-48s %d\n", #call, (int)(call))

int main(void)
{
	void *p = (void *)0x1;
	void *h = NULL;

	SHOW(hipMalloc(NULL, 16));
	SHOW(hipMalloc(&p, 0));
	printf("hipMalloc(&p, 0) left p %s\n", p ? "non-NULL" : "NULL");
	SHOW(hipFree(NULL));
	SHOW(hipHostMalloc(&h, 64, hipHostMallocCoherent | hipHostMallocNonCoherent));
	SHOW(hipHostMalloc(NULL, 64, 0));
	SHOW(hipHostFree(NULL));
	SHOW(hipMallocManaged(NULL, 64, hipMemAttachGlobal));
	SHOW(hipMemcpy(NULL, NULL, 0, hipMemcpyDefault));
	SHOW(hipMemset(NULL, 0, 0));
	SHOW(hipMemAdvise(NULL, 0, hipMemAdviseSetCoarseGrain, 0));
	SHOW(hipMemPrefetchAsync(NULL, 0, 0, NULL));
	SHOW(hipFree((void *)0x12345));
	SHOW(hipHostRegister(NULL, 0, 0));
	SHOW(hipMemcpy_spt(NULL, NULL, 0, hipMemcpyDefault));
	SHOW(hipMemcpy3D(NULL));
	SHOW(hipMemcpyParam2D(NULL));
	SHOW(hipDrvMemcpy3D(NULL));
	SHOW(hipMemsetD16(NULL, 0, 0));
	SHOW(hipMemcpyToSymbol(NULL, NULL, 0, 0, hipMemcpyHostToDevice));
	SHOW(hipMemcpyAtoH(NULL, NULL, 0, 0));
	SHOW(hipIpcCloseMemHandle(NULL));
	SHOW(hipDestroyExternalMemory(NULL));
	SHOW(hipExtLaunchMultiKernelMultiDevice(NULL, 0, 0));
	SHOW(hipModuleUnload(NULL));
	return 0;
}
