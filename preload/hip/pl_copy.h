/* SPDX-License-Identifier: MIT */
/*
 * Copies and sets whose meaning is not in their arguments alone: 3D and
 * parameter-block copies (a pitched pointer and a position per side),
 * symbol copies (the device side is the symbol's address) and the
 * per-thread default stream forms (_spt).  Recorded as the memcpy and
 * memset events of the plain forms.
 */
#ifndef PL_COPY_H
#define PL_COPY_H

#include "pl_hip.h"

/* The stream an _spt call's work goes to: the one it names, else this
 * thread's default stream (a null stream means that there). */
#define PL_SPT(st) ((st) ? (st) : hipStreamPerThread)

/* Before a symbol copy: the symbol's device address, asked of the runtime
 * (hipGetSymbolAddress) before the copy so that the copy's own error is
 * the one hipGetLastError reads back.  0 when the runtime does not know
 * the symbol. */
void pl_copy_learn_symbol(const void *symbol);
void pl_copy_rec_to_symbol(uint8_t api, hipError_t rc, const void *src,
			   size_t n, size_t off, int kind, hipStream_t st,
			   int async);
void pl_copy_rec_from_symbol(uint8_t api, hipError_t rc, void *dst, size_t n,
			     size_t off, int kind, hipStream_t st, int async);

void pl_copy_rec_3d(uint8_t api, hipError_t rc, const hipMemcpy3DParms *p,
		    hipStream_t st, int async);
/* The driver forms name each side by a memory type, whose numbers ROCm 6
 * changed: the runtime's version says which (pl_vm_learn_layout, before
 * the call). */
void pl_copy_rec_param_2d(uint8_t api, hipError_t rc, const hip_Memcpy2D *p,
			  hipStream_t st, int async);
void pl_copy_rec_drv_3d(uint8_t api, hipError_t rc, const HIP_MEMCPY3D *p,
			hipStream_t st, int async);
void pl_copy_rec_set_3d(uint8_t api, hipError_t rc, hipPitchedPtr pp,
			int value, hipExtent e, hipStream_t st);

#endif
