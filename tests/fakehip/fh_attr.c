/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE: hipDeviceGetAttribute and hipDeviceGetName, read from the
 * same properties hipGetDeviceProperties reports so the two never disagree.
 * Benchmark programs (HeCBench's atomics among them) ask for attributes
 * before anything else; an attribute the double has no value for answers
 * hipErrorNotSupported rather than a made-up number.
 */
#include "fh.h"

#include <string.h>

static int attr_of(const hipDeviceProp_t *p, hipDeviceAttribute_t a, int *v)
{
	switch (a) {
	case hipDeviceAttributeMaxThreadsPerBlock:
		*v = p->maxThreadsPerBlock;
		break;
	case hipDeviceAttributeWarpSize:
		*v = p->warpSize;
		break;
	case hipDeviceAttributeMultiprocessorCount:
		*v = p->multiProcessorCount;
		break;
	case hipDeviceAttributeComputeCapabilityMajor:
		*v = p->major;
		break;
	case hipDeviceAttributeComputeCapabilityMinor:
		*v = p->minor;
		break;
	case hipDeviceAttributeMaxSharedMemoryPerBlock:
		*v = (int)p->sharedMemPerBlock;
		break;
	case hipDeviceAttributeClockRate:
		*v = p->clockRate;
		break;
	case hipDeviceAttributeMemoryClockRate:
		*v = p->memoryClockRate;
		break;
	case hipDeviceAttributeMemoryBusWidth:
		*v = p->memoryBusWidth;
		break;
	case hipDeviceAttributeL2CacheSize:
		*v = p->l2CacheSize;
		break;
	case hipDeviceAttributeMaxThreadsPerMultiProcessor:
		*v = p->maxThreadsPerMultiProcessor;
		break;
	case hipDeviceAttributeMaxBlockDimX:
		*v = p->maxThreadsDim[0];
		break;
	case hipDeviceAttributeMaxBlockDimY:
		*v = p->maxThreadsDim[1];
		break;
	case hipDeviceAttributeMaxBlockDimZ:
		*v = p->maxThreadsDim[2];
		break;
	case hipDeviceAttributeMaxGridDimX:
		*v = p->maxGridSize[0];
		break;
	case hipDeviceAttributeMaxGridDimY:
		*v = p->maxGridSize[1];
		break;
	case hipDeviceAttributeMaxGridDimZ:
		*v = p->maxGridSize[2];
		break;
	case hipDeviceAttributeMaxRegistersPerBlock:
		*v = p->regsPerBlock;
		break;
	default:
		return 0;
	}
	return 1;
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr,
				 int device)
{
	hipDeviceProp_t p;
	hipError_t rc;

	if (!value)
		return fh_ret(hipErrorInvalidValue);
	rc = hipGetDeviceProperties(&p, device);
	if (rc != hipSuccess)
		return rc;
	return fh_ret(attr_of(&p, attr, value) ? hipSuccess
					       : hipErrorNotSupported);
}

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device)
{
	hipDeviceProp_t p;
	hipError_t rc;

	if (!name || len <= 0)
		return fh_ret(hipErrorInvalidValue);
	rc = hipGetDeviceProperties(&p, device);
	if (rc != hipSuccess)
		return rc;
	strncpy(name, p.name, (size_t)len - 1);
	name[len - 1] = '\0';
	return fh_ret(hipSuccess);
}
