// SPDX-License-Identifier: MIT
//
// Thread churn: T threads each make N rounds of malloc/free,
// new[]/delete[], hipMalloc/hipFree, hipHostMalloc/hipHostFree and a kernel
// launch on the device buffer, all at once.  Prints how many HIP allocations
// succeeded so the test can match them one for one against the trace.
#include <hip/hip_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

__global__ void touch(float *dst, const float *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i] + 1.0f;
}

static std::atomic<long> hip_allocs{0}, launches{0}, failures{0};

static void churn(int rounds)
{
	for (int r = 0; r < rounds; r++) {
		void *m = malloc(16 + (r % 64) * 8);
		char *c = new char[32 + r % 128];
		float *d = nullptr, *h = nullptr;

		if (hipMalloc(&d, 4096) == hipSuccess)
			hip_allocs++;
		else
			failures++;
		if (hipHostMalloc(&h, 4096, 0) == hipSuccess)
			hip_allocs++;
		else
			failures++;
		touch<<<1, 64>>>(d, h, 64);
		if (hipGetLastError() == hipSuccess)
			launches++;
		hipFree(d);
		hipHostFree(h);
		delete[] c;
		free(m);
	}
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 32;
	int rounds = argc > 2 ? atoi(argv[2]) : 50;
	std::vector<std::thread> pool;

	for (int t = 0; t < threads; t++)
		pool.emplace_back(churn, rounds);
	for (auto &t : pool)
		t.join();
	printf("hip_allocs=%ld launches=%ld failures=%ld\n", hip_allocs.load(),
	       launches.load(), failures.load());
	return failures ? 1 : 0;
}
