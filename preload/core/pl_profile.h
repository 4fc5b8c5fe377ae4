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

/* "app.hip:42" for each code offset of kernel `name` (its symbol without
 * ".kd"), from the code object of a module whose kernel it is, or "" where
 * the object says nothing: the lines of a race the virtual GPU saw. */
void pl_profile_lines(const char *name, const uint64_t *off, size_t n,
		      char (*out)[96]);

#endif
