/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): the one device, versions,
 * synchronisation, streams and events.  Everything is synchronous, so
 * synchronisation has nothing to wait for; streams and events are slots in
 * static pools (no malloc).
 */
#include "fh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FH_POOL 256
/* The release whose headers the double is built with (5.2.3 reports
 * 50221153): what a program built with them finds, and the layout of the
 * structs it passes. */
#define FH_VERSION HIP_VERSION

struct ihipStream_t {
	int used;
	unsigned int flags;
};
struct ihipEvent_t {
	int used;
	int recorded;
};
static struct ihipStream_t fh_streams[FH_POOL];
static struct ihipEvent_t fh_events[FH_POOL];

hipError_t hipInit(unsigned int flags)
{
	FH_INIT();
	return fh_ret(flags ? hipErrorInvalidValue : hipSuccess);
}

/* HGFAKE_RUNTIME_VERSION: the double answers as a later release would
 * (where what the preload does depends on the release, as with imported
 * pools from ROCm 7). */
hipError_t hipRuntimeGetVersion(int *v)
{
	const char *later = getenv("HGFAKE_RUNTIME_VERSION");

	if (!v)
		return fh_ret(hipErrorInvalidValue);
	*v = later && *later ? atoi(later) : FH_VERSION;
	return fh_ret(hipSuccess);
}

hipError_t hipDriverGetVersion(int *v)
{
	if (!v)
		return fh_ret(hipErrorInvalidValue);
	*v = FH_VERSION;
	return fh_ret(hipSuccess);
}

hipError_t hipGetDeviceCount(int *count)
{
	if (!count)
		return fh_ret(hipErrorInvalidValue);
	*count = fh_no_device() ? 0 : 1;
	return fh_ret(*count ? hipSuccess : hipErrorNoDevice);
}

hipError_t hipGetDevice(int *device)
{
	FH_INIT();
	if (!device)
		return fh_ret(hipErrorInvalidValue);
	*device = 0;
	return fh_ret(hipSuccess);
}

hipError_t hipSetDevice(int device)
{
	FH_INIT();
	return fh_ret(device == 0 ? hipSuccess : hipErrorInvalidDevice);
}

hipError_t hipDeviceGet(hipDevice_t *device, int ordinal)
{
	FH_INIT();
	if (!device)
		return fh_ret(hipErrorInvalidValue);
	if (ordinal != 0)
		return fh_ret(hipErrorInvalidDevice);
	*device = 0;
	return fh_ret(hipSuccess);
}

#if HIP_VERSION_MAJOR < 6
/* "gfx90a:sramecc+:xnack-" -> 90a's number as the deprecated gcnArch. */
static int fh_gcn_arch(const char *arch)
{
	if (strncmp(arch, "gfx90a", 6) == 0)
		return 910;
	if (strncmp(arch, "gfx", 3) == 0)
		return atoi(arch + 3);
	return 0;
}
#endif

/*
 * What ROCm reports for one GCD of the cards each target is: programs size
 * their grids and pick code paths from these (HeCBench's atomics read the
 * CU count and the clock), so they are the real cards' numbers, not round
 * ones.  The device's name still says it is the test double.
 */
struct fh_card {
	const char *arch; /* gcnArchName's prefix */
	const char *name;
	int cus, clock_khz, mem_clock_khz, bus_bits, l2, minor;
	size_t mem;
};

static const struct fh_card fh_cards[] = {
	{ "gfx908", "AMD Instinct MI100", 120, 1502000, 1200000, 4096, 8 << 20, 0,
	  (size_t)32 << 30 },
	{ "gfx90a", "AMD Instinct MI210", 104, 1700000, 1600000, 4096, 8 << 20, 0,
	  (size_t)64 << 30 },
	{ "gfx942", "AMD Instinct MI300X", 304, 2100000, 1300000, 8192, 4 << 20, 4,
	  (size_t)192 << 30 },
	{ "gfx940", "AMD Instinct MI300X", 304, 2100000, 1300000, 8192, 4 << 20, 4,
	  (size_t)192 << 30 },
};

