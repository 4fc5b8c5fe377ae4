/* SPDX-License-Identifier: MIT */
/* The class and library of every API against what its name says: a new
 * entry given the wrong class fails here, not in a rule that skips it. */
#include <stdbool.h>
#include <string.h>

#include "hg_events.h"
#include "tap.h"

static const struct api {
	uint8_t v;
	const char *name;
} apis[] = {
#define HG_X(v, id, name, cls) {v, name},
	HG_API_LIST(HG_X)
#undef HG_X
};

#define NAPIS (sizeof(apis) / sizeof(apis[0]))

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The class a name says, or -1 where it says none. */
static int class_by_name(const char *n)
{
	if (strstr(n, "Import"))
		return HG_CLASS_IMPORT;
	if (strstr(n, "Launch") || starts(n, "__tgt_target_kernel") ||
	    starts(n, "__tgt_target_mapper") ||
	    starts(n, "__tgt_target_teams_mapper"))
		return HG_CLASS_LAUNCH;
	/* A graph node acts at each launch; the memory nodes are what the
	 * registry records as an allocation and a free. */
	if (strstr(n, "MemAllocNode"))
		return HG_CLASS_ALLOC;
	if (strstr(n, "MemFreeNode"))
		return HG_CLASS_FREE;
	if (starts(n, "hipGraph") || starts(n, "hipDrvGraph") ||
	    strstr(n, "Capture"))
		return HG_CLASS_GRAPH;
	if (starts(n, "hipMalloc") || strstr(n, "alloc") || strstr(n, "Alloc") ||
	    strstr(n, "memalign") || starts(n, "operator new") ||
	    !strcmp(n, "map"))
		return HG_CLASS_ALLOC;
	if (!strcmp(n, "hipMemAddressFree")) /* an address range, not memory */
		return HG_CLASS_VM;
	if (strstr(n, "Free") || strstr(n, "free") || starts(n, "operator delete") ||
	    !strcmp(n, "end of map"))
		return HG_CLASS_FREE;
	if (strstr(n, "Memcpy") || strstr(n, "memcpy"))
		return HG_CLASS_COPY;
	if (starts(n, "hipMemset"))
		return HG_CLASS_SET;
	if (starts(n, "hipMemPrefetch"))
		return HG_CLASS_PREFETCH;
	if (starts(n, "hipMemAdvise") || !strcmp(n, "hsa_amd_svm_attributes_set"))
		return HG_CLASS_ADVISE;
	if (strstr(n, "Synchronize"))
		return HG_CLASS_SYNC;
	if (starts(n, "hipHostRegister") || starts(n, "hipHostUnregister") ||
	    strstr(n, "_lock") || strstr(n, "_unlock"))
		return HG_CLASS_PIN;
	if (starts(n, "hipIpc") || strstr(n, "ExternalMemory"))
		return HG_CLASS_IMPORT;
	if (starts(n, "hipMemPool"))
		return HG_CLASS_POOL;
	if (starts(n, "hipMemCreate") || starts(n, "hipMemRelease") ||
	    starts(n, "hipMemAddress") || starts(n, "hipMemMap") ||
	    starts(n, "hipMemUnmap"))
		return HG_CLASS_VM;
	if (strstr(n, "_data_") || strstr(n, "associate_ptr"))
		return HG_CLASS_MAP;
	if (strstr(n, "Register") || strstr(n, "register") ||
	    starts(n, "hipModuleLoad") || starts(n, "hipModuleGetFunction") ||
	    starts(n, "hipModuleUnload"))
		return HG_CLASS_MODULE;
	if (strstr(n, "Get") || starts(n, "hipRuntimeGet"))
		return HG_CLASS_QUERY;
	return -1;
}

static int lib_by_name(const char *n)
{
	if (starts(n, "hip") || starts(n, "__hip"))
		return HG_LIB_HIP;
	if (starts(n, "hsa_"))
		return HG_LIB_HSA;
	if (starts(n, "omp") || starts(n, "llvm_omp") || starts(n, "__tgt") ||
	    !strcmp(n, "map") || !strcmp(n, "end of map"))
		return HG_LIB_OMP;
	if (!strcmp(n, "unknown"))
		return HG_LIB_NONE;
	return HG_LIB_SYSTEM;
}

