/* SPDX-License-Identifier: MIT */
/*
 * hipGetProcAddress: a program (or a library such as rocPRIM) that fetches
 * an entry point by name would call the runtime directly and never be seen.
 * The runtime resolves the name and version; when the function it picked
 * is one hipgrain wraps, the caller gets the wrapper instead.  Matching on
 * the resolved function's own name (dladdr) covers versioned lookups:
 * asking for "hipMemAdvise" at a version that maps to hipMemAdvise_v2 hands
 * back the hipMemAdvise_v2 wrapper.
 */
#include <dlfcn.h>
#include <stdint.h>

#include <hip/hip_runtime_api.h>

#include "pl_boot.h"
#include "pl_export.h"

/* Not declared by the 5.x headers; the last argument is an enum. */
PL_EXPORT hipError_t hipGetProcAddress(const char *symbol, void **pfn,
				       int version, uint64_t flags,
				       int *status);

/* Our own export named `name`, or NULL: looked up in this object only. */
static void *own_export(const char *name)
{
	static void *self;
	Dl_info me, it;
	void *p;

	if (!self) {
		if (!dladdr((void *)own_export, &me) || !me.dli_fname)
			return NULL;
		self = dlopen(me.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
		if (!self)
			return NULL;
	}
	p = dlsym(self, name);
	if (!p || !dladdr(p, &it) || !dladdr((void *)own_export, &me))
		return NULL;
	return it.dli_fbase == me.dli_fbase ? p : NULL;
}

PL_EXPORT hipError_t hipGetProcAddress(const char *symbol, void **pfn,
				       int version, uint64_t flags, int *status)
{
	static __typeof__(&hipGetProcAddress) real;
	Dl_info info;
	hipError_t rc;
	void *ours;

	if (!real)
		real = (__typeof__(&hipGetProcAddress))pl_next_sym(
		    "hipGetProcAddress");
	if (!real)
		return hipErrorNotSupported;
	rc = real(symbol, pfn, version, flags, status);
	if (rc != hipSuccess || !pfn || !*pfn)
		return rc;
	if (!dladdr(*pfn, &info) || !info.dli_sname)
		return rc;
	ours = own_export(info.dli_sname);
	if (ours)
		*pfn = ours;
	return rc;
}
