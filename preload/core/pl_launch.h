/* SPDX-License-Identifier: MIT */
/* A launch: which allocation every pointer argument reaches, written or
 * counted (pl_launch.c). */
#ifndef PL_LAUNCH_H
#define PL_LAUNCH_H

#include <stdbool.h>

#include "pl_hip.h"

/* A launch call's bounds, so that what ends the process on its own (a
 * fatal GPU fault the virtual GPU raises) waits for its record. */
extern bool pl_launch_watched; /* a virtual GPU is in the process */
void pl_launch_begin(void);
void pl_launch_end(void);
/* Waits (a bounded while) until no other thread is inside a launch call,
 * then writes every thread's counted launches. */
void pl_launch_settle(void);
void pl_rec_launch(uint8_t api, hipError_t rc, const void *handle, dim3 grid,
		   dim3 block, void **args, void **extra, size_t shmem,
		   hipStream_t stream);
/* A launch whose args array the caller built, `nargs` long, on the GPU
 * the caller names (a front end other than HIP: an OpenMP target region,
 * whose device is its own argument, not the thread's HIP device). */
void pl_rec_launch_n(uint8_t api, int rc, const void *handle, dim3 grid,
		     dim3 block, void **args, size_t nargs, int device);
/* The same with a stream (a graph's node, its values kept since it was
 * added). */
void pl_rec_launch_args(uint8_t api, int rc, const void *handle, dim3 grid,
			dim3 block, void **args, size_t nargs, size_t shmem,
			hipStream_t stream);
/* A kernel's argument layout (profiling it, as its first launch does), and
 * the pointer values a launch's args or extra hold now. */
struct reg_kernel;
const struct reg_kernel *pl_launch_layout(const void *handle);
uint16_t pl_launch_read(const struct reg_kernel *k, void **args, void **extra,
			uint16_t *idx, uint64_t *val);
/* Write the launches this thread counted but has not written yet. */
void pl_launch_flush(void);
/* ... and every thread's, at exit. */
void pl_launch_flush_all(void);
/* In a forked child: the parent's counted launches are the parent's. */
void pl_launch_forget(void);

#endif
