// SPDX-License-Identifier: MIT
//
// Every allocator and flag the granularity model knows, one allocation
// each, for the driver table (test_gran_table.py): on a virtual GPU the
// real runtime asks the driver for each one, and the trace holds both what
// the model said and what the driver was told.  Prints "ROW POINTER" per
// allocation, "ROW failed ERROR" where the runtime refused it.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define SIZE 65536

static void row(const char *name, hipError_t e, void *p)
{
	if (e != hipSuccess)
		printf("%s failed %s\n", name, hipGetErrorName(e));
	else
		printf("%s %p\n", name, p);
}

static void host(const char *name, unsigned flags)
{
	void *p = nullptr;
	row(name, hipHostMalloc(&p, SIZE, flags), p);
}

int main()
{
	void *p = nullptr;
	size_t pitch;
	row("hipMalloc", hipMalloc(&p, SIZE), p);
	row("hipMallocPitch", hipMallocPitch(&p, &pitch, 256, 256), p);
	row("hipExtMallocWithFlags(Default)",
	    hipExtMallocWithFlags(&p, SIZE, hipDeviceMallocDefault), p);
	row("hipExtMallocWithFlags(Finegrained)",
	    hipExtMallocWithFlags(&p, SIZE, hipDeviceMallocFinegrained), p);
	host("hipHostMalloc(0)", 0);
	host("hipHostMalloc(Portable)", hipHostMallocPortable);
	host("hipHostMalloc(Mapped)", hipHostMallocMapped);
	host("hipHostMalloc(WriteCombined)", hipHostMallocWriteCombined);
	host("hipHostMalloc(Coherent)", hipHostMallocCoherent);
	host("hipHostMalloc(NonCoherent)", hipHostMallocNonCoherent);
	host("hipHostMalloc(NumaUser)", hipHostMallocNumaUser);
	host("hipHostMalloc(Portable|Mapped)",
	     hipHostMallocPortable | hipHostMallocMapped);
	host("hipHostMalloc(WriteCombined|Mapped)",
	     hipHostMallocWriteCombined | hipHostMallocMapped);
	row("hipHostAlloc(0)", hipHostAlloc(&p, SIZE, 0), p);
	row("hipMallocManaged", hipMallocManaged(&p, SIZE, hipMemAttachGlobal), p);
	hipError_t e = hipMallocManaged(&p, SIZE, hipMemAttachGlobal);
	if (e == hipSuccess)
		e = hipMemAdvise(p, SIZE, hipMemAdviseSetCoarseGrain, 0);
	row("hipMallocManaged+SetCoarseGrain", e, p);
	void *h = aligned_alloc(4096, SIZE);
	row("hipHostRegister(Default)", hipHostRegister(h, SIZE, hipHostRegisterDefault), h);
	return 0;
}
