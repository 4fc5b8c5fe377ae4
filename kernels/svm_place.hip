// SPDX-License-Identifier: MIT
//
// svm_place: where the driver puts memory a kernel reaches through shared
// virtual memory, told by what an integer atomic max does there.  Over
// PCIe (MI100, MI210) a max into host memory does nothing; in the GPU's own
// memory it lands.  So the result says where the pages were when the
// kernel ran:
//
//   svm_place OP MEM     64 work-groups of 256 items; item i does
//                        atomicAdd(&bins[i % 64], 1) (OP add) or
//                        atomicMax(&bins[i % 64], i) (OP max).
//
//   MEM          memory                                 HSA_XNACK=1, GPU fault
//   heap         malloc of one page (the brk heap)      stays in system memory
//   stack        an array on main's stack               stays in system memory
//   mmap         malloc of 8 MiB (glibc's own mmap)     migrates to the GPU
//   accessedby   mmap + hipMemAdvise(SetAccessedBy)     stays (in place)
//   coarse       mmap + hipMemAdvise(SetCoarseGrain)    migrates to the GPU
//   managed      hipMallocManaged                       migrates to the GPU
//   managed-back managed, prefetched to the GPU and     migrates to the GPU
//                back to the CPU                        again
//
// With XNACK off the GPU reaches only ranges whose access the runtime
// named: accessedby and managed run; heap, stack, mmap and coarse stop
// with a memory access fault, and the runtime aborts the program.
//
// Blocks are page-aligned, so no other rule speaks about them.  Exit 0
// with the result line ("MISMATCH" when the GPU's result is wrong).
#include "demo.h"

#define BINS 64
#define ITEMS (64 * 256)
#define BIG (8u << 20)

__global__ void place_add(unsigned int *bins)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(&bins[i % BINS], 1u);
}

__global__ void place_max(unsigned int *bins)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	atomicMax(&bins[i % BINS], i);
}

enum mem { HEAP, STACK, MMAP, ACCESSEDBY, COARSE, MANAGED, MANAGED_BACK, MEM_COUNT };
static const char *const mem_names[] = {"heap", "stack", "mmap", "accessedby",
					"coarse", "managed", "managed-back"};
static const char *const op_names[] = {"add", "max"};

static unsigned int *alloc_bins(int m, int dev, unsigned int *on_stack)
{
	void *p = nullptr;
	switch (m) {
	case HEAP: p = aligned_alloc(4096, 4096); break;
	case STACK: p = on_stack; break;
	case MANAGED:
	case MANAGED_BACK: CHECK(hipMallocManaged(&p, 4096)); break;
	default: p = aligned_alloc(4096, BIG); break;
	}
	if (!p) {
		fprintf(stderr, "malloc failed\n");
		exit(1);
	}
	if (m == ACCESSEDBY)
		CHECK(hipMemAdvise(p, BIG, hipMemAdviseSetAccessedBy, dev));
	if (m == COARSE)
		CHECK(hipMemAdvise(p, BIG, hipMemAdviseSetCoarseGrain, dev));
	if (m == MANAGED_BACK) {
		CHECK(hipMemPrefetchAsync(p, 4096, dev, 0));
		CHECK(hipMemPrefetchAsync(p, 4096, hipCpuDeviceId, 0));
		CHECK(hipDeviceSynchronize());
	}
	return (unsigned int *)p;
}

int main(int argc, char **argv)
{
	int op = demo_pick(argc == 3 ? argv[1] : nullptr, op_names, 2);
	int m = demo_pick(argc == 3 ? argv[2] : nullptr, mem_names, MEM_COUNT);
	if (op < 0 || m < 0)
		demo_usage(argv[0], "{add|max} {heap|stack|mmap|accessedby|coarse|managed|"
				    "managed-back}");

	int dev;
	CHECK(hipGetDevice(&dev));
	alignas(4096) unsigned int on_stack[1024];
	unsigned int *bins = alloc_bins(m, dev, on_stack);
	for (int j = 0; j < BINS; j++)
		bins[j] = 0;
	if (op == 0)
		hipLaunchKernelGGL(place_add, dim3(ITEMS / 256), dim3(256), 0, 0, bins);
	else
		hipLaunchKernelGGL(place_max, dim3(ITEMS / 256), dim3(256), 0, 0, bins);
	CHECK_LAUNCH();
	CHECK(hipDeviceSynchronize());

	int bad = 0;
	for (unsigned int j = 0; j < BINS; j++)
		bad += bins[j] != (op == 0 ? ITEMS / BINS : ITEMS - BINS + j);
	printf("svm_place %s %s: %d of %d bins differ %s\n", op_names[op],
	       mem_names[m], bad, BINS, demo_verdict(bad == 0));
	if (m == MANAGED || m == MANAGED_BACK)
		CHECK(hipFree(bins));
	else if (m != STACK)
		free(bins);
	return 0;
}
