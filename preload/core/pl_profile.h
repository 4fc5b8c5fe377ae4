/* SPDX-License-Identifier: MIT */
#ifndef PL_PROFILE_H
#define PL_PROFILE_H

#include "reg.h"

/* Read the kernel's code object for the current device, fill in where its
 * pointer arguments sit, and emit its `kernel` event.  Called once. */
void pl_profile_kernel(struct reg_kernel *k);
/* A module is going away and no device could run its kernels: emit the
 * kernels that never launched, for every target the module carries, so the
 * report can still name the dangerous ones. */
void pl_profile_unlaunched(uint64_t module);

#endif
