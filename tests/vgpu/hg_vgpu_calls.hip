// SPDX-License-Identifier: MIT
//
// What a program asks of a GPU, on the virtual one: the device count and
// properties, then one of each call the issue names.  Prints "key value"
// lines for test_vgpu.py; exits 0 whatever the runtime answers.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void add(double *x)
{
	atomicAdd(x, 1.0);
}

static void call(const char *name, hipError_t e)
{
	printf("%s %s\n", name, hipGetErrorName(e));
}

int main()
{
	int n = -1;
	call("hipGetDeviceCount", hipGetDeviceCount(&n));
	printf("devices %d\n", n);
	if (n < 1)
		return 0;
	hipDeviceProp_t p;
	call("hipGetDeviceProperties", hipGetDeviceProperties(&p, 0));
	printf("name %s\narch %s\ncus %d\nmemory %zu\n", p.name, p.gcnArchName,
	       p.multiProcessorCount, p.totalGlobalMem);
	double *d = nullptr, *h = nullptr, *m = nullptr, v = 42, w = 0;
	call("hipMalloc", hipMalloc(&d, 4096));
	call("hipMemcpyHtoD", hipMemcpy(d, &v, sizeof(v), hipMemcpyHostToDevice));
	call("hipMemcpyDtoH", hipMemcpy(&w, d, sizeof(w), hipMemcpyDeviceToHost));
	printf("roundtrip %g\n", w);
	unsigned flags[] = {0, hipHostMallocPortable, hipHostMallocMapped,
			    hipHostMallocWriteCombined, hipHostMallocCoherent,
			    hipHostMallocNonCoherent, hipHostMallocNumaUser};
	for (unsigned f : flags) {
		char name[48];
		snprintf(name, sizeof(name), "hipHostMalloc(0x%x)", f);
		call(name, hipHostMalloc(&h, 4096, f));
		call("hipHostFree", hipHostFree(h));
	}
	call("hipMallocManaged", hipMallocManaged(&m, 1 << 20, hipMemAttachGlobal));
	call("hipMemAdvise", hipMemAdvise(m, 1 << 20, hipMemAdviseSetCoarseGrain, 0));
	call("hipMemPrefetchAsync", hipMemPrefetchAsync(m, 1 << 20, 0, 0));
	hipLaunchKernelGGL(add, dim3(1), dim3(1), 0, 0, d);
	call("hipLaunchKernel", hipGetLastError());
	call("hipDeviceSynchronize", hipDeviceSynchronize());
	call("hipFree(managed)", hipFree(m));
	call("hipFree", hipFree(d));
	return 0;
}
