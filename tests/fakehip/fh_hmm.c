/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): HMM hints and queries.
 *
 * What ROCm 5.2 answers (ROCclr hip_memory.cpp, and the seed 000 tables),
 * which this file reproduces:
 * - hipMemPrefetchAsync: hipErrorInvalidValue for a NULL pointer, a zero
 *   count, or memory HIP does not know (malloc memory: the prefetch command
 *   fails validateMemory); hipSuccess, without effect, on hipMalloc and
 *   hipHostMalloc memory (known to HIP, so the command is queued).
 * - hipMemAdvise: hipErrorInvalidValue for NULL/0 or a bad device; on
 *   hipMalloc and hipHostMalloc memory the HMM attribute call fails (not SVM
 *   memory) -> hipErrorInvalidValue; malloc and managed memory -> hipSuccess.
 *   (The brief allowed hipSuccess for advise when unclear; the table's "No"
 *   for hipMalloc/hipHostMalloc and the KFD SVM ioctl rejecting non-SVM
 *   ranges make hipErrorInvalidValue the closer model.)
 * - Coarse/fine advice is kept per page, so a range can be split.
 */
#include "fh.h"

#include <stdlib.h>
#include <string.h>

#define FH_MAX_ADVICE 1024

/* Advice log: later entries override earlier ones page by page. */
static struct {
	uintptr_t first, last; /* page numbers, inclusive */
	int coarse;
	int live;
} fh_advice[FH_MAX_ADVICE];
static size_t fh_advice_len;

void fh_advice_forget(uintptr_t base, size_t size)
{
	uintptr_t first = base / FH_PAGE, last = (base + (size ? size : 1) - 1) / FH_PAGE;
	for (size_t i = 0; i < fh_advice_len; i++)
		if (fh_advice[i].first >= first && fh_advice[i].last <= last)
			fh_advice[i].live = 0;
}

static int fh_advice_add(const void *p, size_t n, int coarse)
{
	if (fh_advice_len == FH_MAX_ADVICE)
		return 0;
	uintptr_t a = (uintptr_t)p;
	fh_advice[fh_advice_len].first = a / FH_PAGE;
	fh_advice[fh_advice_len].last = (a + n - 1) / FH_PAGE;
	fh_advice[fh_advice_len].coarse = coarse;
	fh_advice[fh_advice_len].live = 1;
	fh_advice_len++;
	return 1;
}

/* -1: no advice covers the page. */
static int fh_page_advice(uintptr_t page)
{
	for (size_t i = fh_advice_len; i-- > 0;)
		if (fh_advice[i].live && page >= fh_advice[i].first &&
		    page <= fh_advice[i].last)
			return fh_advice[i].coarse;
	return -1;
}

/*
 * hipHostMalloc coherence from its flags: NonCoherent is coarse; Coherent,
 * Mapped, NumaUser and no flag at all are fine; other flags alone follow
 * HIP_HOST_COHERENT, whose ROCm 5.2 default is 0 (non-coherent).
 */
static int fh_host_coarse(unsigned int flags)
{
	if (flags & hipHostMallocNonCoherent)
		return 1;
	if (flags == 0 || (flags & (hipHostMallocCoherent | hipHostMallocMapped |
				    hipHostMallocNumaUser)))
		return 0;
	const char *env = getenv("HIP_HOST_COHERENT");
	return !(env && strcmp(env, "1") == 0);
}

/* Coarse (1) or fine (0) for one page of memory the caller has looked up. */
static int fh_coarse_at(const struct fh_alloc *e, uintptr_t page)
{
	if (e && e->kind == FH_DEVICE)
		return 1;
	if (e && e->kind == FH_DEVICE_FINE)
		return 0;
	if (e && e->kind == FH_HOST)
		return fh_host_coarse(e->flags);
	int adv = fh_page_advice(page); /* managed, registered, system memory */
	return adv < 0 ? 0 : adv;
}

static int fh_device_ok(int device)
{
	return device == 0 || device == hipCpuDeviceId;
}