static const struct fh_card *fh_card_of(const char *arch)
{
	for (size_t i = 0; i < sizeof(fh_cards) / sizeof(fh_cards[0]); i++)
		if (strncmp(arch, fh_cards[i].arch, strlen(fh_cards[i].arch)) == 0)
			return &fh_cards[i];
	return &fh_cards[1]; /* any other target: the default, MI200 */
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int device)
{
	FH_INIT();
	if (!p)
		return fh_ret(hipErrorInvalidValue);
	if (device != 0)
		return fh_ret(hipErrorInvalidDevice);
	const char *arch = fh_arch();
	const struct fh_card *c = fh_card_of(arch);
	int xnack = strstr(arch, "xnack+") != NULL;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s (hipgrain test double)", c->name);
	strncpy(p->gcnArchName, arch, sizeof(p->gcnArchName) - 1);
#if HIP_VERSION_MAJOR < 6 /* gone from hipDeviceProp_tR0600 */
	p->gcnArch = fh_gcn_arch(arch);
#endif
	p->totalGlobalMem = c->mem;
	p->sharedMemPerBlock = 64 << 10;
	p->regsPerBlock = 65536;
	p->warpSize = 64;
	p->maxThreadsPerBlock = 1024;
	p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
	p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 0x7fffffff;
	p->clockRate = c->clock_khz;
	p->memoryClockRate = c->mem_clock_khz;
	p->memoryBusWidth = c->bus_bits;
	p->totalConstMem = (size_t)2 << 30;
	p->major = 9;
	p->minor = c->minor;
	p->multiProcessorCount = c->cus;
	p->l2CacheSize = c->l2;
	p->maxThreadsPerMultiProcessor = 2048;
	p->clockInstructionRate = 100000;
	p->concurrentKernels = 1;
	p->maxSharedMemoryPerMultiProcessor = 64 << 10;
	p->canMapHostMemory = 1;
	p->isLargeBar = 1;
	p->managedMemory = 1;
	p->directManagedMemAccessFromHost = 1;
	p->concurrentManagedAccess = xnack;
	p->pageableMemoryAccess = xnack;
	p->pageableMemoryAccessUsesHostPageTables = xnack;
	return fh_ret(hipSuccess);
}

hipError_t hipDeviceSynchronize(void)
{
	FH_INIT();
	fh_log("hipDeviceSynchronize -> hipSuccess");
	return fh_ret(hipSuccess);
}

hipError_t hipDeviceReset(void)
{
	FH_INIT();
	return fh_ret(hipSuccess);
}

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags)
{
	FH_INIT();
	if (!stream)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	struct ihipStream_t *s = NULL;
	for (size_t i = 0; i < FH_POOL && !s; i++)
		if (!fh_streams[i].used)
			s = &fh_streams[i];
	if (s)
		*s = (struct ihipStream_t){1, flags};
	fh_unlock();
	if (!s)
		return fh_ret(hipErrorOutOfMemory);
	*stream = s;
	fh_log("hipStreamCreate stream=%p flags=0x%x -> hipSuccess", (void *)s, flags);
	return fh_ret(hipSuccess);
}

hipError_t hipStreamCreate(hipStream_t *stream)
{
	return hipStreamCreateWithFlags(stream, hipStreamDefault);
}

/* NULL is the null stream; anything else must be one of ours, alive. */
static int fh_stream_ok(hipStream_t s)
{
	return !s || (s >= fh_streams && s < fh_streams + FH_POOL && s->used);
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
	FH_INIT();
	if (!stream || !fh_stream_ok(stream))
		return fh_ret(hipErrorInvalidHandle);
	stream->used = 0;
	return fh_ret(hipSuccess);
}

hipError_t hipStreamSynchronize(hipStream_t stream)
{
	FH_INIT();
	return fh_ret(fh_stream_ok(stream) ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipStreamQuery(hipStream_t stream)
{
	FH_INIT();
	return fh_ret(fh_stream_ok(stream) ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags)
{
	FH_INIT();
	return fh_ret(fh_stream_ok(stream) && event ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned int flags)
{
	FH_INIT();
	if (!event)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	struct ihipEvent_t *e = NULL;
	for (size_t i = 0; i < FH_POOL && !e; i++)
		if (!fh_events[i].used)
			e = &fh_events[i];
	if (e)
		*e = (struct ihipEvent_t){1, 0};
	fh_unlock();
	if (!e)
		return fh_ret(hipErrorOutOfMemory);
	*event = e;
	return fh_ret(hipSuccess);
}

hipError_t hipEventCreate(hipEvent_t *event)
{
	return hipEventCreateWithFlags(event, hipEventDefault);
}

static int fh_event_ok(hipEvent_t e)
{
	return e >= fh_events && e < fh_events + FH_POOL && e->used;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
	FH_INIT();
	if (!fh_event_ok(event) || !fh_stream_ok(stream))
		return fh_ret(hipErrorInvalidHandle);
	event->recorded = 1;
	return fh_ret(hipSuccess);
}

hipError_t hipEventSynchronize(hipEvent_t event)
{
	FH_INIT();
	return fh_ret(fh_event_ok(event) ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipEventQuery(hipEvent_t event)
{
	FH_INIT();
	return fh_ret(fh_event_ok(event) ? hipSuccess : hipErrorInvalidHandle);
}

hipError_t hipEventDestroy(hipEvent_t event)
{
	FH_INIT();
	if (!fh_event_ok(event))
		return fh_ret(hipErrorInvalidHandle);
	event->used = 0;
	return fh_ret(hipSuccess);
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop)
{
	FH_INIT();
	if (!ms)
		return fh_ret(hipErrorInvalidValue);
	if (!fh_event_ok(start) || !fh_event_ok(stop))
		return fh_ret(hipErrorInvalidHandle);
	if (!start->recorded || !stop->recorded)
		return fh_ret(hipErrorNotReady);
	*ms = 0.0f; /* nothing ran */
	return fh_ret(hipSuccess);
}
