// SPDX-License-Identifier: MIT
//
// histogram: integer atomics on host-visible memory.  Seed 002 builds the
// byte histogram with atomicAdd ("It is a read-modify-write operation! So
// atomic add"); seed 000 notes "Integer atomics will always be based on HW
// Atomics" -- and the ROCm atomics table says that over PCIe only add, exch
// and CAS reach fine-grained host memory on MI100/MI200: min, max, and, or,
// xor, inc and dec are no-ops there.
//
//   histogram add MEM   histo[byte] += 1 with atomicAdd (global_atomic_add).
//   histogram min MEM   first[byte] = lowest index of that byte, with
//                       atomicMin (global_atomic_umin).
//   histogram sub MEM   left[byte] counts down from SIZE with HIP's
//                       atomicSub, which HIP's headers define as an atomic
//                       add of the negation (global_atomic_add): it lands
//                       wherever add does.
//   histogram fetchsub MEM   the same count down with the compiler's
//                       __atomic_fetch_sub (global_atomic_sub), as generic
//                       C++ or `omp atomic` code writes it: AMD's tables
//                       drop sub over PCIe where they keep add.
//   histogram maxor MEM   three atomics on adjacent lines: a count with
//                       atomicAdd, the largest byte with atomicMax
//                       (global_atomic_umax) and which bytes were seen
//                       with atomicOr (global_atomic_or).  Over PCIe the
//                       add lands and the max and the or do not: the
//                       finding names each of those two at its own line,
//                       and never the add's.
//
//   MEM          histogram add, sub    histogram min, fetchsub, maxor
//   hipmalloc    none             none        (coarse device memory)
//   hostmalloc   none             int-atomic-fine-host (fine host memory,
//                                             gfx908/gfx90a over PCIe)
//   managed      none             none        (fine, but prefetched to the
//                                             device before the launch)
//
// The bins are in MEM; the input bytes are hipMalloc memory.  Exit 0 with
// the result line, "MISMATCH" when the GPU result is wrong.
#include "demo.h"

#define SIZE (1 << 20)
#define BINS 256

__global__ void histo_add(const unsigned char *__restrict__ buf,
			  unsigned int *histo, int size)
{
	int stride = blockDim.x * gridDim.x;
	for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += stride)
		atomicAdd(&histo[buf[i]], 1u);
}

__global__ void histo_first(const unsigned char *__restrict__ buf,
			    unsigned int *first, int size)
{
	int stride = blockDim.x * gridDim.x;
	for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += stride)
		atomicMin(&first[buf[i]], (unsigned int)i);
}

__global__ void histo_sub(const unsigned char *__restrict__ buf,
			  unsigned int *left, int size, unsigned int step)
{
	int stride = blockDim.x * gridDim.x;
	for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += stride)
		atomicSub(&left[buf[i]], step);
}

// The step is an argument: LLVM turns the subtraction of a constant into
// an atomic add of its negation.
__global__ void histo_fetchsub(const unsigned char *__restrict__ buf,
			       unsigned int *left, int size, unsigned int step)
{
	int stride = blockDim.x * gridDim.x;
	for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += stride)
		__atomic_fetch_sub(&left[buf[i]], step, __ATOMIC_RELAXED);
}

// bins[0] counts the bytes, bins[1] is the largest, and bins[2..9] have a
// bit set for each byte seen (bin 2 + b % 8, bit b / 8).
__global__ void histo_maxor(const unsigned char *__restrict__ buf,
			    unsigned int *bins, int size)
{
	int stride = blockDim.x * gridDim.x;
	for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += stride) {
		atomicAdd(&bins[0], 1u);
		atomicMax(&bins[1], (unsigned int)buf[i]);
		atomicOr(&bins[2 + buf[i] % 8], 1u << (buf[i] / 8));
	}
}

enum op { ADD, MIN, SUB, FETCHSUB, MAXOR, OP_COUNT };
enum mem { HIPMALLOC, HOSTMALLOC, MANAGED, MEM_COUNT };
static const char *const mem_names[] = {"hipmalloc", "hostmalloc", "managed"};
static const char *const op_names[] = {"add", "min", "sub", "fetchsub",
				       "maxor"};

static unsigned char host_buf[SIZE];

