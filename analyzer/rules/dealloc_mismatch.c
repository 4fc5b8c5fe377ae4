/* SPDX-License-Identifier: MIT */
/* A block released by a function of another allocator family. */
#include <stdio.h>

#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

enum family { F_NONE, F_LIBC, F_NEW, F_NEW_ARRAY, F_HIP, F_HIP_HOST,
	      F_REGISTER, F_MAP, F_IPC, F_EXTERNAL, F_OMP_TARGET, F_OMP };

/* The class says which calls allocate; the family, which free each needs
 * (hipFree, but hipHostFree for pinned host memory). */
static enum family of_alloc(uint8_t api)
{
	switch (api) {
	case HG_API_NEW: return F_NEW;
	case HG_API_NEW_ARRAY: return F_NEW_ARRAY;
	case HG_API_HIP_HOST_MALLOC:
	case HG_API_HIP_HOST_ALLOC:
	case HG_API_HIP_EXT_HOST_ALLOC:
	case HG_API_HIP_MALLOC_HOST:
	case HG_API_HIP_MEM_ALLOC_HOST: return F_HIP_HOST;
	case HG_API_HIP_MEM_POOL_IMPORT_POINTER: return F_HIP;
	case HG_API_HIP_HOST_REGISTER: return F_REGISTER;
	case HG_API_HIP_MEM_MAP: return F_MAP;
	case HG_API_HIP_IPC_OPEN_MEM_HANDLE: return F_IPC;
	case HG_API_HIP_EXTERNAL_MEMORY_GET_MAPPED_BUFFER: return F_EXTERNAL;
	case HG_API_OMP_TARGET_ALLOC:
	case HG_API_LLVM_OMP_TARGET_ALLOC_HOST:
	case HG_API_LLVM_OMP_TARGET_ALLOC_SHARED:
	case HG_API_LLVM_OMP_TARGET_ALLOC_DEVICE: return F_OMP_TARGET;
	case HG_API_OMP_ALLOC_PINNED: return F_OMP;
	}
	if (hg_api_hip_alloc(api))
		return F_HIP;
	return hg_api_class(api) == HG_CLASS_ALLOC &&
		       hg_api_lib(api) == HG_LIB_SYSTEM
		       ? F_LIBC : F_NONE;
}

static enum family of_free(uint8_t api)
{
	switch (api) {
	case HG_API_FREE:
	case HG_API_REALLOC: return F_LIBC;
	case HG_API_DELETE: return F_NEW;
	case HG_API_DELETE_ARRAY: return F_NEW_ARRAY;
	case HG_API_HIP_FREE:
	case HG_API_HIP_FREE_ASYNC: return F_HIP;
	case HG_API_HIP_HOST_FREE:
	case HG_API_HIP_FREE_HOST: return F_HIP_HOST;
	case HG_API_HIP_HOST_UNREGISTER: return F_REGISTER;
	case HG_API_HIP_MEM_UNMAP: return F_MAP;
	case HG_API_HIP_IPC_CLOSE_MEM_HANDLE: return F_IPC;
	case HG_API_HIP_DESTROY_EXTERNAL_MEMORY: return F_EXTERNAL;
	case HG_API_OMP_TARGET_FREE: return F_OMP_TARGET;
	case HG_API_OMP_FREE: return F_OMP;
	}
	return F_NONE;
}

/* The release each family needs, as the fix names it. */
static const char *release_of(enum family f)
{
	static const char *const name[] = {
		[F_LIBC] = "free", [F_NEW] = "delete", [F_NEW_ARRAY] = "delete[]",
		[F_HIP] = "hipFree", [F_HIP_HOST] = "hipHostFree",
		[F_REGISTER] = "hipHostUnregister", [F_MAP] = "hipMemUnmap",
		[F_IPC] = "hipIpcCloseMemHandle",
		[F_EXTERNAL] = "hipDestroyExternalMemory",
		[F_OMP_TARGET] = "omp_target_free", [F_OMP] = "omp_free",
	};

	return f < sizeof(name) / sizeof(name[0]) ? name[f] : NULL;
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_free_ev *f)
{
	enum family fa = of_alloc(f->alloc_api), ff = of_free(f->api);
	struct an_call at = {f->callsite, f->api};

	if (!f->id || fa == F_NONE || ff == F_NONE || fa == ff)
		return;
	an_find_at(c, r, AN_SEV_ERROR, f->proc, NULL, f->alloc, &at, NULL,
		   "memory from %s is released with %s%s",
		   an_api_name(f->alloc_api), an_api_name(f->api),
		   f->rc ? " (and the call failed)" : "");
}

/* The one pair this block needs, at the wrong release's line. */
static void fix_at(const struct an_finding *f, const char *site,
		   const char *call, char *buf, size_t cap)
{
	const char *want = release_of(of_alloc(f->alloc.api));

	buf[0] = '\0';
	if (!want || !f->call.api)
		return;
	snprintf(buf, cap, "free it with %s%s%s, not with %s (%s/%s)", want,
		 call[0] ? " at " : "", call, an_api_name(f->call.api),
		 an_api_name(f->alloc.api), want);
}

const struct an_rule an_rule_dealloc_mismatch = {
	.id = "dealloc-mismatch",
	.sev = AN_SEV_ERROR,
	.summary = "memory released by another allocator's free function",
	.fix = "pair each allocator with its own release: malloc/free, "
	       "new/delete, new[]/delete[], hipMalloc/hipFree, "
	       "hipHostMalloc/hipHostFree, hipHostRegister/hipHostUnregister, "
	       "hipIpcOpenMemHandle/hipIpcCloseMemHandle, "
	       "hipExternalMemoryGetMappedBuffer/hipDestroyExternalMemory",
	.fix_omp = "pair each allocator with its own release: "
		   "omp_target_alloc/omp_target_free, omp_alloc/omp_free, "
		   "malloc/free, new/delete, new[]/delete[]",
	.on_free = check,
	.fix_at = fix_at,
};
