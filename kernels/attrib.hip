// SPDX-License-Identifier: MIT
//
// attrib: a finding must point at the right argument, page and line.
// One kernel takes two pointers: hardware FP atomics (unsafeAtomicAdd,
// flat/global_atomic_add_f64 on gfx90a) reach `acc`, only plain stores
// reach `out`.  Seed 000: FP atomics on fine-grained memory are NOPs on
// MI100/MI200; plain stores to fine-grained memory are fine.  Every buffer
// is allocated the way most HIP code does it, through the typed templates
// of hip_runtime_api.h (hipMalloc(&p, n) with p a double*), so the report
// must name this file's line, not the header's.
//
//   VARIANT        acc                       out             hipgrain on gfx90a
//   atomic-coarse  hipMalloc (coarse)        hipHostMalloc   none (the fine
//                                            (fine)          buffer gets stores)
//   atomic-fine    hipHostMalloc (fine)      hipMalloc       fp-atomic-fine-grain,
//                                                            argument 0, line of
//                                                            the unsafeAtomicAdd
//   split-coarse   a managed range, page 0   hipMalloc       none (acc is in the
//                  advised coarse, page 1                    coarse page)
//                  fine; acc in page 0
//   split-fine     the same range; acc in    hipMalloc       fp-atomic-fine-grain,
//                  page 1 (fine)                             "mixed" with offsets
//
// Exit 0 with "attrib VARIANT: sum=... expected=... OK|MISMATCH".
#include "demo.h"

#define N 1024
#define PAGE 4096

__global__ void scatter(double *acc, double *out, const double *in, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n) {
		unsafeAtomicAdd(acc, in[i]); // ATTRIB_ATOMIC_LINE
		out[i] = 2 * in[i];
	}
}

enum variant { ATOMIC_COARSE, ATOMIC_FINE, SPLIT_COARSE, SPLIT_FINE, COUNT };

static const char *const names[COUNT] = {
	"atomic-coarse", "atomic-fine", "split-coarse", "split-fine",
};

int main(int argc, char **argv)
{
	int v = demo_pick(argc == 2 ? argv[1] : nullptr, names, COUNT);
	if (v < 0)
		demo_usage(argv[0], "{atomic-coarse|atomic-fine|split-coarse|split-fine}");

	int dev;
	CHECK(hipGetDevice(&dev));
	static double host_in[N];
	for (int i = 0; i < N; i++)
		host_in[i] = 1;
	double *in, *acc = nullptr, *out = nullptr, *range = nullptr;
	CHECK(hipMalloc(&in, sizeof(host_in)));
	CHECK(hipMemcpy(in, host_in, sizeof(host_in), hipMemcpyHostToDevice));
	if (v == ATOMIC_COARSE) {
		CHECK(hipMalloc(&acc, sizeof(double)));
		CHECK(hipMemset(acc, 0, sizeof(double)));
		CHECK(hipHostMalloc(&out, sizeof(host_in))); // ATTRIB_OUT_LINE
	} else if (v == ATOMIC_FINE) {
		CHECK(hipHostMalloc(&acc, sizeof(double))); // ATTRIB_ACC_LINE
		*acc = 0;
		CHECK(hipMalloc(&out, sizeof(host_in)));
	} else {
		// Page 0 advised coarse, page 1 left fine: one range, split.
		CHECK(hipMallocManaged(&range, 2 * PAGE)); // ATTRIB_RANGE_LINE
		CHECK(hipMemAdvise(range, PAGE, hipMemAdviseSetCoarseGrain, dev));
		acc = range + (v == SPLIT_COARSE ? 16 : PAGE / sizeof(double) + 16);
		*acc = 0;
		CHECK(hipMemPrefetchAsync(range, 2 * PAGE, dev, 0));
		CHECK(hipMalloc(&out, sizeof(host_in)));
	}
	hipLaunchKernelGGL(scatter, dim3(N / 256), dim3(256), 0, 0, acc, out, in, N);
	CHECK_LAUNCH();
	CHECK(hipDeviceSynchronize());

	double sum = *acc;
	if (v == ATOMIC_COARSE)
		CHECK(hipMemcpy(&sum, acc, sizeof(sum), hipMemcpyDeviceToHost));
	printf("attrib %s: sum=%.1f expected=%.1f %s\n", names[v], sum, (double)N,
	       demo_verdict(sum == (double)N));
	if (v == ATOMIC_COARSE) {
		CHECK(hipFree(acc));
		CHECK(hipHostFree(out));
	} else if (v == ATOMIC_FINE) {
		CHECK(hipHostFree(acc));
		CHECK(hipFree(out));
	} else {
		CHECK(hipFree(range));
		CHECK(hipFree(out));
	}
	CHECK(hipFree(in));
	return 0;
}
