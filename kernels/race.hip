// SPDX-License-Identifier: MIT
//
// race: waves of one work-group sharing LDS (__shared__) memory.  A
// public benchmark rewrote its shared tile after the loop that read it
// with no barrier between, and gave wrong distances now and then on a
// card, every run on hipgrain's virtual GPU (issue 49).  Each block of
// 256 work-items (four waves) stages its slice of the input in LDS and
// each work-item then reads the element a wave further on.
//
//   race missing   no __syncthreads() between the write of the tile and
//                  the other wave's read: lds-race on the virtual GPU,
//                  naming both lines (the fake runtime runs no kernel).
//   race fixed     the same with the barrier: no finding.
//   race atomic    every work-item adds 1 to one LDS counter with
//                  atomicAdd, a barrier, then one work-item reads it:
//                  atomics do not race with atomics, no finding.
//
// Exit 0 with the result line, "OK" or "MISMATCH" when the GPU result is wrong (as
// the missing barrier makes it on the virtual GPU, which runs each wave to
// its barrier in turn).
#include "demo.h"

#define BLOCK 256
#define BLOCKS 8
#define N (BLOCK * BLOCKS)

__global__ void shift_missing(const int *in, int *out)
{
	__shared__ int tile[BLOCK];
	int t = threadIdx.x, base = blockIdx.x * BLOCK;
	tile[t] = in[base + t];
	out[base + t] = tile[(t + 64) % BLOCK];
}

__global__ void shift_fixed(const int *in, int *out)
{
	__shared__ int tile[BLOCK];
	int t = threadIdx.x, base = blockIdx.x * BLOCK;
	tile[t] = in[base + t];
	__syncthreads();
	out[base + t] = tile[(t + 64) % BLOCK];
}

__global__ void count_atomic(const int *in, int *out)
{
	__shared__ int count;
	int t = threadIdx.x;
	if (t == 0)
		count = 0;
	__syncthreads();
	atomicAdd(&count, in[blockIdx.x * BLOCK + t] > -1 ? 1 : 0);
	__syncthreads();
	if (t == 0)
		out[blockIdx.x] = count;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = {"missing", "fixed", "atomic"};
	int mode = demo_pick(argc > 1 ? argv[1] : NULL, modes, 3);
	if (mode < 0)
		demo_usage(argv[0], "missing|fixed|atomic");
	int *in, *out, host[N];
	CHECK(hipMalloc(&in, N * sizeof(int)));
	CHECK(hipMalloc(&out, N * sizeof(int)));
	for (int i = 0; i < N; i++)
		host[i] = i;
	CHECK(hipMemcpy(in, host, sizeof(host), hipMemcpyHostToDevice));
	if (mode == 0)
		shift_missing<<<BLOCKS, BLOCK>>>(in, out);
	else if (mode == 1)
		shift_fixed<<<BLOCKS, BLOCK>>>(in, out);
	else
		count_atomic<<<BLOCKS, BLOCK>>>(in, out);
	CHECK_LAUNCH();
	CHECK(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < (mode == 2 ? BLOCKS : N); i++) {
		int b = i / BLOCK, t = i % BLOCK;
		int want = mode == 2 ? BLOCK : b * BLOCK + (t + 64) % BLOCK;
		bad += host[i] != want;
	}
	printf("race %s: %d of %d values wrong %s\n", modes[mode], bad,
	       mode == 2 ? BLOCKS : N, bad ? "MISMATCH" : "OK");
	CHECK(hipFree(in));
	CHECK(hipFree(out));
	return 0;
}
