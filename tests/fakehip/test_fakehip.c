/* SPDX-License-Identifier: MIT */
/*
 * The test double's own contract: the return codes and memory behaviour
 * hipgrain's tests rely on (see doc/testing.md).  TAP output.
 */
#include <hip/hip_runtime_api.h>

/* ROCm 6 renamed hipPointerAttribute_t's memoryType as CUDA's type. */
#if HIP_VERSION_MAJOR >= 6
#define FH_MEMTYPE(a) ((a).type)
#else
#define FH_MEMTYPE(a) ((a).memoryType)
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed, count;

static void check(int ok, const char *what)
{
	count++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", count, what);
	failed += !ok;
}

static int coherency(const void *p, size_t n)
{
	int mode = -1;
	if (hipMemRangeGetAttribute(&mode, sizeof(mode),
				    hipMemRangeAttributeCoherencyMode, p, n) != hipSuccess)
		return -1;
	return mode;
}

static void test_alloc(void)
{
	void *p = (void *)1, *h;
	check(hipMalloc(NULL, 64) == hipErrorInvalidValue, "hipMalloc(NULL) is hipErrorInvalidValue");
	check(hipMalloc(&p, 0) == hipSuccess && p == NULL, "hipMalloc of 0 bytes gives NULL");
	check(hipHostMalloc(&h, 64, hipHostMallocCoherent | hipHostMallocNonCoherent) ==
		      hipErrorInvalidValue,
	      "hipHostMalloc(Coherent|NonCoherent) is hipErrorInvalidValue");
	check(hipGetLastError() == hipErrorInvalidValue && hipGetLastError() == hipSuccess,
	      "hipGetLastError returns the last error once");
	check(hipFree(NULL) == hipSuccess, "hipFree(NULL) succeeds");
	int on_stack;
	check(hipFree(&on_stack) == hipErrorInvalidValue, "hipFree of an unknown pointer fails");
	check(hipMalloc(&p, 100) == hipSuccess && ((size_t)p & 4095) == 0,
	      "hipMalloc memory is page-aligned");
	check(hipFree((char *)p + 8) == hipErrorInvalidValue, "hipFree of an interior pointer fails");
	check(hipFree(p) == hipSuccess && hipFree(p) == hipErrorInvalidValue,
	      "a double hipFree fails the second time");
	check(hipMemcpy(&on_stack, p, 4, hipMemcpyDeviceToHost) == hipErrorInvalidValue,
	      "a copy from freed device memory is hipErrorInvalidValue");

	/* HGFAKE_REUSE=1 (bench/launch): a freed block comes back, zeroed. */
	const char *reuse = getenv("HGFAKE_REUSE");
	void *q = NULL;
	check(hipMalloc(&p, 5000) == hipSuccess && (memset(p, 7, 5000), 1) &&
		      hipFree(p) == hipSuccess && hipMalloc(&q, 5000) == hipSuccess &&
		      ((const char *)q)[0] == 0 && ((const char *)q)[4999] == 0,
	      "a block allocated after a free of the same size is zeroed");
	if (reuse && *reuse == '1')
		check(q == p && hipFree(p) == hipSuccess &&
			      hipFree(p) == hipErrorInvalidValue,
		      "HGFAKE_REUSE=1: it is the freed block, freed once only");
	else
		check(hipFree(q) == hipSuccess, "it is freed");
}

static void test_copy(void)
{
	int src[4] = {1, 2, 3, 4}, dst[4] = {0};
	void *d;
	hipMalloc(&d, sizeof(src));
	check(hipMemcpy(d, src, sizeof(src), hipMemcpyHostToDevice) == hipSuccess &&
		      hipMemsetD32((char *)d + 8, 7, 2) == hipSuccess &&
		      hipMemcpy(dst, d, sizeof(dst), hipMemcpyDeviceToHost) == hipSuccess &&
		      dst[0] == 1 && dst[1] == 2 && dst[2] == 7 && dst[3] == 7,
	      "hipMemcpy and hipMemsetD32 move real bytes");
	hipFree(d);
}

