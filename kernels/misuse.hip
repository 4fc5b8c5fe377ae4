// SPDX-License-Identifier: MIT
//
// misuse: one program, one variant per remaining rule and a near miss for
// each (the near miss must stay silent).  Seed references: host-malloc flags
// from seed 001 ("hipHostMallocCoherent=1, hipHostMallocNonCoherent=1:
// Illegal"); alignment and managed memory from seed 000 ("Not having the
// right alignment may prevent page migration", "hipMallocManaged() is the
// most reliable allocator to obtain page migration", "Explicitly move pages
// ... via HIP API (e.g., hipMemPrefetchAsync())").
//
//   variant              hipgrain reports
//   illegal-flags        host-malloc-illegal-flags (hipHostMalloc with
//                        Coherent|NonCoherent; the runtime answers
//                        hipErrorInvalidValue, the program says so, exits 0)
//   coherent-flag        none (hipHostMalloc with Coherent only)
//   free-hipmalloc       dealloc-mismatch (free() on hipMalloc memory).
//                        glibc is expected to abort here ("free(): invalid
//                        pointer", SIGABRT) unless something stops the call;
//                        the result line is printed before the free().
//   hipfree-hostmalloc   dealloc-mismatch (hipFree on hipHostMalloc memory;
//                        ROCm 5.2 accepts and frees it)
//   hipfree-malloc       dealloc-mismatch (hipFree on malloc memory; the
//                        runtime answers hipErrorInvalidValue, the program
//                        then free()s it properly)
//   delete-mismatch      dealloc-mismatch (new float[] released with delete)
//   matched-frees        none (every allocator with its own deallocator)
//   use-after-free       use-after-free (a kernel launched on a hipFree'd
//                        pointer)
//   use-before-free      none (the same launch before the hipFree)
//   leak                 gpu-leak (hipMalloc never freed)
//   no-leak              none
//   misaligned           HSA_XNACK=1: migratable-misaligned (a 1 MiB malloc
//                        block: glibc mmaps it, the pointer is page + 16)
//                        HSA_XNACK unset/0: pageable-kernel-arg-no-xnack instead
//   aligned              HSA_XNACK=1: none (aligned_alloc(4096, 1 MiB))
//                        HSA_XNACK unset/0: pageable-kernel-arg-no-xnack
//   managed-no-prefetch  managed-no-prefetch (hipMallocManaged, written by
//                        the CPU, first touched by a kernel)
//   managed-prefetch     none (hipMemPrefetchAsync to the device first)
#include "demo.h"

#include <cstdint>

#define N (1 << 18) // floats: 1 MiB
#define BYTES (N * sizeof(float))

__global__ void scale(float *a, float s, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n)
		a[i] *= s;
}

static void launch_scale(float *a)
{
	hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, 0, a, 2.0f, N);
	CHECK_LAUNCH();
	CHECK(hipDeviceSynchronize());
}

static void say(const char *variant, const char *what)
{
	printf("misuse %s: %s\n", variant, what);
	fflush(stdout);
}

static void host_malloc_flags(const char *v, unsigned int flags)
{
	void *p;
	hipError_t err = hipHostMalloc(&p, BYTES, flags);
	if (err == hipErrorInvalidValue && (flags & hipHostMallocNonCoherent)) {
		say(v, "hipHostMalloc(Coherent|NonCoherent) rejected: hipErrorInvalidValue");
		return;
	}
	if (err != hipSuccess)
		demo_fail("hipHostMalloc", err);
	memset(p, 0, BYTES);
	CHECK(hipHostFree(p));
	say(v, (flags & hipHostMallocNonCoherent)
		       ? "hipHostMalloc(Coherent|NonCoherent) accepted"
		       : "hipHostMalloc(Coherent) allocated and freed");
}

static void free_hipmalloc(const char *v)
{
	void *p;
	CHECK(hipMalloc(&p, BYTES));
	CHECK(hipMemset(p, 0, BYTES));
	say(v, "calling free() on hipMalloc memory");
	free(p);
	say(v, "free() returned");
}

static void hipfree_hostmalloc(const char *v)
{
	void *p;
	CHECK(hipHostMalloc(&p, BYTES, hipHostMallocDefault));
	memset(p, 0, BYTES);
	CHECK(hipFree(p));
	say(v, "hipFree on hipHostMalloc memory returned hipSuccess");
}

static void hipfree_malloc(const char *v)
{
	int dev;
	CHECK(hipGetDevice(&dev));
	void *p = malloc(BYTES);
	if (!p) {
		fprintf(stderr, "malloc failed\n");
		exit(1);
	}
	hipError_t err = hipFree(p);
	printf("misuse %s: hipFree on malloc memory returned %s\n", v,
	       hipGetErrorName(err));
	if (err != hipSuccess)
		free(p);
}

static void delete_mismatch(const char *v)
{
	float *d;
	CHECK(hipMalloc((void **)&d, BYTES));
	float *h = new float[N]();
	CHECK(hipMemcpy(d, h, BYTES, hipMemcpyHostToDevice));
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmismatched-new-delete"
	delete h; // the bug: new[] needs delete[]
#pragma clang diagnostic pop
	CHECK(hipFree(d));
	say(v, "new float[] released with delete");
}

