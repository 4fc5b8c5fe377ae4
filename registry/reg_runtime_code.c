/* SPDX-License-Identifier: MIT */
/*
 * Whether an instruction belongs to a runtime library the program loads
 * rather than to the program: ROCm's runtimes and the LLVM they carry.
 * Their own allocator pairing (LLVM tables made with calloc and released
 * by its own deallocation path at exit) is theirs to keep, and a report
 * about the program must not blame it for them.  Asked only on the rare
 * paths that would report something, so dladdr's cost does not matter.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "reg_runtime_code.h"

static const char *const runtimes[] = {
	"libLLVM", "libamd_comgr", "libamdhip64", "libhsa-runtime64",
	"libhsakmt", "libomptarget", "libhiprtc",
};

bool reg_runtime_code(uintptr_t ip)
{
	Dl_info info;

	if (!ip || !dladdr((void *)ip, &info) || !info.dli_fname)
		return false;
	const char *base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
		if (!strncmp(base, runtimes[i], strlen(runtimes[i])))
			return true;
	return false;
}
