// SPDX-License-Identifier: MIT
//
// prefetch_advise: seed 000, the "Table for HSA_XNACK=0" / "Table for
// HSA_XNACK=1" rows "Support for hipMemPrefetchAsync" and "Support
// hipMemAdvise", per allocator:
//
//                      prefetch (XNACK 0 / 1)   advise
//   malloc()           No / Yes                 Yes
//   hipMallocManaged() Yes / Yes                Yes
//   hipMalloc()        No / No                  No
//   hipHostMalloc()    No / No                  No
//
// Each variant allocates 4 pages with the named allocator and calls
// hipMemAdvise(SetReadMostly), hipMemAdvise(SetPreferredLocation),
// hipMemAdvise(SetCoarseGrain) and hipMemPrefetchAsync to the device.  The
// return codes of these four hint calls are the experiment's output: they are
// printed, one line each, and do not end the program (a real program that
// ignores a failed hint keeps running, which is what hipgrain must catch).
// Every other HIP call is CHECKed.  No kernel is launched.
//
//   variant     hipgrain, HSA_XNACK unset/0        HSA_XNACK=1
//   malloc      prefetch-unsupported               none
//   hipmalloc   prefetch-unsupported, advise-unsupported (both settings)
//   hostmalloc  prefetch-unsupported, advise-unsupported (both settings)
//   managed     none                               none
//
// What the runtime answers differs from "supported": ROCm 5.2 rejects a
// prefetch only when the pointer is unknown to HIP (malloc memory:
// hipErrorInvalidValue) and accepts it, without effect, on hipMalloc and
// hipHostMalloc memory; tests/fakehip answers the same way.
#include "demo.h"

#define PAGE 4096
#define BYTES (4 * PAGE)

enum mem { MALLOC, HIPMALLOC, HOSTMALLOC, MANAGED, MEM_COUNT };
static const char *const mem_names[] = {"malloc", "hipmalloc", "hostmalloc",
					"managed"};

static void *alloc(int m)
{
	void *p = nullptr;
	switch (m) {
	case MALLOC: p = malloc(BYTES); break;
	case HIPMALLOC: CHECK(hipMalloc(&p, BYTES)); break;
	case HOSTMALLOC: CHECK(hipHostMalloc(&p, BYTES, hipHostMallocDefault)); break;
	case MANAGED: CHECK(hipMallocManaged(&p, BYTES)); break;
	}
	if (!p) {
		fprintf(stderr, "malloc failed\n");
		exit(1);
	}
	return p;
}

static void release(int m, void *p)
{
	if (m == MALLOC)
		free(p);
	else if (m == HOSTMALLOC)
		CHECK(hipHostFree(p));
	else
		CHECK(hipFree(p));
}

// One hint call's outcome; returns 1 when it failed.
static int hint(const char *what, hipError_t err)
{
	printf("  %-42s %s\n", what, hipGetErrorName(err));
	return err != hipSuccess;
}

int main(int argc, char **argv)
{
	int m = demo_pick(argc == 2 ? argv[1] : nullptr, mem_names, MEM_COUNT);
	if (m < 0)
		demo_usage(argv[0], "{malloc|hipmalloc|hostmalloc|managed}");

	int dev;
	CHECK(hipGetDevice(&dev));
	void *p = alloc(m);
	if (m == HIPMALLOC)
		CHECK(hipMemset(p, 0, BYTES));
	else
		memset(p, 0, BYTES);

	printf("prefetch_advise %s:\n", mem_names[m]);
	int failed = 0;
	failed += hint("hipMemAdvise(SetReadMostly)",
		       hipMemAdvise(p, BYTES, hipMemAdviseSetReadMostly, dev));
	failed += hint("hipMemAdvise(SetPreferredLocation, device)",
		       hipMemAdvise(p, BYTES, hipMemAdviseSetPreferredLocation, dev));
	failed += hint("hipMemAdvise(SetCoarseGrain)",
		       hipMemAdvise(p, BYTES, hipMemAdviseSetCoarseGrain, dev));
	failed += hint("hipMemPrefetchAsync(device)",
		       hipMemPrefetchAsync(p, BYTES, dev, 0));
	CHECK(hipDeviceSynchronize());
	printf("prefetch_advise %s: %d of 4 hint calls failed\n", mem_names[m], failed);
	release(m, p);
	return 0;
}
