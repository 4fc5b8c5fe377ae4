/* SPDX-License-Identifier: MIT */
/*
 * Every copy and set form beyond the plain ones, against the test double:
 * the per-thread default stream forms, 3D, parameter-block, symbol and
 * 16-bit forms, array copies, and NULL and zero-size calls of each kind.  For each call
 * it prints what hipgrain must record, from the arguments alone:
 *
 *   memcpy NAME api=N dst=A src=A size=N kind=N stream=A async=N rc=N
 *   memset NAME api=N dst=A value=N size=N stream=A rc=N
 *
 * in call order (addresses in decimal; an array side or an unknown symbol
 * is 0).  The api numbers are common/hg_events.h's.
 */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hg_events.h"
#include "hg_hip_compat.h"

#define U(p) ((unsigned long)(uintptr_t)(p))
#define PTDS hipStreamPerThread

void __hipRegisterVar(void **modules, void *var, char *host_name,
		      char *device_name, int ext, size_t size, int constant,
		      int global);

static void cp(const char *name, int api, hipError_t rc, const void *d,
	       const void *s, size_t n, int kind, hipStream_t st, int async)
{
	printf("memcpy %s api=%d dst=%lu src=%lu size=%zu kind=%d stream=%lu "
	       "async=%d rc=%d\n", name, api, U(d), U(s), n, kind, U(st),
	       async, (int)rc);
}

static void set(const char *name, int api, hipError_t rc, const void *d,
		int v, size_t n, hipStream_t st)
{
	printf("memset %s api=%d dst=%lu value=%d size=%zu stream=%lu rc=%d\n",
	       name, api, U(d), v, n, U(st), (int)rc);
}

/* The device variable the symbol copies name (registered as a program's
 * constructor would), and its device address. */
static double var[8];
static char *var_dev;

static hipMemcpy3DParms params_3d(char *dev, char *host)
{
	hipMemcpy3DParms p;

	memset(&p, 0, sizeof(p));
	p.dstPtr = make_hipPitchedPtr(dev, 64, 32, 4);
	p.dstPos = make_hipPos(8, 1, 1);
	p.srcPtr = make_hipPitchedPtr(host, 32, 32, 4);
	p.extent = make_hipExtent(16, 2, 2);
	p.kind = hipMemcpyHostToDevice;
	return p;
}

/* dev at (8, 1, 1) in 64-byte rows of 4-row planes */
#define AT_811(dev) ((dev) + (1 * 4 + 1) * 64 + 8)