int main(void)
{
	int wrong = 0, unnamed = 0, libs = 0;

	for (size_t i = 0; i < NAPIS; i++) {
		int want = class_by_name(apis[i].name);
		int got = hg_api_class(apis[i].v);

		if (want < 0 && got != HG_CLASS_OTHER) {
			printf("# %s: class %d, its name says none\n",
			       apis[i].name, got);
			unnamed++;
		}
		if (want >= 0 && got != want) {
			printf("# %s: class %d, its name says %d\n",
			       apis[i].name, got, want);
			wrong++;
		}
		if ((int)hg_api_lib(apis[i].v) != lib_by_name(apis[i].name)) {
			printf("# %s: library %d\n", apis[i].name,
			       (int)hg_api_lib(apis[i].v));
			libs++;
		}
	}
	ok(!wrong, "every API has the class its name says");
	ok(!unnamed, "an API whose name says no class has none");
	ok(!libs, "every API is in its library's list");

	ok(hg_api_class(HG_API_HIP_MEM_PREFETCH_ASYNC) == HG_CLASS_PREFETCH &&
		   hg_api_class(HG_API_HIP_MEM_ADVISE) == HG_CLASS_ADVISE &&
		   hg_api_class(HG_API_HIP_LAUNCH_KERNEL) == HG_CLASS_LAUNCH &&
		   hg_api_class(HG_API_HIP_MEMCPY) == HG_CLASS_COPY &&
		   hg_api_class(HG_API_HIP_FREE) == HG_CLASS_FREE,
	   "prefetch, advise, launch, copy and free by name");
	ok(hg_api_class(HG_API_HIP_HOST_REGISTER) == HG_CLASS_PIN &&
		   hg_api_class(HG_API_HIP_MEM_MAP) == HG_CLASS_VM &&
		   hg_api_class(HG_API_HIP_MEM_POOL_IMPORT_POINTER) ==
			   HG_CLASS_IMPORT &&
		   hg_api_class(HG_API_HIP_MALLOC_HOST) == HG_CLASS_ALLOC,
	   "registering, mapping and importing allocate nothing; "
	   "hipMallocHost does");
	ok(hg_api_class(HG_API_UNKNOWN) == HG_CLASS_OTHER &&
		   hg_api_class(255) == HG_CLASS_OTHER &&
		   hg_api_lib(255) == HG_LIB_NONE,
	   "an API never listed has no class");

	/* The leaks gpu-leak reports: HIP's allocators, not what a program
	 * registers, maps or imports, nor other runtimes' allocations. */
	{
		int n = 0, bad = 0;

		for (size_t i = 0; i < NAPIS; i++) {
			const char *name = apis[i].name;
			bool want = (starts(name, "hipMalloc") ||
				     starts(name, "hipHostMalloc") ||
				     starts(name, "hipHostAlloc") ||
				     starts(name, "hipExtHostAlloc") ||
				     starts(name, "hipExtMalloc") ||
				     starts(name, "hipMemAlloc") ||
				     !strcmp(name, "hipGraphAddMemAllocNode"));

			n += hg_api_hip_alloc(apis[i].v);
			if (hg_api_hip_alloc(apis[i].v) != want) {
				printf("# %s\n", name);
				bad++;
			}
		}
		ok(!bad && n == 14, "HIP allocations: %d", n);
	}
	ok(!hg_api_hip_alloc(HG_API_OMP_TARGET_ALLOC) &&
		   !hg_api_hip_alloc(HG_API_HSA_MEMORY_POOL_ALLOCATE) &&
		   !hg_api_hip_alloc(HG_API_MALLOC) &&
		   !hg_api_hip_alloc(HG_API_HIP_IPC_OPEN_MEM_HANDLE),
	   "OpenMP's, HSA's and the C library's allocations are not HIP's");
	return done();
}
