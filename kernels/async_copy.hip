// SPDX-License-Identifier: MIT
//
// async_copy: seed 002, "CUDA Streams" / "Locking Memory Pages": copies on a
// stream overlap with kernels only when the host side is page-locked; from
// pageable memory the runtime stages the copy through a pinned buffer (seed
// 001, "Unpinned Memory Transfer Optimization") and the "async" copy no
// longer overlaps.
//
// The host array is split into 4 chunks; each chunk is copied to the device
// with hipMemcpyAsync, scaled by a kernel and copied back, all on one stream.
//
//   async_copy pageable   host array from malloc():
//                         hipgrain: async-copy-pageable (HtoD and DtoH).
//   async_copy pinned     host array from hipHostMalloc(): hipgrain: none.
//   async_copy vector     host array in a std::vector: async-copy-pageable,
//                         its allocation at this file's line of the vector
//                         (via std::vector::vector), never libstdc++'s
//                         new_allocator.h, and each copy at its own line.
#include "demo.h"
#include <vector>

#define N (1 << 20)
#define CHUNKS 4

__global__ void scale(float *a, float s, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n)
		a[i] *= s;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"pageable", "pinned", "vector"};
	int v = demo_pick(argc == 2 ? argv[1] : nullptr, names, 3);
	if (v < 0)
		demo_usage(argv[0], "{pageable|pinned|vector}");

	size_t bytes = N * sizeof(float), chunk = N / CHUNKS;
	float *host, *dev;
	hipStream_t stream;
	CHECK(hipStreamCreate(&stream));
	std::vector<float> vec(v == 2 ? N : 0); // async_copy: the vector
	if (v == 2) {
		host = vec.data();
	} else if (v == 0) {
		host = (float *)malloc(bytes);
		if (!host) {
			fprintf(stderr, "malloc failed\n");
			return 1;
		}
	} else {
		CHECK(hipHostMalloc((void **)&host, bytes, hipHostMallocDefault));
	}
	for (int i = 0; i < N; i++)
		host[i] = (float)i;
	CHECK(hipMalloc((void **)&dev, bytes));

	for (int c = 0; c < CHUNKS; c++) {
		float *h = host + c * chunk, *d = dev + c * chunk;
		CHECK(hipMemcpyAsync(d, h, chunk * sizeof(float), // async_copy: to the device
				     hipMemcpyHostToDevice, stream));
		hipLaunchKernelGGL(scale, dim3(chunk / 256), dim3(256), 0, stream,
				   d, 2.0f, (int)chunk);
		CHECK_LAUNCH();
		CHECK(hipMemcpyAsync(h, d, chunk * sizeof(float), // async_copy: back
				     hipMemcpyDeviceToHost, stream));
	}
	CHECK(hipStreamSynchronize(stream));

	int errors = 0;
	for (int i = 0; i < N; i++)
		errors += host[i] != 2.0f * (float)i;
	printf("async_copy %s: %d errors in %d elements %s\n", names[v], errors, N,
	       demo_verdict(errors == 0));

	CHECK(hipFree(dev));
	if (v == 0)
		free(host);
	else if (v == 1)
		CHECK(hipHostFree(host));
	CHECK(hipStreamDestroy(stream));
	return 0;
}
