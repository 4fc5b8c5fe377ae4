/* SPDX-License-Identifier: MIT */
/*
 * hipGetProcAddress (ROCm 6.1+): a program can fetch any entry point from
 * the runtime, around the preload.  The runtime answers first; whatever
 * function it hands back (the one asked for, or the version or per-thread
 * variant the arguments select), the caller gets hipgrain's wrapper of that
 * same function when there is one.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "pl_boot.h"
#include "pl_export.h"

#define PL_HIP_NOT_SUPPORTED 801 /* hipErrorNotSupported */

typedef int (*proc_fn)(const char *, void **, int, uint64_t, void *);

PL_EXPORT int hipGetProcAddress(const char *symbol, void **pfn, int version,
				uint64_t flags, void *status);

static void anchor(void)
{
}

/* This library, to look a name up in it; *base: where it is loaded. */
static void *self(void **base)
{
	static void *h, *at;
	Dl_info me;

	if (!h && dladdr((void *)anchor, &me) && me.dli_fname) {
		at = me.dli_fbase;
		h = dlopen(me.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	}
	*base = at;
	return h;
}

/* The wrapper of the function fn points to, or fn. */
static void *ours(void *fn)
{
	Dl_info di;
	void *mine, *base, *h = self(&base);

	if (!fn || !h || !dladdr(fn, &di) || !di.dli_sname ||
	    di.dli_saddr != fn)
		return fn;
	mine = dlsym(h, di.dli_sname);
	/* dlsym(h) also searches what this library needs: only ours counts. */
	if (!mine || !dladdr(mine, &di) || di.dli_fbase != base)
		return fn;
	return mine;
}

PL_EXPORT int hipGetProcAddress(const char *symbol, void **pfn, int version,
				uint64_t flags, void *status)
{
	static proc_fn real;
	int rc;

	if (!real)
		real = (proc_fn)pl_find_sym("hipGetProcAddress");
	if (!real) /* a runtime older than ROCm 6.1 */
		return PL_HIP_NOT_SUPPORTED;
	rc = real(symbol, pfn, version, flags, status);
	if (rc == 0 && pfn)
		*pfn = ours(*pfn);
	return rc;
}
