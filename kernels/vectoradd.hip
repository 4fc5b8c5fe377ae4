// SPDX-License-Identifier: MIT
//
// vectoradd: seed 000, "Managed Memory Example" (HIP-Examples/vectorAdd and
// the three experiments the slides run on it).
//
//   vectoradd malloc     Experiment 1: "comment out the hipMalloc/hipFrees"
//                        and hand malloc() memory to the kernel.  "Test should
//                        fail with an Memory access fault"; with HSA_XNACK=1
//                        it passes.
//                        hipgrain, HSA_XNACK unset/0: pageable-kernel-arg-no-xnack
//                          (3 arguments: a, b, c).
//                        hipgrain, HSA_XNACK=1: migratable-misaligned (each
//                          4 MiB malloc block is an mmap'd glibc chunk that
//                          starts 16 bytes past a page boundary).
//   vectoradd hipmalloc  Experiment 2 "should pass": device memory from
//                        hipMalloc, filled and read back with hipMemcpy as in
//                        the original example.  hipgrain: no finding.
//   vectoradd managed    Experiment 3 "Change hipMalloc to hipMallocManaged":
//                        passes, initialised on the CPU and first touched by
//                        the kernel without a prefetch.
//                        hipgrain: managed-no-prefetch (a, b, c), nothing else.
//
// The kernel takes 3 pointers and 2 ints, like vectoradd_float in the seed.
// Under tests/fakehip kernels do not run: the result line says MISMATCH and
// the exit status is still 0.
#include "demo.h"

#include <vector>

#define WIDTH 1024
#define HEIGHT 1024
#define NUM (WIDTH * HEIGHT)
#define BLOCK_X 16
#define BLOCK_Y 16

__global__ void vectoradd_float(float *__restrict__ a,
				const float *__restrict__ b,
				const float *__restrict__ c, int width, int height)
{
	int x = blockDim.x * blockIdx.x + threadIdx.x;
	int y = blockDim.y * blockIdx.y + threadIdx.y;
	int i = y * width + x;
	if (x < width && y < height)
		a[i] = b[i] + c[i];
}

static void fill(float *b, float *c)
{
	for (int i = 0; i < NUM; i++) {
		b[i] = (float)i;
		c[i] = (float)i * 100.0f;
	}
}

static int count_errors(const float *a, const float *b, const float *c)
{
	int errors = 0;
	for (int i = 0; i < NUM; i++)
		if (a[i] != b[i] + c[i])
			errors++;
	return errors;
}

static void launch(float *a, const float *b, const float *c)
{
	hipLaunchKernelGGL(vectoradd_float, dim3(WIDTH / BLOCK_X, HEIGHT / BLOCK_Y),
			   dim3(BLOCK_X, BLOCK_Y), 0, 0, a, b, c, WIDTH, HEIGHT);
	CHECK_LAUNCH();
	CHECK(hipDeviceSynchronize());
}

static void report(int errors)
{
	printf("vectoradd: %d errors in %d elements %s\n", errors, NUM,
	       demo_verdict(errors == 0));
}

static void run_malloc(void)
{
	float *a = (float *)malloc(NUM * sizeof(float));
	float *b = (float *)malloc(NUM * sizeof(float));
	float *c = (float *)malloc(NUM * sizeof(float));
	if (!a || !b || !c) {
		fprintf(stderr, "malloc failed\n");
		exit(1);
	}
	fill(b, c);
	launch(a, b, c);
	report(count_errors(a, b, c));
	free(a);
	free(b);
	free(c);
}

static void run_hipmalloc(void)
{
	std::vector<float> ha(NUM), hb(NUM), hc(NUM);
	float *a, *b, *c;
	size_t bytes = NUM * sizeof(float);

	fill(hb.data(), hc.data());
	CHECK(hipMalloc((void **)&a, bytes));
	CHECK(hipMalloc((void **)&b, bytes));
	CHECK(hipMalloc((void **)&c, bytes));
	CHECK(hipMemcpy(b, hb.data(), bytes, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(c, hc.data(), bytes, hipMemcpyHostToDevice));
	launch(a, b, c);
	CHECK(hipMemcpy(ha.data(), a, bytes, hipMemcpyDeviceToHost));
	report(count_errors(ha.data(), hb.data(), hc.data()));
	CHECK(hipFree(a));
	CHECK(hipFree(b));
	CHECK(hipFree(c));
}

static void run_managed(void)
{
	float *a, *b, *c;
	size_t bytes = NUM * sizeof(float);

	CHECK(hipMallocManaged((void **)&a, bytes));
	CHECK(hipMallocManaged((void **)&b, bytes));
	CHECK(hipMallocManaged((void **)&c, bytes));
	fill(b, c);
	launch(a, b, c);
	report(count_errors(a, b, c));
	CHECK(hipFree(a));
	CHECK(hipFree(b));
	CHECK(hipFree(c));
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"malloc", "hipmalloc", "managed"};
	switch (demo_pick(argc == 2 ? argv[1] : nullptr, names, 3)) {
	case 0: run_malloc(); break;
	case 1: run_hipmalloc(); break;
	case 2: run_managed(); break;
	default: demo_usage(argv[0], "{malloc|hipmalloc|managed}");
	}
	return 0;
}
