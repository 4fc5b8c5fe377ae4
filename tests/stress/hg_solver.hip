// SPDX-License-Identifier: MIT
//
// A solver's loop, for the launch-counting checks: each iteration runs two
// axpy kernels and a dot product whose sum lands, in turn, in device memory
// and in fine-grained host-pinned memory (hardware FP atomics there are the
// seed's silent NOP on gfx90a), then copies a result back.  hipgrain must
// count these launches instead of writing each one, yet attribute every
// count to the right pattern.  Then a temporary each step, launched on
// three times, on each half in turn: the first launch finds it under the
// registry's lock, the others in the thread's own table of ranges, and all
// are one pattern.
// Then a second thread launches on a pinned
// block that the main thread frees before that thread exits: its counted
// launches reach the trace after the free, and are no use after free.
// Last, a worker that never ends (a pool's, OpenMP's) launches and is still
// running at exit: its counts are written then.
#include <hip/hip_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

__global__ void axpy(double *y, const double *x, double a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += a * x[i];
}

__global__ void dot(const double *x, const double *y, double *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		unsafeAtomicAdd(sum, x[i] * y[i]);
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 1000;
	int late = argc > 2 ? atoi(argv[2]) : 50;
	int temps = argc > 3 ? atoi(argv[3]) : 20;
	const int n = 256;
	double *x, *y, *s_dev, *s_fine, *s_late, h = 0;
	long launches = 0, fine = 0;

	if (hipMalloc(&x, n * sizeof(double)) != hipSuccess ||
	    hipMalloc(&y, n * sizeof(double)) != hipSuccess ||
	    hipMalloc(&s_dev, sizeof(double)) != hipSuccess ||
	    hipHostMalloc(&s_fine, sizeof(double), 0) != hipSuccess ||
	    hipHostMalloc(&s_late, sizeof(double), 0) != hipSuccess)
		return 1;
	for (int i = 0; i < iters; i++) {
		axpy<<<1, n>>>(y, x, 0.5, n);
		axpy<<<1, n>>>(x, y, -0.5, n);
		dot<<<1, n>>>(x, y, i & 1 ? s_fine : s_dev, n);
		launches += 3, fine += i & 1;
		hipMemcpy(&h, s_dev, sizeof(h), hipMemcpyDeviceToHost);
	}

	for (int i = 0; i < temps; i++) {
		double *t;

		if (hipMalloc(&t, 2 * n * sizeof(double)) != hipSuccess)
			return 1;
		for (int j = 0; j < 3; j++) /* each half in turn */
			axpy<<<1, n>>>(t + (j & 1) * n, x, 1.0, n);
		hipFree(t);
		launches += 3;
	}

	std::atomic<int> stage{0};
	std::thread t([&] {
		for (int i = 0; i < late; i++)
			dot<<<1, n>>>(x, y, s_late, n);
		stage = 1;
		while (stage != 2)
			std::this_thread::yield();
	}); // exits, and so writes its counts, after the free below
	while (stage != 1)
		std::this_thread::yield();
	hipHostFree(s_late);
	stage = 2;
	t.join();
	launches += late, fine += late;

	std::atomic<int> done{0};
	std::thread([&] {
		for (int i = 0; i < late; i++)
			axpy<<<1, n>>>(y, x, 0.25, n);
		done = 1;
		for (;;)
			pause();
	}).detach();
	while (!done)
		std::this_thread::yield();
	launches += late;

	hipHostFree(s_fine);
	hipFree(s_dev);
	hipFree(y);
	hipFree(x);
	printf("launches=%ld fine=%ld\n", launches, fine);
	return 0;
}