// Deterministic bytes: a small LCG, so the expected result is computable.
static void fill(void)
{
	unsigned int x = 12345;
	for (int i = 0; i < SIZE; i++) {
		x = x * 1103515245u + 12345u;
		host_buf[i] = (unsigned char)(x >> 16);
	}
}

static unsigned int start(int op)
{
	return op == ADD || op == MAXOR ? 0 : op == MIN ? 0xffffffffu : SIZE;
}

static void expected_maxor(unsigned int *want)
{
	for (int i = 0; i < SIZE; i++) {
		unsigned int b = host_buf[i];
		want[0]++;
		if (b > want[1])
			want[1] = b;
		want[2 + b % 8] |= 1u << (b / 8);
	}
}

static void expected(int op, unsigned int *want)
{
	for (int j = 0; j < BINS; j++)
		want[j] = start(op);
	if (op == MAXOR) {
		expected_maxor(want);
		return;
	}
	for (int i = 0; i < SIZE; i++) {
		if (op == ADD)
			want[host_buf[i]]++;
		else if (op != MIN)
			want[host_buf[i]]--;
		else if (want[host_buf[i]] == 0xffffffffu)
			want[host_buf[i]] = (unsigned int)i;
	}
}

static unsigned int *alloc_bins(int m, int dev, const unsigned int *init)
{
	size_t bytes = BINS * sizeof(unsigned int);
	void *p;
	if (m == HIPMALLOC) {
		CHECK(hipMalloc(&p, bytes));
		CHECK(hipMemcpy(p, init, bytes, hipMemcpyHostToDevice));
		return (unsigned int *)p;
	}
	if (m == HOSTMALLOC)
		CHECK(hipHostMalloc(&p, bytes, hipHostMallocDefault));
	else
		CHECK(hipMallocManaged(&p, bytes));
	memcpy(p, init, bytes);
	if (m == MANAGED)
		CHECK(hipMemPrefetchAsync(p, bytes, dev, 0));
	return (unsigned int *)p;
}

int main(int argc, char **argv)
{
	int op = demo_pick(argc == 3 ? argv[1] : nullptr, op_names, OP_COUNT);
	int m = demo_pick(argc == 3 ? argv[2] : nullptr, mem_names, MEM_COUNT);
	if (op < 0 || m < 0)
		demo_usage(argv[0], "{add|min|sub|fetchsub|maxor} {hipmalloc|hostmalloc|managed}");

	int dev;
	CHECK(hipGetDevice(&dev));
	fill();
	unsigned char *buf;
	CHECK(hipMalloc((void **)&buf, SIZE));
	CHECK(hipMemcpy(buf, host_buf, SIZE, hipMemcpyHostToDevice));

	unsigned int init[BINS], want[BINS], got[BINS];
	for (int j = 0; j < BINS; j++)
		init[j] = start(op);
	unsigned int *bins = alloc_bins(m, dev, init);
	if (op == ADD)
		hipLaunchKernelGGL(histo_add, dim3(64), dim3(256), 0, 0, buf, bins, SIZE);
	else if (op == SUB)
		hipLaunchKernelGGL(histo_sub, dim3(64), dim3(256), 0, 0, buf, bins, SIZE, 1u);
	else if (op == FETCHSUB)
		hipLaunchKernelGGL(histo_fetchsub, dim3(64), dim3(256), 0, 0, buf, bins, SIZE, 1u);
	else if (op == MAXOR)
		hipLaunchKernelGGL(histo_maxor, dim3(64), dim3(256), 0, 0, buf, bins, SIZE);
	else
		hipLaunchKernelGGL(histo_first, dim3(64), dim3(256), 0, 0, buf, bins, SIZE);
	CHECK_LAUNCH();
	CHECK(hipDeviceSynchronize());
	CHECK(hipMemcpy(got, bins, sizeof(got), hipMemcpyDefault));

	expected(op, want);
	int bad = 0;
	for (int j = 0; j < BINS; j++)
		bad += got[j] != want[j];
	printf("histogram %s %s: %d of %d bins differ %s\n", op_names[op],
	       mem_names[m], bad, BINS, demo_verdict(bad == 0));

	if (m == HOSTMALLOC)
		CHECK(hipHostFree(bins));
	else
		CHECK(hipFree(bins));
	CHECK(hipFree(buf));
	return 0;
}
