/* SPDX-License-Identifier: MIT */
/*
 * A graph allocation node (ROCm 5.5+: hipGraphAddMemAllocNode), linked
 * against the .so.6 test double, which has it.  argv[1] names where the
 * node's pool properties put the memory: "device" (coarse) or "host"
 * (ROCm 7's hipMemLocationTypeHost: fine).  Prints the pointer.
 */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "hg_hip_compat.h"

int main(int argc, char **argv)
{
	int host = argc == 2 && strcmp(argv[1], "host") == 0;
	hipMemAllocNodeParams p;
	hipGraphNode_t node;
	hipGraph_t g;
	hipError_t rc;

	memset(&p, 0, sizeof(p));
	p.poolProps.allocType = hipMemAllocationTypePinned;
	p.poolProps.location.type =
		host ? (hipMemLocationType)2 : hipMemLocationTypeDevice;
	p.bytesize = 8192;
	rc = hipGraphCreate(&g, 0);
	if (rc == hipSuccess)
		rc = hipGraphAddMemAllocNode(&node, g, NULL, 0, &p);
	printf("hipGraphAddMemAllocNode %s -> %s ptr=%p\n",
	       host ? "host" : "device", hipGetErrorName(rc), p.dptr);
	if (rc == hipSuccess)
		rc = hipFree(p.dptr);
	if (rc == hipSuccess)
		rc = hipGraphDestroy(g);
	return rc != hipSuccess;
}