hipError_t hipMemAdvise(const void *p, size_t n, hipMemoryAdvise advice, int device)
{
	FH_INIT();
	hipError_t err = hipSuccess;
	if (!p || n == 0 || !fh_device_ok(device)) {
		err = hipErrorInvalidValue;
	} else {
		fh_lock();
		struct fh_alloc *e = fh_find(p);
		if (e && (e->kind == FH_DEVICE || e->kind == FH_DEVICE_FINE ||
			  e->kind == FH_HOST))
			err = hipErrorInvalidValue;
		else if (advice == hipMemAdviseSetCoarseGrain ||
			 advice == hipMemAdviseUnsetCoarseGrain)
			err = fh_advice_add(p, n, advice == hipMemAdviseSetCoarseGrain)
				      ? hipSuccess
				      : hipErrorOutOfMemory;
		fh_unlock();
	}
	fh_log("hipMemAdvise ptr=%p size=%zu advice=%d device=%d -> %s", p, n,
	       (int)advice, device, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipMemPrefetchAsync(const void *p, size_t n, int device, hipStream_t stream)
{
	FH_INIT();
	hipError_t err = hipSuccess;
	if (!p || n == 0 || !fh_device_ok(device)) {
		err = hipErrorInvalidValue;
	} else {
		fh_lock();
		if (!fh_find(p))
			err = hipErrorInvalidValue;
		fh_unlock();
	}
	fh_log("hipMemPrefetchAsync ptr=%p size=%zu device=%d stream=%p -> %s", p,
	       n, device, (void *)stream, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipMemRangeGetAttribute(void *data, size_t data_size,
				   hipMemRangeAttribute attribute,
				   const void *p, size_t n)
{
	FH_INIT();
	if (!data || data_size == 0 || !p || n == 0)
		return fh_ret(hipErrorInvalidValue);
	if (attribute != hipMemRangeAttributeCoherencyMode) {
		/* Not modelled: no read-mostly, no locations. */
		memset(data, 0, data_size);
		return fh_ret(hipSuccess);
	}
	if (data_size < sizeof(int))
		return fh_ret(hipErrorInvalidValue);
	uintptr_t a = (uintptr_t)p;
	int seen[2] = {0, 0};
	fh_lock();
	for (uintptr_t page = a / FH_PAGE; page <= (a + n - 1) / FH_PAGE; page++) {
		uintptr_t at = page * FH_PAGE < a ? a : page * FH_PAGE;
		seen[fh_coarse_at(fh_find((const void *)at), page)] = 1;
	}
	fh_unlock();
	int mode = seen[0] && seen[1] ? hipMemRangeCoherencyModeIndeterminate
		   : seen[1]          ? hipMemRangeCoherencyModeCoarseGrain
				      : hipMemRangeCoherencyModeFineGrain;
	memcpy(data, &mode, sizeof(mode));
	fh_log("hipMemRangeGetAttribute ptr=%p size=%zu attr=%d -> mode=%d", p, n,
	       (int)attribute, mode);
	return fh_ret(hipSuccess);
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attr, const void *p)
{
	FH_INIT();
	if (!attr || !p)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	struct fh_alloc *e = fh_find(p);
	struct fh_alloc copy = e ? *e : (struct fh_alloc){0};
	fh_unlock();
	if (!e)
		return fh_ret(hipErrorInvalidValue);
	memset(attr, 0, sizeof(*attr));
	/* ROCclr reports fine-grain SVM (host, managed) as host memory. */
	int host = copy.kind == FH_HOST || copy.kind == FH_MANAGED ||
		   copy.kind == FH_REGISTERED;
#if HIP_VERSION_MAJOR >= 6 /* ROCm 6 renamed it as CUDA's */
	attr->type = host ? hipMemoryTypeHost : hipMemoryTypeDevice;
#else
	attr->memoryType = host ? hipMemoryTypeHost : hipMemoryTypeDevice;
#endif
	attr->device = 0;
	attr->devicePointer = (void *)p;
	attr->hostPointer = host ? (void *)p : NULL;
	attr->isManaged = copy.kind == FH_MANAGED;
	attr->allocationFlags = copy.flags;
	return fh_ret(hipSuccess);
}
