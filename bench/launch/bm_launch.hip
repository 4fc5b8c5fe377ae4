// SPDX-License-Identifier: MIT
//
// Launch overhead: N launches of a kernel with four pointer arguments, as
// <<<>>> makes them (push/pop configuration + hipLaunchKernel).  Run against
// the test double, whose launch returns at once, so what is measured is the
// host-side path hipgrain adds to.  Prints nanoseconds per launch.
// Modes (second argument):
//   same    - the same buffers every time (a counted repeat);
//   rotate  - four buffer sets in turn: no launch is like the one before,
//             but each is like one four launches back (a solver's loop);
//   fresh   - every launch a combination of buffers not seen for thousands
//             of launches, so hipgrain writes an event for each one (its
//             worst case).
//   alloc   - a fresh buffer every launch: hipMalloc 4 KiB, launch with it,
//             hipFree (a loop with a temporary); hipgrain writes an alloc,
//             a launch and a free each round.
//   ysync   - a launch, then hipDeviceSynchronize: the round trip through a
//             device's queue (on the virtual GPU: the real runtime's
//             packets, retired by the stand-in).
#include <hip/hip_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void four(float *a, const float *b, const float *c, float *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] = b[i] + c[i] * d[i];
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	char mode = argc > 2 ? argv[2][0] : 's';
	float *p[8];

	for (auto &q : p)
		if (hipMalloc(&q, 4096) != hipSuccess)
			return 1;
	for (long i = 0; i < n / 10; i++) // first launch reads the code object
		four<<<4, 256>>>(p[0], p[1], p[2], p[3], 1024);
	auto t0 = std::chrono::steady_clock::now();
	for (long i = 0; mode == 'a' && i < n; i++) {
		float *t;
		if (hipMalloc(&t, 4096) != hipSuccess)
			return 1;
		four<<<4, 256>>>(t, p[1], p[2], p[3], 1024);
		if (hipFree(t) != hipSuccess)
			return 1;
	}
	for (long i = 0; mode == 'y' && i < n; i++) {
		four<<<4, 256>>>(p[0], p[1], p[2], p[3], 1024);
		if (hipDeviceSynchronize() != hipSuccess)
			return 1;
	}
	for (long i = 0; mode != 'a' && mode != 'y' && i < n; i++) {
		// Octal digits pick the buffers; fresh walks 4096 patterns.
		long o = mode == 'r' ? (i & 3) : 0;
		long a = mode == 'f' ? i : o | (o + 1) << 3 | (o + 2) << 6 | (o + 3) << 9;
		four<<<4, 256>>>(p[a & 7], p[(a >> 3) & 7], p[(a >> 6) & 7],
				 p[(a >> 9) & 7], 1024);
	}
	auto t1 = std::chrono::steady_clock::now();
	printf("%.1f\n", std::chrono::duration<double, std::nano>(t1 - t0).count() / n);
	return 0;
}