static void spt(char *dev, char *host, hipStream_t s)
{
	hipMemcpy3DParms p = params_3d(dev, host);
	hipPitchedPtr pp = make_hipPitchedPtr(dev, 64, 32, 4);
	hipExtent e = make_hipExtent(32, 3, 2);

	cp("hipMemcpy_spt", HG_API_HIP_MEMCPY,
	   hipMemcpy_spt(dev, host, 256, hipMemcpyHostToDevice), dev, host,
	   256, 1, PTDS, 0);
	cp("hipMemcpyAsync_spt null", HG_API_HIP_MEMCPY_ASYNC,
	   hipMemcpyAsync_spt(host, dev, 128, hipMemcpyDeviceToHost, 0), host,
	   dev, 128, 2, PTDS, 1);
	cp("hipMemcpyAsync_spt stream", HG_API_HIP_MEMCPY_ASYNC,
	   hipMemcpyAsync_spt(host, dev, 64, hipMemcpyDeviceToHost, s), host,
	   dev, 64, 2, s, 1);
	cp("hipMemcpy2D_spt", HG_API_HIP_MEMCPY_2D,
	   hipMemcpy2D_spt(dev, 64, host, 32, 32, 4, hipMemcpyHostToDevice),
	   dev, host, 128, 1, PTDS, 0);
	cp("hipMemcpy2DAsync_spt", HG_API_HIP_MEMCPY_2D_ASYNC,
	   hipMemcpy2DAsync_spt(host, 32, dev, 64, 16, 2,
				hipMemcpyDeviceToHost, s),
	   host, dev, 32, 2, s, 1);
	cp("hipMemcpy3D_spt", HG_API_HIP_MEMCPY_3D, hipMemcpy3D_spt(&p),
	   AT_811(dev), host, 64, 1, PTDS, 0);
	cp("hipMemcpy3DAsync_spt", HG_API_HIP_MEMCPY_3D_ASYNC,
	   hipMemcpy3DAsync_spt(&p, 0), AT_811(dev), host, 64, 1, PTDS, 1);
	cp("hipMemcpyToSymbol_spt", HG_API_HIP_MEMCPY_TO_SYMBOL,
	   hipMemcpyToSymbol_spt(var, host, 16, 8, hipMemcpyHostToDevice),
	   var_dev + 8, host, 16, 1, PTDS, 0);
	cp("hipMemcpyToSymbolAsync_spt", HG_API_HIP_MEMCPY_TO_SYMBOL_ASYNC,
	   hipMemcpyToSymbolAsync_spt(var, host, 8, 0, hipMemcpyHostToDevice,
				      s),
	   var_dev, host, 8, 1, s, 1);
	cp("hipMemcpyFromSymbol_spt", HG_API_HIP_MEMCPY_FROM_SYMBOL,
	   hipMemcpyFromSymbol_spt(host, var, 24, 40, hipMemcpyDeviceToHost),
	   host, var_dev + 40, 24, 2, PTDS, 0);
	cp("hipMemcpyFromSymbolAsync_spt", HG_API_HIP_MEMCPY_FROM_SYMBOL_ASYNC,
	   hipMemcpyFromSymbolAsync_spt(host, var, 64, 0,
					hipMemcpyDeviceToHost, 0),
	   host, var_dev, 64, 2, PTDS, 1);
	set("hipMemset_spt", HG_API_HIP_MEMSET, hipMemset_spt(dev, 7, 100),
	    dev, 7, 100, PTDS);
	set("hipMemsetAsync_spt", HG_API_HIP_MEMSET_ASYNC,
	    hipMemsetAsync_spt(dev + 4, 8, 60, s), dev + 4, 8, 60, s);
	set("hipMemset2D_spt", HG_API_HIP_MEMSET_2D,
	    hipMemset2D_spt(dev, 64, 9, 32, 3), dev, 9, 192, PTDS);
	set("hipMemset2DAsync_spt", HG_API_HIP_MEMSET_2D_ASYNC,
	    hipMemset2DAsync_spt(dev, 64, 10, 32, 3, 0), dev, 10, 192, PTDS);
	set("hipMemset3D_spt", HG_API_HIP_MEMSET_3D,
	    hipMemset3D_spt(pp, 11, e), dev, 11, 384, PTDS);
	set("hipMemset3DAsync_spt", HG_API_HIP_MEMSET_3D_ASYNC,
	    hipMemset3DAsync_spt(pp, 12, e, s), dev, 12, 384, s);
}

