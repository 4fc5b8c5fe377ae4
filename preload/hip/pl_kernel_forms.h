/* SPDX-License-Identifier: MIT */
/*
 * Kernel entry points beyond hipLaunchKernel, in the form of pl_hip_table.h:
 * two launch forms (each resolved as hipLaunchKernel's launches are) and
 * hipModuleUnload, after which the registry forgets the module's kernels.
 */
#ifndef PL_KERNEL_FORMS_H
#define PL_KERNEL_FORMS_H

#include "pl_device.h"
#include "pl_hip.h"
#include "pl_hip_table.h"

/* hip_ext.h is C++ only (default arguments); ROCm 6 exports it. */
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t bx, uint32_t by,
				    uint32_t bz, size_t shm, hipStream_t st,
				    void **args, void **extra, hipEvent_t e0,
				    hipEvent_t e1);

/* One launch per entry, each on its own stream. */
void pl_rec_multi_kernel(hipError_t rc, hipLaunchParams *l, int n);
/* Before the unload: launches counted but not written name the module's
 * kernels, so they are written first (and, without a device, its kernels
 * never launched are read, as at __hipUnregisterFatBinary). */
void pl_module_unload_begin(hipModule_t m);
void pl_rec_module_unload(hipError_t rc, hipModule_t m);

/* The grid of a launch given in work items, as hipExtModuleLaunchKernel's. */
#define PL_GRID_OF_WORK(gx, gy, gz, bx, by, bz)                                \
	(dim3){gx / (bx ? bx : 1), gy / (by ? by : 1), gz / (bz ? bz : 1)}

#define PL_KERNEL_FORMS_TABLE(X)                                                \
	X(hipHccModuleLaunchKernel,                                            \
	  (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,             \
	   uint32_t bx, uint32_t by, uint32_t bz, size_t shm, hipStream_t st,  \
	   void **args, void **extra, hipEvent_t e0, hipEvent_t e1),           \
	  (f, gx, gy, gz, bx, by, bz, shm, st, args, extra, e0, e1),           \
	  PL_Q_LAUNCH, PL_NONE,                                                \
	  pl_graph_launch_or_capture(HG_API_HIP_HCC_MODULE_LAUNCH_KERNEL, rc,  \
				     f,                                        \
				     PL_GRID_OF_WORK(gx, gy, gz, bx, by, bz),  \
				     (dim3){bx, by, bz}, args, extra, shm,     \
				     st))                                      \
	X(hipExtLaunchMultiKernelMultiDevice,                                  \
	  (hipLaunchParams * l, int n, unsigned int fl), (l, n, fl),           \
	  PL_Q_LAUNCH, PL_NONE, pl_rec_multi_kernel(rc, l, n))                 \
	X(hipModuleUnload, (hipModule_t m), (m), 0, pl_module_unload_begin(m), \
	  pl_rec_module_unload(rc, m))

#endif
