// SPDX-License-Identifier: MIT
//
// Shared helpers for the kernels/ demo programs: error checking with the
// "hipXxx failed: <hipGetErrorName>" contract, argv variant parsing and the
// allocators the programs choose between at run time.
//
// These programs are the fixtures hipgrain's tests run (against the real
// libamdhip64, against tests/fakehip, and under the preload), so every helper
// here calls the allocator the variant names directly: hipgrain must see the
// same call a user's program would make.
#ifndef HG_DEMO_H
#define HG_DEMO_H

#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// The name of the HIP call in a stringified expression, "hipMalloc(&p, n)"
// -> "hipMalloc", so messages name the call that failed and nothing else.
// The error's name, not hipGetErrorString: ROCm 5 returns the name from
// both, ROCm 6 a sentence from the latter, and the tests match the name.
static inline void demo_fail(const char *expr, hipError_t err)
{
	int len = (int)strcspn(expr, "( ");
	fprintf(stderr, "%.*s failed: %s\n", len, expr, hipGetErrorName(err));
	exit(1);
}

#define CHECK(call)                                                            \
	do {                                                                   \
		hipError_t check_err_ = (call);                                \
		if (check_err_ != hipSuccess)                                  \
			demo_fail(#call, check_err_);                          \
	} while (0)

// A <<<>>> launch returns nothing; its error is the runtime's last error.
// The message names hipLaunchKernel, the call the launch turns into.
#define CHECK_LAUNCH()                                                         \
	do {                                                                   \
		hipError_t check_err_ = hipGetLastError();                     \
		if (check_err_ != hipSuccess)                                  \
			demo_fail("hipLaunchKernel", check_err_);              \
	} while (0)

// The index of arg in names[], or -1.
static inline int demo_pick(const char *arg, const char *const *names, int count)
{
	for (int i = 0; arg && i < count; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	return -1;
}

// Usage on stderr and exit 2: a bad variant is the caller's mistake.
[[noreturn]] static inline void demo_usage(const char *argv0, const char *args)
{
	fprintf(stderr, "usage: %s %s\n", argv0, args);
	exit(2);
}

static inline const char *demo_verdict(bool ok)
{
	return ok ? "OK" : "MISMATCH";
}

// malloc(bytes), but a block that does not start on a page, for the variants
// whose finding is "malloc memory not page-aligned".  Most blocks do not; a
// small one lands on a page now and then, because the heap's layout moves
// with the runtime's own threads, and the finding must not depend on that
// luck.  Blocks that start on a page are held until one does not, then freed.
static inline void *demo_malloc_off_page(size_t bytes)
{
	void *held[8];
	int n = 0;
	void *p = malloc(bytes);
	while (p && !((uintptr_t)p & 4095) && n < 8) {
		held[n++] = p;
		p = malloc(bytes);
	}
	while (n)
		free(held[--n]);
	return p;
}

#endif // HG_DEMO_H