static void matched_frees(const char *v)
{
	void *dev, *host, *managed;
	CHECK(hipMalloc(&dev, BYTES));
	CHECK(hipHostMalloc(&host, BYTES, hipHostMallocDefault));
	CHECK(hipMallocManaged(&managed, BYTES));
	float *sys = (float *)malloc(BYTES);
	float *arr = new float[N]();
	float *one = new float(1.0f);
	if (!sys) {
		fprintf(stderr, "malloc failed\n");
		exit(1);
	}
	memset(sys, 0, BYTES);
	CHECK(hipMemcpy(dev, arr, BYTES, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(host, dev, BYTES, hipMemcpyDeviceToHost));
	CHECK(hipMemcpy(managed, one, sizeof(*one), hipMemcpyHostToDevice));
	CHECK(hipMemcpy(sys, host, BYTES, hipMemcpyHostToHost));
	delete one;
	delete[] arr;
	free(sys);
	CHECK(hipFree(managed));
	CHECK(hipHostFree(host));
	CHECK(hipFree(dev));
	say(v, "6 allocations, each released by its own deallocator");
}

static void use_free(const char *v, bool after)
{
	float *a;
	CHECK(hipMalloc((void **)&a, BYTES));
	CHECK(hipMemset(a, 0, BYTES));
	launch_scale(a);
	CHECK(hipFree(a));
	if (after)
		launch_scale(a); // the bug: a was freed above
	say(v, after ? "launched scale again on the freed pointer"
		     : "launched scale, then freed");
}

static void leak(const char *v, bool keep)
{
	void *p;
	CHECK(hipMalloc(&p, BYTES));
	CHECK(hipMemset(p, 0, BYTES));
	if (!keep)
		CHECK(hipFree(p));
	say(v, keep ? "1 MiB of hipMalloc memory never freed" : "hipMalloc freed");
}

static void system_memory(const char *v, bool aligned)
{
	float *a = (float *)(aligned ? aligned_alloc(4096, BYTES)
				     : demo_malloc_off_page(BYTES));
	if (!a) {
		fprintf(stderr, "%s failed\n", aligned ? "aligned_alloc" : "malloc");
		exit(1);
	}
	for (int i = 0; i < N; i++)
		a[i] = 1.0f;
	launch_scale(a);
	printf("misuse %s: buffer at page offset %u, a[0]=%.1f expected=2.0 %s\n", v,
	       (unsigned)((uintptr_t)a & 4095), (double)a[0],
	       demo_verdict(a[0] == 2.0f));
	free(a);
}

static void managed(const char *v, bool prefetch)
{
	int dev;
	float *a;
	CHECK(hipGetDevice(&dev));
	CHECK(hipMallocManaged((void **)&a, BYTES));
	for (int i = 0; i < N; i++)
		a[i] = 1.0f;
	if (prefetch)
		CHECK(hipMemPrefetchAsync(a, BYTES, dev, 0));
	launch_scale(a);
	printf("misuse %s: a[0]=%.1f expected=2.0 %s\n", v, (double)a[0],
	       demo_verdict(a[0] == 2.0f));
	CHECK(hipFree(a));
}

static const char *const names[] = {
	"illegal-flags", "coherent-flag", "free-hipmalloc", "hipfree-hostmalloc",
	"hipfree-malloc", "delete-mismatch", "matched-frees", "use-after-free",
	"use-before-free", "leak", "no-leak", "misaligned", "aligned",
	"managed-no-prefetch", "managed-prefetch",
};
#define NAMES ((int)(sizeof(names) / sizeof(names[0])))

int main(int argc, char **argv)
{
	const char *v = argc == 2 ? argv[1] : nullptr;
	switch (demo_pick(v, names, NAMES)) {
	case 0: host_malloc_flags(v, hipHostMallocCoherent | hipHostMallocNonCoherent); break;
	case 1: host_malloc_flags(v, hipHostMallocCoherent); break;
	case 2: free_hipmalloc(v); break;
	case 3: hipfree_hostmalloc(v); break;
	case 4: hipfree_malloc(v); break;
	case 5: delete_mismatch(v); break;
	case 6: matched_frees(v); break;
	case 7: use_free(v, true); break;
	case 8: use_free(v, false); break;
	case 9: leak(v, true); break;
	case 10: leak(v, false); break;
	case 11: system_memory(v, false); break;
	case 12: system_memory(v, true); break;
	case 13: managed(v, false); break;
	case 14: managed(v, true); break;
	default:
		demo_usage(argv[0], "{illegal-flags|coherent-flag|free-hipmalloc|"
				    "hipfree-hostmalloc|hipfree-malloc|delete-mismatch|"
				    "matched-frees|use-after-free|use-before-free|leak|"
				    "no-leak|misaligned|aligned|managed-no-prefetch|"
				    "managed-prefetch}");
	}
	return 0;
}