static void more(char *dev, char *host, hipStream_t s)
{
	hipMemcpy3DParms p = params_3d(dev, host);
	hipPitchedPtr pp = make_hipPitchedPtr(dev, 64, 32, 4);
	hipExtent e = make_hipExtent(16, 4, 1);
	HIP_MEMCPY3D d3;
	hip_Memcpy2D d2;

	cp("hipMemcpy3D", HG_API_HIP_MEMCPY_3D, hipMemcpy3D(&p), AT_811(dev),
	   host, 64, 1, 0, 0);
	cp("hipMemcpy3DAsync", HG_API_HIP_MEMCPY_3D_ASYNC,
	   hipMemcpy3DAsync(&p, s), AT_811(dev), host, 64, 1, s, 1);

	memset(&d3, 0, sizeof(d3));
	d3.srcMemoryType = hipMemoryTypeHost;
	d3.srcHost = host;
	d3.srcPitch = 32;
	d3.srcHeight = 2;
	d3.dstMemoryType = hipMemoryTypeDevice;
	d3.dstDevice = dev;
	d3.dstXInBytes = 4;
	d3.dstY = 1;
	d3.dstZ = 1;
	d3.dstPitch = 64;
	d3.dstHeight = 4;
	d3.WidthInBytes = 16;
	d3.Height = 2;
	d3.Depth = 2;
	cp("hipDrvMemcpy3D", HG_API_HIP_DRV_MEMCPY_3D, hipDrvMemcpy3D(&d3),
	   dev + (1 * 4 + 1) * 64 + 4, host, 64, 1, 0, 0);
	cp("hipDrvMemcpy3DAsync", HG_API_HIP_DRV_MEMCPY_3D_ASYNC,
	   hipDrvMemcpy3DAsync(&d3, s), dev + (1 * 4 + 1) * 64 + 4, host, 64,
	   1, s, 1);

	memset(&d2, 0, sizeof(d2));
	d2.srcMemoryType = hipMemoryTypeDevice;
	d2.srcDevice = dev;
	d2.srcXInBytes = 8;
	d2.srcY = 2;
	d2.srcPitch = 64;
	d2.dstMemoryType = hipMemoryTypeHost;
	d2.dstHost = host;
	d2.dstPitch = 32;
	d2.WidthInBytes = 16;
	d2.Height = 3;
	cp("hipMemcpyParam2D", HG_API_HIP_MEMCPY_PARAM_2D,
	   hipMemcpyParam2D(&d2), host, dev + 2 * 64 + 8, 48, 2, 0, 0);
	cp("hipMemcpyParam2DAsync", HG_API_HIP_MEMCPY_PARAM_2D_ASYNC,
	   hipMemcpyParam2DAsync(&d2, s), host, dev + 2 * 64 + 8, 48, 2, s, 1);
	d2.dstMemoryType = hipMemoryTypeDevice;
	d2.dstDevice = dev + 4096;
	d2.dstPitch = 64;
	cp("hipDrvMemcpy2DUnaligned", HG_API_HIP_DRV_MEMCPY_2D_UNALIGNED,
	   hipDrvMemcpy2DUnaligned(&d2), dev + 4096, dev + 2 * 64 + 8, 48, 3,
	   0, 0);

	set("hipMemset2DAsync", HG_API_HIP_MEMSET_2D_ASYNC,
	    hipMemset2DAsync(dev, 64, 1, 32, 2, s), dev, 1, 128, s);
	set("hipMemset3D", HG_API_HIP_MEMSET_3D, hipMemset3D(pp, 2, e), dev, 2,
	    256, 0);
	set("hipMemset3DAsync", HG_API_HIP_MEMSET_3D_ASYNC,
	    hipMemset3DAsync(pp, 3, e, s), dev, 3, 256, s);
	set("hipMemsetD8Async", HG_API_HIP_MEMSET_D8_ASYNC,
	    hipMemsetD8Async(dev, 4, 10, s), dev, 4, 10, s);
	set("hipMemsetD16", HG_API_HIP_MEMSET_D16, hipMemsetD16(dev, 5, 10),
	    dev, 5, 20, 0);
	set("hipMemsetD16Async", HG_API_HIP_MEMSET_D16_ASYNC,
	    hipMemsetD16Async(dev, 6, 10, s), dev, 6, 20, s);
	set("hipMemsetD32Async", HG_API_HIP_MEMSET_D32_ASYNC,
	    hipMemsetD32Async(dev, 7, 10, s), dev, 7, 40, s);

	cp("hipMemcpyToSymbol", HG_API_HIP_MEMCPY_TO_SYMBOL,
	   hipMemcpyToSymbol(var, host, 64, 0, hipMemcpyHostToDevice), var_dev,
	   host, 64, 1, 0, 0);
	cp("hipMemcpyToSymbolAsync", HG_API_HIP_MEMCPY_TO_SYMBOL_ASYNC,
	   hipMemcpyToSymbolAsync(var, dev, 8, 56, hipMemcpyDeviceToDevice, s),
	   var_dev + 56, dev, 8, 3, s, 1);
	cp("hipMemcpyFromSymbol", HG_API_HIP_MEMCPY_FROM_SYMBOL,
	   hipMemcpyFromSymbol(host, var, 16, 16, hipMemcpyDeviceToHost), host,
	   var_dev + 16, 16, 2, 0, 0);
	cp("hipMemcpyFromSymbolAsync", HG_API_HIP_MEMCPY_FROM_SYMBOL_ASYNC,
	   hipMemcpyFromSymbolAsync(host, var, 8, 0, hipMemcpyDeviceToHost, s),
	   host, var_dev, 8, 2, s, 1);
}

