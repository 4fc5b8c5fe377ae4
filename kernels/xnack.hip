// SPDX-License-Identifier: MIT
//
// xnack: seed 000, "xnack compiler flag": "--offload-arch=gfx90a:xnack+"
// builds code that needs XNACK; the process's mode comes from HSA_XNACK
// ("On MI250X, this can be enabled on a per-process based using the
// environment variable HSA_XNACK=1").  This program is built for
// gfx90a:xnack+ only (kernels/meson.build), so its one code object cannot
// run in a process without XNACK.  It takes no variant; the environment is
// the variant:
//
//   HSA_XNACK=0 (or unset)  hipgrain: xnack-mode-mismatch
//   HSA_XNACK=1             hipgrain: none
//
// The kernel only touches hipMalloc memory, so no other rule applies.
#include "demo.h"

#define N 4096

__global__ void scale(float *a, float s, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n)
		a[i] *= s;
}

int main(int argc, char **argv)
{
	if (argc != 1)
		demo_usage(argv[0], "(no arguments; set HSA_XNACK=0 or 1)");
	float host[N], *dev;
	for (int i = 0; i < N; i++)
		host[i] = (float)i;
	CHECK(hipMalloc((void **)&dev, sizeof(host)));
	CHECK(hipMemcpy(dev, host, sizeof(host), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, 0, dev, 2.0f, N);
	// A runtime that cannot load the code object refuses the launch
	// (ROCm 6) or stops the program before it (ROCm 5): free first, so
	// that the one finding is the mode mismatch.
	hipError_t launched = hipGetLastError();
	if (launched != hipSuccess) {
		CHECK(hipFree(dev));
		demo_fail("hipLaunchKernel", launched);
	}
	CHECK(hipMemcpy(host, dev, sizeof(host), hipMemcpyDeviceToHost));
	CHECK(hipFree(dev));
	int errors = 0;
	for (int i = 0; i < N; i++)
		errors += host[i] != 2.0f * (float)i;
	printf("xnack: %d errors in %d elements %s\n", errors, N,
	       demo_verdict(errors == 0));
	return 0;
}
