/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64.so.6 (see doc/testing.md): hipGetProcAddress as
 * ROCm 6.1+ answers it, with the runtime's own function of that name (never
 * a preloaded one: a lookup in this library and what it needs).
 */
#include <dlfcn.h>
#include <stdint.h>

#include "fh.h"

#define FH_PROC_NOT_FOUND 1 /* HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */

#if HIP_VERSION_MAJOR >= 6
typedef hipDriverProcAddressQueryResult fh_proc_status;
#else
/* Not in ROCm 5's headers. */
typedef int fh_proc_status;
__attribute__((visibility("default"))) hipError_t
hipGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags,
		  fh_proc_status *status);
#endif

/* Something of this library's own: hipGetProcAddress's own address may be
 * a preloaded one's. */
static void anchor(void)
{
}

hipError_t hipGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags,
		  fh_proc_status *status)
{
	Dl_info me;
	void *h = NULL, *fn = NULL;

	(void)version;
	(void)flags;
	if (!symbol || !pfn)
		return hipErrorInvalidValue;
	if (dladdr((void *)anchor, &me) && me.dli_fname)
		h = dlopen(me.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (h) {
		fn = dlsym(h, symbol);
		dlclose(h);
	}
	if (status)
		*status = (fh_proc_status)(fn ? 0 : FH_PROC_NOT_FOUND);
	*pfn = fn;
	return fn ? hipSuccess : hipErrorNotFound;
}