/* NULL and zero-size calls: forwarded, and the runtime's answer recorded. */
static void nulls(char *dev, char *host, hipStream_t s)
{
	hipPitchedPtr none = make_hipPitchedPtr(NULL, 64, 32, 4);
	static int unknown;

	cp("hipMemcpy_spt NULL 0", HG_API_HIP_MEMCPY,
	   hipMemcpy_spt(NULL, NULL, 0, hipMemcpyDefault), NULL, NULL, 0, 4,
	   PTDS, 0);
	cp("hipMemcpy2D_spt width 0", HG_API_HIP_MEMCPY_2D,
	   hipMemcpy2D_spt(dev, 64, host, 32, 0, 4, hipMemcpyHostToDevice), dev,
	   host, 0, 1, PTDS, 0);
	cp("hipMemcpy3D NULL", HG_API_HIP_MEMCPY_3D, hipMemcpy3D(NULL), NULL,
	   NULL, 0, 4, 0, 0);
	cp("hipMemcpyParam2D NULL", HG_API_HIP_MEMCPY_PARAM_2D,
	   hipMemcpyParam2D(NULL), NULL, NULL, 0, 4, 0, 0);
	cp("hipDrvMemcpy3DAsync NULL", HG_API_HIP_DRV_MEMCPY_3D_ASYNC,
	   hipDrvMemcpy3DAsync(NULL, s), NULL, NULL, 0, 4, s, 1);
	cp("hipMemcpyToSymbol NULL", HG_API_HIP_MEMCPY_TO_SYMBOL,
	   hipMemcpyToSymbol(NULL, host, 0, 0, hipMemcpyHostToDevice), NULL,
	   host, 0, 1, 0, 0);
	cp("hipMemcpyFromSymbol unknown", HG_API_HIP_MEMCPY_FROM_SYMBOL,
	   hipMemcpyFromSymbol(host, &unknown, 4, 0, hipMemcpyDeviceToHost),
	   host, NULL, 4, 2, 0, 0);
	cp("hipMemcpyToSymbol past the end", HG_API_HIP_MEMCPY_TO_SYMBOL,
	   hipMemcpyToSymbol(var, host, 16, 60, hipMemcpyHostToDevice),
	   var_dev + 60, host, 16, 1, 0, 0);
	set("hipMemsetD16 NULL 0", HG_API_HIP_MEMSET_D16,
	    hipMemsetD16(NULL, 0, 0), NULL, 0, 0, 0);
	set("hipMemsetD32Async 0", HG_API_HIP_MEMSET_D32_ASYNC,
	    hipMemsetD32Async(dev, 0, 0, s), dev, 0, 0, s);
	set("hipMemset3D NULL", HG_API_HIP_MEMSET_3D,
	    hipMemset3D(none, 1, make_hipExtent(32, 3, 2)), NULL, 1, 384, 0);
	set("hipMemset3D_spt NULL", HG_API_HIP_MEMSET_3D,
	    hipMemset3D_spt(none, 1, make_hipExtent(32, 3, 2)), NULL, 1, 384,
	    PTDS);
}

