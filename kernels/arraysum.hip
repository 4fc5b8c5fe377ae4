// SPDX-License-Identifier: MIT
//
// arraysum: seed 000, "Floating Point Atomics on fine/coarse grained memory".
// One accumulator, every thread adds its element to it with an FP atomic:
// "HW-accelerated FP atomics applied to fine grain memory regions will
// silently fail" on MI100/MI200, while the default CAS loop is correct on any
// memory ("Correct results, slow").  The atomic is decided at compile time,
// so this one source builds three programs (kernels/meson.build):
//
//   arraysum_cas       float atomicAdd, default flags.  Code (llvm-objdump-15):
//                        gfx908, gfx90a: global_atomic_cmpswap (CAS loop)
//                        gfx940: global_atomic_add_f32 (gfx94x lowers the
//                        float atomicAdd to the hardware add even by default)
//   arraysum_unsafe    double unsafeAtomicAdd ("HIP exposes the
//                      unsafeAtomicAdd() function to always emit HW FP Atomics")
//                        gfx908: global_atomic_cmpswap_x2 (no f64 atomic add)
//                        gfx90a: flat_atomic_add_f64 (hipcc 5.2), or
//                                global_atomic_add_f64 (hipcc 7)
//                        gfx940: global_atomic_add_f64
//   arraysum_fastflag  float atomicAdd built with -munsafe-fp-atomics ("From
//                      ROCm-5.2.0 the use of the -munsafe-fp-atomics flag will
//                      enforce HW FP atomics")
//                        gfx908, gfx90a, gfx940: global_atomic_add_f32
//
// Usage: arraysum_X MEM, where MEM is where the accumulator lives (the input
// array is always hipMalloc memory, so only the accumulator decides):
//
//   MEM                     granularity        hipgrain on gfx90a (gfx908)
//   hipmalloc               coarse             none
//   hostmalloc              fine (coherent)    unsafe, fastflag: fp-atomic-fine-grain
//   hostmalloc-noncoherent  coarse             none
//   managed                 fine               unsafe, fastflag: fp-atomic-fine-grain
//   managed-coarse          coarse (advised)   none
//   managed-coarse-half     2-page buffer, page 0 advised coarse, the
//                           accumulator in page 1 (still fine):
//                                              unsafe, fastflag: fp-atomic-fine-grain
//   malloc                  system memory      HSA_XNACK unset/0: pageable-kernel-arg-no-xnack
//                                              HSA_XNACK=1: unsafe, fastflag:
//                                              fp-atomic-fine-grain (and no
//                                              migratable-misaligned: a block
//                                              below a page moves whole)
//
// arraysum_cas fires no fp-atomic rule on gfx908/gfx90a (CAS only); on gfx908
// arraysum_unsafe holds no hardware FP atomic either.  Managed accumulators
// are prefetched to the device before the launch, so managed-no-prefetch
// does not fire here.  Exit 0 with "sum=... expected=... OK|MISMATCH".
#include "demo.h"

#include <unistd.h>

#ifdef ARRAYSUM_DOUBLE
typedef double real_t;
#else
typedef float real_t;
#endif

#define N (1 << 16)
#define PAGE 4096

__global__ void arraysum(const real_t *__restrict__ b, real_t *ret, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n) {
#ifdef ARRAYSUM_UNSAFE
		unsafeAtomicAdd(ret, b[i]);
#else
		atomicAdd(ret, b[i]);
#endif
	}
}

enum mem { HIPMALLOC, HOSTMALLOC, HOSTMALLOC_NC, MANAGED, MANAGED_COARSE,
	   MANAGED_COARSE_HALF, MALLOC, MEM_COUNT };

static const char *const mem_names[MEM_COUNT] = {
	"hipmalloc", "hostmalloc", "hostmalloc-noncoherent", "managed",
	"managed-coarse", "managed-coarse-half", "malloc",
};

// The accumulator for mem; *base is what must be freed.
static real_t *alloc_acc(enum mem m, int dev, void **base)
{
	switch (m) {
	case HIPMALLOC:
		CHECK(hipMalloc(base, sizeof(real_t)));
		CHECK(hipMemset(*base, 0, sizeof(real_t)));
		return (real_t *)*base;
	case HOSTMALLOC:
		CHECK(hipHostMalloc(base, sizeof(real_t), hipHostMallocDefault));
		break;
	case HOSTMALLOC_NC:
		CHECK(hipHostMalloc(base, sizeof(real_t), hipHostMallocNonCoherent));
		break;
	case MANAGED:
	case MANAGED_COARSE:
		CHECK(hipMallocManaged(base, sizeof(real_t)));
		if (m == MANAGED_COARSE)
			CHECK(hipMemAdvise(*base, sizeof(real_t),
					   hipMemAdviseSetCoarseGrain, dev));
		break;
	case MANAGED_COARSE_HALF: {
		// Page 0 coarse, page 1 left fine: the kernel gets an interior
		// pointer into the fine page, the registry must split the range.
		CHECK(hipMallocManaged(base, 2 * PAGE));
		CHECK(hipMemAdvise(*base, PAGE, hipMemAdviseSetCoarseGrain, dev));
		real_t *acc = (real_t *)((char *)*base + PAGE + 64);
		*acc = 0;
		CHECK(hipMemPrefetchAsync(*base, 2 * PAGE, dev, 0));
		return acc;
	}
	case MALLOC:
		*base = demo_malloc_off_page(sizeof(real_t));
		if (!*base) {
			fprintf(stderr, "malloc failed\n");
			exit(1);
		}
		break;
	default:
		abort();
	}
	*(real_t *)*base = 0;
	if (m == MANAGED || m == MANAGED_COARSE)
		CHECK(hipMemPrefetchAsync(*base, sizeof(real_t), dev, 0));
	return (real_t *)*base;
}

static void free_acc(enum mem m, void *base)
{
	if (m == MALLOC)
		free(base);
	else if (m == HOSTMALLOC || m == HOSTMALLOC_NC)
		CHECK(hipHostFree(base));
	else
		CHECK(hipFree(base));
}

static real_t read_acc(enum mem m, const real_t *acc)
{
	real_t v = *acc;
	if (m == HIPMALLOC)
		CHECK(hipMemcpy(&v, acc, sizeof(v), hipMemcpyDeviceToHost));
	return v;
}

int main(int argc, char **argv)
{
	int m = demo_pick(argc == 2 ? argv[1] : nullptr, mem_names, MEM_COUNT);
	if (m < 0)
		demo_usage(argv[0], "{hipmalloc|hostmalloc|hostmalloc-noncoherent|"
				    "managed|managed-coarse|managed-coarse-half|malloc}");

	int dev;
	CHECK(hipGetDevice(&dev));
	static real_t host_b[N];
	for (int i = 0; i < N; i++)
		host_b[i] = 1;
	real_t *b;
	CHECK(hipMalloc((void **)&b, sizeof(host_b)));
	CHECK(hipMemcpy(b, host_b, sizeof(host_b), hipMemcpyHostToDevice));

	void *base;
	real_t *acc = alloc_acc((enum mem)m, dev, &base);
	hipLaunchKernelGGL(arraysum, dim3(N / 256), dim3(256), 0, 0, b, acc, N);
	CHECK_LAUNCH();
	CHECK(hipDeviceSynchronize());

	real_t sum = read_acc((enum mem)m, acc);
	printf("arraysum %s: sum=%.1f expected=%.1f %s\n", mem_names[m],
	       (double)sum, (double)N, demo_verdict(sum == (real_t)N));
	free_acc((enum mem)m, base);
	CHECK(hipFree(b));
	return 0;
}