static void test_hmm(void)
{
	void *dev, *host, *nc, *managed, *sys = malloc(8192);
	int dev0 = 0;
	hipMalloc(&dev, 8192);
	hipHostMalloc(&host, 8192, 0);
	hipHostMalloc(&nc, 8192, hipHostMallocNonCoherent);
	hipMallocManaged(&managed, 8192, hipMemAttachGlobal);
	check(hipMemPrefetchAsync(managed, 8192, dev0, 0) == hipSuccess &&
		      hipMemPrefetchAsync(dev, 8192, dev0, 0) == hipSuccess &&
		      hipMemPrefetchAsync(sys, 8192, dev0, 0) == hipErrorInvalidValue,
	      "prefetch: managed and hipMalloc accepted, malloc memory rejected");
	check(hipMemAdvise(managed, 4096, hipMemAdviseSetCoarseGrain, dev0) == hipSuccess &&
		      hipMemAdvise(dev, 8192, hipMemAdviseSetCoarseGrain, dev0) ==
			      hipErrorInvalidValue &&
		      hipMemAdvise(host, 8192, hipMemAdviseSetReadMostly, dev0) ==
			      hipErrorInvalidValue,
	      "advise: managed accepted, hipMalloc and hipHostMalloc rejected");
	check(coherency(managed, 4096) == hipMemRangeCoherencyModeCoarseGrain &&
		      coherency((char *)managed + 4096, 64) == hipMemRangeCoherencyModeFineGrain &&
		      coherency(managed, 8192) == hipMemRangeCoherencyModeIndeterminate,
	      "SetCoarseGrain on the first page splits a managed range");
	check(coherency(dev, 8) == hipMemRangeCoherencyModeCoarseGrain &&
		      coherency(host, 8) == hipMemRangeCoherencyModeFineGrain &&
		      coherency(nc, 8) == hipMemRangeCoherencyModeCoarseGrain,
	      "coherency: hipMalloc coarse, hipHostMalloc fine, NonCoherent coarse");
	hipPointerAttribute_t a;
	check(hipPointerGetAttributes(&a, (char *)managed + 100) == hipSuccess && a.isManaged &&
		      hipPointerGetAttributes(&a, dev) == hipSuccess &&
		      FH_MEMTYPE(a) == hipMemoryTypeDevice && !a.isManaged &&
		      hipPointerGetAttributes(&a, sys) == hipErrorInvalidValue,
	      "hipPointerGetAttributes: managed, device, unknown");
	check(hipFree(host) == hipSuccess && hipHostFree(dev) == hipSuccess,
	      "hipFree and hipHostFree release either kind (as ROCm 5.2 does)");
	hipHostFree(nc);
	hipFree(managed);
	free(sys);
}

static void test_device(void)
{
	int n = -1, v = 0;
	hipDeviceProp_t prop;
	const char *arch = getenv("HGFAKE_ARCH");
	check(hipGetDeviceCount(&n) == hipSuccess && n == 1, "one device");
	check(hipGetDeviceProperties(&prop, 0) == hipSuccess &&
		      strcmp(prop.gcnArchName, arch ? arch : "gfx90a:sramecc+:xnack-") == 0,
	      "gcnArchName comes from HGFAKE_ARCH");
	int mi300 = arch && strncmp(arch, "gfx942", 6) == 0;
	check(prop.multiProcessorCount == (mi300 ? 304 : 104) && prop.minor == (mi300 ? 4 : 0) &&
		      strstr(prop.name, mi300 ? "MI300X" : "MI210") &&
		      strstr(prop.name, "test double"),
	      "the properties are the card's whose target HGFAKE_ARCH names (MI210, MI300X)");
	char name[16];
	check(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0) ==
			      hipSuccess &&
		      v == prop.multiProcessorCount && v > 0,
	      "hipDeviceGetAttribute agrees with hipGetDeviceProperties");
	check(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 1) ==
		      hipErrorInvalidDevice,
	      "hipDeviceGetAttribute of a missing device fails");
	check(hipDeviceGetAttribute(&v, hipDeviceAttributeEccEnabled, 0) ==
		      hipErrorNotSupported,
	      "an attribute the double has no value for is not supported");
	check(hipDeviceGetName(name, (int)sizeof(name), 0) == hipSuccess &&
		      strncmp(name, prop.name, sizeof(name) - 1) == 0 &&
		      name[sizeof(name) - 1] == '\0',
	      "hipDeviceGetName: the properties' name, cut to the buffer");
	/* The release of the headers the double was built with (5.2.3 on
	 * Debian 12, 5.7.1 on trixie, 6.4.3 for the .so.6 form on sid). */
	check(hipRuntimeGetVersion(&v) == hipSuccess &&
		      v / 100000 == HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR,
	      "runtime version is the headers' release");
	check(hipLaunchKernel((const void *)test_device, (dim3){1, 1, 1}, (dim3){1, 1, 1},
			      NULL, 0, NULL) == hipErrorInvalidDeviceFunction,
	      "launching an unregistered function fails");
}

int main(void)
{
	test_alloc();
	test_copy();
	test_hmm();
	test_device();
	printf("1..%d\n", count);
	return failed != 0;
}