/* Arrays are opaque: their side is recorded as 0.  16 floats by 4 rows. */
static void arrays(char *dev, char *host, hipStream_t s)
{
	hipChannelFormatDesc f = {.x = 32, .f = hipChannelFormatKindFloat};
	hipArray_t a = NULL, b = NULL;

	if (hipMallocArray(&a, &f, 16, 4, 0) != hipSuccess ||
	    hipMallocArray(&b, &f, 16, 4, 0) != hipSuccess) {
		printf("no arrays\n");
		return;
	}
	cp("hipMemcpyHtoA", HG_API_HIP_MEMCPY_HTOA,
	   hipMemcpyHtoA(a, 0, host, 64), NULL, host, 64, 1, 0, 0);
	cp("hipMemcpyHtoAAsync", HG_API_HIP_MEMCPY_HTOA_ASYNC,
	   hipMemcpyHtoAAsync(a, 64, host, 64, s), NULL, host, 64, 1, s, 1);
	cp("hipMemcpyAtoH", HG_API_HIP_MEMCPY_ATOH,
	   hipMemcpyAtoH(host, a, 0, 128), host, NULL, 128, 2, 0, 0);
	cp("hipMemcpyAtoHAsync", HG_API_HIP_MEMCPY_ATOH_ASYNC,
	   hipMemcpyAtoHAsync(host, a, 8, 16, s), host, NULL, 16, 2, s, 1);
	cp("hipMemcpyDtoA", HG_API_HIP_MEMCPY_DTOA,
	   hipMemcpyDtoA(a, 0, dev, 32), NULL, dev, 32, 3, 0, 0);
	cp("hipMemcpyAtoD", HG_API_HIP_MEMCPY_ATOD,
	   hipMemcpyAtoD(dev + 512, a, 0, 32), dev + 512, NULL, 32, 3, 0, 0);
	cp("hipMemcpyAtoA", HG_API_HIP_MEMCPY_ATOA,
	   hipMemcpyAtoA(b, 0, a, 0, 64), NULL, NULL, 64, 3, 0, 0);
	cp("hipMemcpyToArray", HG_API_HIP_MEMCPY_TO_ARRAY,
	   hipMemcpyToArray(a, 0, 1, host, 64, hipMemcpyHostToDevice), NULL,
	   host, 64, 1, 0, 0);
	cp("hipMemcpyFromArray", HG_API_HIP_MEMCPY_FROM_ARRAY,
	   hipMemcpyFromArray(host, a, 0, 1, 64, hipMemcpyDeviceToHost), host,
	   NULL, 64, 2, 0, 0);
	cp("hipMemcpyFromArray_spt", HG_API_HIP_MEMCPY_FROM_ARRAY,
	   hipMemcpyFromArray_spt(dev, a, 4, 0, 60, hipMemcpyDeviceToDevice),
	   dev, NULL, 60, 3, PTDS, 0);
	cp("hipMemcpy2DToArray", HG_API_HIP_MEMCPY_2D_TO_ARRAY,
	   hipMemcpy2DToArray(a, 0, 0, host, 32, 16, 3, hipMemcpyHostToDevice),
	   NULL, host, 48, 1, 0, 0);
	cp("hipMemcpy2DToArray_spt", HG_API_HIP_MEMCPY_2D_TO_ARRAY,
	   hipMemcpy2DToArray_spt(a, 4, 1, dev, 64, 8, 2,
				  hipMemcpyDeviceToDevice),
	   NULL, dev, 16, 3, PTDS, 0);
	cp("hipMemcpy2DToArrayAsync", HG_API_HIP_MEMCPY_2D_TO_ARRAY_ASYNC,
	   hipMemcpy2DToArrayAsync(a, 0, 0, host, 32, 16, 3,
				   hipMemcpyHostToDevice, s),
	   NULL, host, 48, 1, s, 1);
	cp("hipMemcpy2DToArrayAsync_spt", HG_API_HIP_MEMCPY_2D_TO_ARRAY_ASYNC,
	   hipMemcpy2DToArrayAsync_spt(a, 0, 0, host, 32, 16, 3,
				       hipMemcpyHostToDevice, 0),
	   NULL, host, 48, 1, PTDS, 1);
	cp("hipMemcpy2DFromArray", HG_API_HIP_MEMCPY_2D_FROM_ARRAY,
	   hipMemcpy2DFromArray(host, 32, a, 0, 0, 16, 3,
				hipMemcpyDeviceToHost),
	   host, NULL, 48, 2, 0, 0);
	cp("hipMemcpy2DFromArray_spt", HG_API_HIP_MEMCPY_2D_FROM_ARRAY,
	   hipMemcpy2DFromArray_spt(host, 32, a, 0, 0, 16, 3,
				    hipMemcpyDeviceToHost),
	   host, NULL, 48, 2, PTDS, 0);
	cp("hipMemcpy2DFromArrayAsync", HG_API_HIP_MEMCPY_2D_FROM_ARRAY_ASYNC,
	   hipMemcpy2DFromArrayAsync(host, 32, a, 0, 0, 16, 3,
				     hipMemcpyDeviceToHost, s),
	   host, NULL, 48, 2, s, 1);
	cp("hipMemcpy2DFromArrayAsync_spt",
	   HG_API_HIP_MEMCPY_2D_FROM_ARRAY_ASYNC,
	   hipMemcpy2DFromArrayAsync_spt(host, 32, a, 0, 0, 16, 3,
					 hipMemcpyDeviceToHost, s),
	   host, NULL, 48, 2, s, 1);
	cp("hipMemcpy2DArrayToArray", HG_API_HIP_MEMCPY_2D_ARRAY_TO_ARRAY,
	   hipMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, 16, 2,
				   hipMemcpyDeviceToDevice),
	   NULL, NULL, 32, 3, 0, 0);
	cp("hipMemcpyHtoA NULL", HG_API_HIP_MEMCPY_HTOA,
	   hipMemcpyHtoA(NULL, 0, host, 16), NULL, host, 16, 1, 0, 0);
	cp("hipMemcpyAtoH past the end", HG_API_HIP_MEMCPY_ATOH,
	   hipMemcpyAtoH(host, a, 250, 16), host, NULL, 16, 2, 0, 0);
	cp("hipMemcpyToArray 0", HG_API_HIP_MEMCPY_TO_ARRAY,
	   hipMemcpyToArray(a, 0, 0, NULL, 0, hipMemcpyHostToDevice), NULL,
	   NULL, 0, 1, 0, 0);
	hipFreeArray(a);
	hipFreeArray(b);
}

int main(int argc, char **argv)
{
	char *dev = NULL, *host = malloc(8192);
	hipStream_t s = NULL;
	void *at = NULL;

	__hipRegisterVar(NULL, var, "var", "var", 0, sizeof(var), 0, 0);
	if (!host || hipMalloc((void **)&dev, 8192) != hipSuccess ||
	    hipStreamCreate(&s) != hipSuccess ||
	    hipGetSymbolAddress(&at, var) != hipSuccess) {
		fprintf(stderr, "hg-copies: no device memory, stream or symbol\n");
		return 1;
	}
	var_dev = at;
	memset(host, 0x5a, 8192);
	printf("dev=%lu host=%lu var=%lu\n", U(dev), U(host), U(var_dev));
	spt(dev, host, s);
	more(dev, host, s);
	nulls(dev, host, s);
	arrays(dev, host, s);
	return hipFree(dev) != hipSuccess;
}
