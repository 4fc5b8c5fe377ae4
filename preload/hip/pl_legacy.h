/* SPDX-License-Identifier: MIT */
/*
 * The launch API before HIP 3, as CUDA's before it: hipConfigureCall pushes
 * a configuration, hipSetupArgument copies each argument to its offset, and
 * hipLaunchByPtr launches the kernel with them (pl_legacy.c).
 */
#ifndef PL_LEGACY_H
#define PL_LEGACY_H

#include "pl_hip.h"

void pl_legacy_configure(hipError_t rc, dim3 grid, dim3 block, size_t shmem,
			 hipStream_t stream);
void pl_legacy_argument(hipError_t rc, const void *arg, size_t size,
			size_t offset);
void pl_legacy_launch(hipError_t rc, const void *func);

#endif
