/* SPDX-License-Identifier: MIT */
/*
 * Every form of a graph's copy and set nodes, linked against the .so.6
 * test double (which has ROCm 6's driver forms): nodes added, set anew in
 * the graph (before instantiation, and after it, which must not count),
 * and set anew in the executable graph; one launch.  Prints what the
 * launch must show, one line each:
 *   copy DST SRC BYTES KIND / set DST BYTES VALUE
 * and, for the calls made with NULL arguments, "null API RC".
 */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#include "hg_check.h"
#include "hg_hip_compat.h"

/* Exported by the runtime for the compiler's registration code. */
void __hipRegisterVar(void **modules, void *var, char *host_var,
		      char *device_var, int ext, size_t size, int constant,
		      int global);

#define MT6_HOST ((hipMemoryType)1) /* ROCm 6's numbering */
#define MT6_DEVICE ((hipMemoryType)2)

static char symbol[256];
static char *dsym; /* its device address, the runtime's answer */
static char *dev, *host;
static hipGraph_t g;

static hipMemcpy3DParms p3(char *dst, const char *src, size_t w, size_t h,
			   hipMemcpyKind k)
{
	hipMemcpy3DParms p = {0};

	p.dstPtr = make_hipPitchedPtr(dst, 256, w, h);
	p.srcPtr = make_hipPitchedPtr((void *)src, 512, w, h);
	p.dstPos = (hipPos){8, 1, 0}; /* 8 bytes, one row in */
	p.extent = (hipExtent){w, h, 1};
	p.kind = k;
	return p;
}

static HIP_MEMCPY3D drv(char *dst, const char *src, unsigned w)
{
	HIP_MEMCPY3D p = {0};

	p.dstMemoryType = MT6_DEVICE;
	p.dstDevice = dst;
	p.srcMemoryType = MT6_HOST;
	p.srcHost = src;
	p.srcXInBytes = 16;
	p.WidthInBytes = w;
	p.Height = p.Depth = 1;
	return p;
}

static void copy(const char *d, const char *s, size_t n, int k)
{
	printf("copy %p %p %zu %d\n", (void *)d, (void *)s, n, k);
}

static void set(const char *d, size_t n, int v)
{
	printf("set %p %zu %d\n", (void *)d, n, v);
}

static hipGraphNode_t add(int what)
{
	hipGraphNode_t n;
	hipMemcpy3DParms p = p3(dev, host, 64, 2, hipMemcpyHostToDevice);
	hipMemsetParams m = {.dst = dev + 4096, .elementSize = 1,
			     .width = 100, .height = 1, .value = 7};
	HIP_MEMCPY3D d = drv(dev + 8192, host, 32);
	HIP_MEMSET_NODE_PARAMS dm = {.dst = dev + 12288, .elementSize = 4,
				     .width = 10, .height = 1, .value = 9};

	switch (what) {
	case 0:
		CHECK(hipGraphAddMemcpyNode(&n, g, NULL, 0, &p));
		break;
	case 1:
		CHECK(hipGraphAddMemcpyNode1D(&n, g, NULL, 0, dev, host, 128,
					      hipMemcpyHostToDevice));
		break;
	case 2:
		CHECK(hipGraphAddMemsetNode(&n, g, NULL, 0, &m));
		break;
	case 3:
		CHECK(hipDrvGraphAddMemcpyNode(&n, g, NULL, 0, &d, NULL));
		break;
	case 4:
		CHECK(hipDrvGraphAddMemsetNode(&n, g, NULL, 0, &dm, NULL));
		break;
	case 5:
		CHECK(hipGraphAddMemcpyNodeToSymbol(&n, g, NULL, 0, symbol, host,
						    64, 16,
						    hipMemcpyHostToDevice));
		break;
	default:
		CHECK(hipGraphAddMemcpyNodeFromSymbol(&n, g, NULL, 0, host,
						      symbol, 32, 0,
						      hipMemcpyDeviceToHost));
	}
	return n;
}

static hipMemsetParams mset(char *dst, unsigned elem, size_t w, unsigned v)
{
	return (hipMemsetParams){.dst = dst, .elementSize = elem, .width = w,
				 .height = 1, .value = v};
}

