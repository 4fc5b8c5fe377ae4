// SPDX-License-Identifier: MIT
//
// The launch API before HIP 3, as a port of old CUDA code calls it:
// hipConfigureCall, one hipSetupArgument per argument at its offset, and
// hipLaunchByPtr.  The kernel adds into a buffer with hardware FP atomics,
// so the buffer's granularity decides whether the sum is silently wrong.
//
// usage: hg-legacy fine|coarse|nested|unconfigured
//   fine         - the sum lands in fine-grained host-pinned memory;
//   coarse       - in device memory (the near miss);
//   nested       - a configuration pushed inside another: the inner launch
//                  adds into device memory, the outer one into fine memory;
//   unconfigured - arguments and a launch with nothing configured: the
//                  runtime's errors, forwarded and recorded.
#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstring>

__global__ void accumulate(double *acc, const double *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		unsafeAtomicAdd(acc, x[i]);
}

// The arguments at the offsets the kernarg segment gives them.
static hipError_t setup(double *acc, double *x, int n)
{
	hipError_t e = hipSetupArgument(&acc, sizeof(acc), 0);
	if (e == hipSuccess)
		e = hipSetupArgument(&x, sizeof(x), 8);
	if (e == hipSuccess)
		e = hipSetupArgument(&n, sizeof(n), 16);
	return e;
}

static hipError_t launch(double *acc, double *x, int n)
{
	hipError_t e = hipConfigureCall(dim3(1), dim3(256), 0, 0);
	if (e == hipSuccess)
		e = setup(acc, x, n);
	return e == hipSuccess ? hipLaunchByPtr((const void *)accumulate) : e;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	const int n = 256;
	double *x, *dev, *fine;
	hipError_t e;

	if (hipMalloc(&x, n * sizeof(double)) != hipSuccess ||
	    hipMalloc(&dev, sizeof(double)) != hipSuccess ||
	    hipHostMalloc(&fine, sizeof(double), 0) != hipSuccess)
		return 1;
	if (!strcmp(mode, "fine")) {
		e = launch(fine, x, n);
	} else if (!strcmp(mode, "coarse")) {
		e = launch(dev, x, n);
	} else if (!strcmp(mode, "nested")) {
		e = hipConfigureCall(dim3(1), dim3(256), 0, 0);
		if (e == hipSuccess)
			e = setup(fine, x, n);
		if (e == hipSuccess)
			e = launch(dev, x, n); // the inner one, on its own args
		if (e == hipSuccess)
			e = hipLaunchByPtr((const void *)accumulate);
	} else if (!strcmp(mode, "unconfigured")) {
		hipError_t s = hipSetupArgument(&fine, sizeof(fine), 0);
		e = hipLaunchByPtr((const void *)accumulate);
		printf("legacy unconfigured: setup %s, launch %s\n",
		       hipGetErrorName(s), hipGetErrorName(e));
		return s != hipSuccess && e != hipSuccess ? 0 : 1;
	} else {
		fprintf(stderr, "usage: %s fine|coarse|nested|unconfigured\n",
			argv[0]);
		return 2;
	}
	printf("legacy %s: %s\n", mode, hipGetErrorName(e));
	hipHostFree(fine);
	hipFree(dev);
	hipFree(x);
	return e == hipSuccess ? 0 : 1;
}
