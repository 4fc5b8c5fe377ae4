// SPDX-License-Identifier: MIT
//
// A plugin with kernels of its own (its own fat binary), opened with dlopen
// by a host program that does not link the HIP runtime: libamdhip64 itself
// arrives late, with the plugin.  The kernel adds with hardware FP atomics
// into hipHostMalloc memory: fp-atomic-fine-grain must fire, naming it.
#include <hip/hip_runtime.h>

__global__ void plugin_sum(const double *in, double *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		unsafeAtomicAdd(acc, in[i]);
}

extern "C" int plugin_run(void)
{
	const int n = 1024;
	double *in = nullptr, *acc = nullptr;

	if (hipMalloc(&in, n * sizeof(double)) != hipSuccess ||
	    hipHostMalloc(&acc, sizeof(double), 0) != hipSuccess)
		return 1;
	plugin_sum<<<n / 256, 256>>>(in, acc, n);
	if (hipDeviceSynchronize() != hipSuccess)
		return 2;
	hipHostFree(acc);
	hipFree(in);
	return 0;
}