/* Set anew in the graph, before instantiation: what the launch runs. */
static void set_in_graph(hipGraphNode_t *n)
{
	hipMemcpy3DParms p = p3(dev + 2048, host + 512, 16, 3,
				hipMemcpyHostToDevice);
	hipMemsetParams m = mset(dev + 5000, 1, 50, 3);
	HIP_MEMCPY3D d = drv(dev + 10000, host + 8, 24);

	CHECK(hipGraphMemcpyNodeSetParams1D(n[1], dev + 64, host + 64, 256,
					    hipMemcpyHostToDevice));
	copy(dev + 64, host + 64, 256, 1);
	CHECK(hipGraphMemsetNodeSetParams(n[2], &m));
	set(dev + 5000, 50, 3);
	CHECK(hipGraphMemcpyNodeSetParamsFromSymbol(n[6], host + 200, symbol,
						    16, 8,
						    hipMemcpyDeviceToHost));
	copy(host + 200, dsym + 8, 16, 2);
	CHECK(hipGraphMemcpyNodeSetParams(n[7], &p));
	copy(dev + 2048 + 8 + 256, host + 512, 48, 1);
	CHECK(hipDrvGraphMemcpyNodeSetParams(n[12], &d));
	copy(dev + 10000, host + 8 + 16, 24, 1);
	CHECK(hipGraphMemcpyNodeSetParamsToSymbol(n[13], symbol, host + 16, 8,
						  100, hipMemcpyHostToDevice));
	copy(dsym + 100, host + 16, 8, 1);
}

/* Set anew in the executable graph. */
static void set_in_exec(hipGraphExec_t x, hipGraphNode_t *n)
{
	hipMemcpy3DParms p = p3(dev + 3000, host + 40, 8, 1,
				hipMemcpyHostToDevice);
	hipMemsetParams m = mset(dev + 6000, 1, 30, 1);
	HIP_MEMCPY3D d = drv(dev + 9000, host + 100, 48);
	HIP_MEMSET_NODE_PARAMS dm = {.dst = dev + 13000, .elementSize = 2,
				     .width = 8, .height = 1, .value = 5};

	CHECK(hipDrvGraphExecMemcpyNodeSetParams(x, n[3], &d, NULL));
	copy(dev + 9000, host + 116, 48, 1);
	CHECK(hipDrvGraphExecMemsetNodeSetParams(x, n[4], &dm, NULL));
	set(dev + 13000, 16, 5);
	CHECK(hipGraphExecMemcpyNodeSetParamsToSymbol(
		x, n[5], symbol, host + 8, 32, 64, hipMemcpyHostToDevice));
	copy(dsym + 64, host + 8, 32, 1);
	CHECK(hipGraphExecMemcpyNodeSetParams1D(x, n[8], dev + 300, host + 300,
						20, hipMemcpyHostToDevice));
	copy(dev + 300, host + 300, 20, 1);
	CHECK(hipGraphExecMemcpyNodeSetParams(x, n[9], &p));
	copy(dev + 3000 + 8 + 256, host + 40, 8, 1);
	CHECK(hipGraphExecMemsetNodeSetParams(x, n[10], &m));
	set(dev + 6000, 30, 1);
	CHECK(hipGraphExecMemcpyNodeSetParamsFromSymbol(
		x, n[11], host + 400, symbol, 8, 4, hipMemcpyDeviceToHost));
	copy(host + 400, dsym + 4, 8, 2);
}

/* Changes to the graph after instantiation do not reach the launch, and
 * calls with NULL arguments reach the runtime, whose error is recorded. */
static void late_and_null(hipGraphExec_t x, hipGraphNode_t *n)
{
	hipMemsetParams m = mset(dev + 7000, 1, 10, 2);
	hipGraphNode_t none;

	CHECK(hipGraphMemsetNodeSetParams(n[2], &m));
	CHECK(hipGraphMemcpyNodeSetParams1D(n[1], dev + 7777, host, 1,
					    hipMemcpyHostToDevice));
	printf("null 200 %d\n", hipGraphAddMemcpyNode(&none, g, NULL, 0, NULL));
	printf("null 212 %d\n", hipGraphExecMemsetNodeSetParams(x, n[2], NULL));
	printf("null 213 %d\n",
	       hipDrvGraphAddMemcpyNode(&none, g, NULL, 0, NULL, NULL));
}

int main(void)
{
	/* what add() makes: 3D, 1D, set, drv copy, drv set, to and from a
	 * symbol; then one of each to set anew */
	static const int kinds[14] = {0, 1, 2, 3, 4, 5, 6, 0, 1, 1, 2, 6, 3, 5};
	hipGraphNode_t n[14];
	hipGraphExec_t x;
	hipStream_t s;

	__hipRegisterVar(NULL, symbol, "symbol", "symbol", 0, sizeof(symbol),
			 0, 0);
	CHECK(hipGetSymbolAddress((void **)&dsym, symbol));
	CHECK(hipMalloc((void **)&dev, 16384));
	host = malloc(4096);
	CHECK(hipStreamCreate(&s));
	CHECK(hipGraphCreate(&g, 0));
	for (int i = 0; i < 14; i++)
		n[i] = add(kinds[i]);
	/* the one node nothing sets anew */
	copy(dev + 8 + 256, host, 128, 1);
	set_in_graph(n);
	CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
	set_in_exec(x, n);
	late_and_null(x, n);
	CHECK(hipGraphLaunch(x, s));
	CHECK(hipStreamSynchronize(s));
	CHECK(hipGraphExecDestroy(x));
	CHECK(hipGraphDestroy(g));
	CHECK(hipFree(dev));
	free(host);
	return 0;
}
