// SPDX-License-Identifier: MIT
//
// stage: a solver's set-up that stages its input on the GPU, written as a
// user would, with the prefetch in a helper of its own on a stream of its
// own.  The buffer is hipMalloc memory (or hipHostMalloc memory), which
// never migrates: the driver refuses the prefetch's range and ROCr, in a
// build that keeps its assertions (Debian's), aborts the program inside
// hipMemPrefetchAsync ("KFD Prefetch failed"), on its own thread.  The
// call never returns, so nothing after it is traced.
//
//   variant     hipgrain on a virtual GPU
//   device      died-in-call, prefetch-unsupported at the prefetch's line
//   pinned      the same
//
// Under tests/fakehip the prefetch returns and the program ends normally:
// prefetch-unsupported alone.
#include "demo.h"

#define N 4096

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

// Move the input to the GPU before the sweeps start.
static void stage(float *x, size_t bytes, int dev, hipStream_t s)
{
	CHECK(hipMemPrefetchAsync(x, bytes, dev, s)); // stage: prefetch
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"device", "pinned"};
	int m = demo_pick(argc == 2 ? argv[1] : nullptr, names, 2);
	if (m < 0)
		demo_usage(argv[0], "{device|pinned}");
	int dev;
	CHECK(hipGetDevice(&dev));
	float *x = nullptr;
	if (m == 0)
		CHECK(hipMalloc(&x, N * sizeof(float)));
	else
		CHECK(hipHostMalloc(&x, N * sizeof(float), hipHostMallocDefault));
	CHECK(hipMemset(x, 0, N * sizeof(float)));
	hipStream_t s;
	CHECK(hipStreamCreate(&s));
	stage(x, N * sizeof(float), dev, s);
	scale<<<N / 256, 256, 0, s>>>(x, 2.0f, N);
	CHECK_LAUNCH();
	CHECK(hipStreamSynchronize(s));
	printf("stage %s: staged and scaled %d values\n", names[m], N);
	CHECK(hipStreamDestroy(s));
	if (m == 0)
		CHECK(hipFree(x));
	else
		CHECK(hipHostFree(x));
	return 0;
}
