/* SPDX-License-Identifier: MIT */
/*
 * A program that fetches hipMalloc and hipFree through hipGetProcAddress
 * (ROCm 6.1+), as some libraries do, then allocates with them.  Prints
 * whether what it got is the function the dynamic linker binds hipMalloc
 * to (hipgrain's wrapper under the preload), and the call's result.
 * Built against ROCm 5.2's headers, which lack hipGetProcAddress, and not
 * linked to a runtime: it loads the one argv[1] names (libamdhip64.so.6 or
 * .so.5) and looks its entry points up as the process sees them.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*proc_fn)(const char *, void **, int, uint64_t, int *);
typedef int (*malloc_fn)(void **, size_t);
typedef int (*free_fn)(void *);

int main(int argc, char **argv)
{
	proc_fn get;
	void *m = NULL, *f = NULL, *p = NULL;
	int st = -1, rc;

	if (argc != 2 || !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) {
		fprintf(stderr, "usage: hg-procaddr libamdhip64.so.N (%s)\n",
			dlerror());
		return 64;
	}
	get = (proc_fn)dlsym(RTLD_DEFAULT, "hipGetProcAddress");

	if (!get) {
		printf("no hipGetProcAddress\n");
		return 3;
	}
	rc = get("hipMalloc", &m, 600, 0, &st);
	printf("hipGetProcAddress(hipMalloc): rc %d status %d\n", rc, st);
	if (rc || !m || get("hipFree", &f, 600, 0, NULL) || !f)
		return 2;
	printf("hipMalloc: %s\n", m == dlsym(RTLD_DEFAULT, "hipMalloc")
					  ? "the bound one" : "another one");
	rc = ((malloc_fn)m)(&p, 4096); /* PROCADDR_MALLOC_LINE */
	printf("hipMalloc: rc %d\n", rc);
	rc = ((free_fn)f)(p);
	printf("hipFree: rc %d\n", rc);
	rc = get("hipNoSuchFunction", &m, 600, 0, &st);
	printf("hipGetProcAddress(hipNoSuchFunction): rc %d status %d\n", rc, st);
	return 0;
}
