/* SPDX-License-Identifier: MIT */
/*
 * More copies and sets, in the form of pl_hip_table.h (whose PL_COPY and
 * PL_SET they use): the per-thread default stream forms, recorded as their
 * plain forms with that stream (PL_SPT), then 3D, parameter-block, symbol
 * and 16-bit forms.
 */
#ifndef PL_COPY_TABLE_H
#define PL_COPY_TABLE_H

#include "pl_copy.h"
#include "pl_hip_table.h"

#define PL_PTDS hipStreamPerThread

#define PL_SPT_COPY_TABLE(X)                                                   \
	X(hipMemcpy_spt, (void *d, const void *s, size_t n, hipMemcpyKind k),  \
	  (d, s, n, k), 0, PL_NONE,                                            \
	  PL_COPY(HG_API_HIP_MEMCPY, d, s, n, k, PL_PTDS, 0))                  \
	X(hipMemcpyAsync_spt,                                                  \
	  (void *d, const void *s, size_t n, hipMemcpyKind k, hipStream_t st), \
	  (d, s, n, k, st), 0, PL_NONE,                                        \
	  PL_COPY(HG_API_HIP_MEMCPY_ASYNC, d, s, n, k, PL_SPT(st), 1))         \
	X(hipMemcpy2D_spt,                                                     \
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,   \
	   hipMemcpyKind k),                                                   \
	  (d, dp, s, sp, w, h, k), 0, PL_NONE,                                 \
	  PL_COPY(HG_API_HIP_MEMCPY_2D, d, s, w * h, k, PL_PTDS, 0))           \
	X(hipMemcpy2DAsync_spt,                                                \
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,   \
	   hipMemcpyKind k, hipStream_t st),                                   \
	  (d, dp, s, sp, w, h, k, st), 0, PL_NONE,                             \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_ASYNC, d, s, w * h, k, PL_SPT(st), 1))  \
	X(hipMemcpy3D_spt, (const hipMemcpy3DParms *p), (p), 0, PL_NONE,      \
	  pl_copy_rec_3d(HG_API_HIP_MEMCPY_3D, rc, p, PL_PTDS, 0))             \
	X(hipMemcpy3DAsync_spt, (const hipMemcpy3DParms *p, hipStream_t st),  \
	  (p, st), 0, PL_NONE,                                                 \
	  pl_copy_rec_3d(HG_API_HIP_MEMCPY_3D_ASYNC, rc, p, PL_SPT(st), 1))    \
	X(hipMemcpyToSymbol_spt,                                               \
	  (const void *sym, const void *s, size_t n, size_t off,               \
	   hipMemcpyKind k),                                                   \
	  (sym, s, n, off, k), 0, pl_copy_learn_symbol(sym),                   \
	  pl_copy_rec_to_symbol(HG_API_HIP_MEMCPY_TO_SYMBOL, rc, s, n, off, k, \
				PL_PTDS, 0))                                   \
	X(hipMemcpyToSymbolAsync_spt,                                          \
	  (const void *sym, const void *s, size_t n, size_t off,               \
	   hipMemcpyKind k, hipStream_t st),                                   \
	  (sym, s, n, off, k, st), 0, pl_copy_learn_symbol(sym),               \
	  pl_copy_rec_to_symbol(HG_API_HIP_MEMCPY_TO_SYMBOL_ASYNC, rc, s, n,   \
				off, k, PL_SPT(st), 1))                        \
	X(hipMemcpyFromSymbol_spt,                                             \
	  (void *d, const void *sym, size_t n, size_t off, hipMemcpyKind k),   \
	  (d, sym, n, off, k), 0, pl_copy_learn_symbol(sym),                   \
	  pl_copy_rec_from_symbol(HG_API_HIP_MEMCPY_FROM_SYMBOL, rc, d, n,     \
				  off, k, PL_PTDS, 0))                         \
	X(hipMemcpyFromSymbolAsync_spt,                                        \
	  (void *d, const void *sym, size_t n, size_t off, hipMemcpyKind k,    \
	   hipStream_t st),                                                    \
	  (d, sym, n, off, k, st), 0, pl_copy_learn_symbol(sym),               \
	  pl_copy_rec_from_symbol(HG_API_HIP_MEMCPY_FROM_SYMBOL_ASYNC, rc, d,  \
				  n, off, k, PL_SPT(st), 1))

#define PL_SPT_SET_TABLE(X)                                                    \
	X(hipMemset_spt, (void *d, int v, size_t n), (d, v, n), 0, PL_NONE,    \
	  PL_SET(HG_API_HIP_MEMSET, d, v, n, PL_PTDS))                         \
	X(hipMemsetAsync_spt, (void *d, int v, size_t n, hipStream_t st),      \
	  (d, v, n, st), 0, PL_NONE,                                           \
	  PL_SET(HG_API_HIP_MEMSET_ASYNC, d, v, n, PL_SPT(st)))                \
	X(hipMemset2D_spt, (void *d, size_t p, int v, size_t w, size_t h),     \
	  (d, p, v, w, h), 0, PL_NONE,                                         \
	  PL_SET(HG_API_HIP_MEMSET_2D, d, v, p * h, PL_PTDS))                  \
	X(hipMemset2DAsync_spt,                                                \
	  (void *d, size_t p, int v, size_t w, size_t h, hipStream_t st),      \
	  (d, p, v, w, h, st), 0, PL_NONE,                                     \
	  PL_SET(HG_API_HIP_MEMSET_2D_ASYNC, d, v, p * h, PL_SPT(st)))         \
	X(hipMemset3D_spt, (hipPitchedPtr pp, int v, hipExtent e), (pp, v, e), \
	  0, PL_NONE,                                                          \
	  pl_copy_rec_set_3d(HG_API_HIP_MEMSET_3D, rc, pp, v, e, PL_PTDS))     \
	X(hipMemset3DAsync_spt,                                                \
	  (hipPitchedPtr pp, int v, hipExtent e, hipStream_t st),              \
	  (pp, v, e, st), 0, PL_NONE,                                          \
	  pl_copy_rec_set_3d(HG_API_HIP_MEMSET_3D_ASYNC, rc, pp, v, e,         \
			     PL_SPT(st)))

#define PL_MORE_COPY_TABLE(X)                                                  \
	X(hipMemcpy3D, (const hipMemcpy3DParms *p), (p), 0, PL_NONE,          \
	  pl_copy_rec_3d(HG_API_HIP_MEMCPY_3D, rc, p, 0, 0))                   \
	X(hipMemcpy3DAsync, (const hipMemcpy3DParms *p, hipStream_t st),      \
	  (p, st), 0, PL_NONE,                                                 \
	  pl_copy_rec_3d(HG_API_HIP_MEMCPY_3D_ASYNC, rc, p, st, 1))            \
	X(hipDrvMemcpy3D, (const HIP_MEMCPY3D *p), (p), 0,                     \
	  pl_vm_learn_layout(),                                                \
	  pl_copy_rec_drv_3d(HG_API_HIP_DRV_MEMCPY_3D, rc, p, 0, 0))           \
	X(hipDrvMemcpy3DAsync, (const HIP_MEMCPY3D *p, hipStream_t st),        \
	  (p, st), 0, pl_vm_learn_layout(),                                    \
	  pl_copy_rec_drv_3d(HG_API_HIP_DRV_MEMCPY_3D_ASYNC, rc, p, st, 1))    \
	X(hipMemcpyParam2D, (const hip_Memcpy2D *p), (p), 0,                   \
	  pl_vm_learn_layout(),                                                \
	  pl_copy_rec_param_2d(HG_API_HIP_MEMCPY_PARAM_2D, rc, p, 0, 0))       \
	X(hipMemcpyParam2DAsync, (const hip_Memcpy2D *p, hipStream_t st),      \
	  (p, st), 0, pl_vm_learn_layout(),                                    \
	  pl_copy_rec_param_2d(HG_API_HIP_MEMCPY_PARAM_2D_ASYNC, rc, p, st, 1))\
	X(hipDrvMemcpy2DUnaligned, (const hip_Memcpy2D *p), (p), 0,            \
	  pl_vm_learn_layout(),                                                \
	  pl_copy_rec_param_2d(HG_API_HIP_DRV_MEMCPY_2D_UNALIGNED, rc, p, 0,   \
			       0))                                             \
	X(hipMemcpyToSymbol,                                                   \
	  (const void *sym, const void *s, size_t n, size_t off,               \
	   hipMemcpyKind k),                                                   \
	  (sym, s, n, off, k), 0, pl_copy_learn_symbol(sym),                   \
	  pl_copy_rec_to_symbol(HG_API_HIP_MEMCPY_TO_SYMBOL, rc, s, n, off, k, \
				0, 0))                                         \
	X(hipMemcpyToSymbolAsync,                                              \
	  (const void *sym, const void *s, size_t n, size_t off,               \
	   hipMemcpyKind k, hipStream_t st),                                   \
	  (sym, s, n, off, k, st), 0, pl_copy_learn_symbol(sym),               \
	  pl_copy_rec_to_symbol(HG_API_HIP_MEMCPY_TO_SYMBOL_ASYNC, rc, s, n,   \
				off, k, st, 1))                                \
	X(hipMemcpyFromSymbol,                                                 \
	  (void *d, const void *sym, size_t n, size_t off, hipMemcpyKind k),   \
	  (d, sym, n, off, k), 0, pl_copy_learn_symbol(sym),                   \
	  pl_copy_rec_from_symbol(HG_API_HIP_MEMCPY_FROM_SYMBOL, rc, d, n,     \
				  off, k, 0, 0))                               \
	X(hipMemcpyFromSymbolAsync,                                            \
	  (void *d, const void *sym, size_t n, size_t off, hipMemcpyKind k,    \
	   hipStream_t st),                                                    \
	  (d, sym, n, off, k, st), 0, pl_copy_learn_symbol(sym),               \
	  pl_copy_rec_from_symbol(HG_API_HIP_MEMCPY_FROM_SYMBOL_ASYNC, rc, d,  \
				  n, off, k, st, 1))

#define PL_MORE_SET_TABLE(X)                                                   \
	X(hipMemset2DAsync,                                                    \
	  (void *d, size_t p, int v, size_t w, size_t h, hipStream_t st),      \
	  (d, p, v, w, h, st), 0, PL_NONE,                                     \
	  PL_SET(HG_API_HIP_MEMSET_2D_ASYNC, d, v, p * h, st))                 \
	X(hipMemset3D, (hipPitchedPtr pp, int v, hipExtent e), (pp, v, e), 0,  \
	  PL_NONE, pl_copy_rec_set_3d(HG_API_HIP_MEMSET_3D, rc, pp, v, e, 0))  \
	X(hipMemset3DAsync,                                                    \
	  (hipPitchedPtr pp, int v, hipExtent e, hipStream_t st),              \
	  (pp, v, e, st), 0, PL_NONE,                                          \
	  pl_copy_rec_set_3d(HG_API_HIP_MEMSET_3D_ASYNC, rc, pp, v, e, st))    \
	X(hipMemsetD8Async,                                                    \
	  (hipDeviceptr_t d, unsigned char v, size_t n, hipStream_t st),       \
	  (d, v, n, st), 0, PL_NONE,                                           \
	  PL_SET(HG_API_HIP_MEMSET_D8_ASYNC, d, v, n, st))                     \
	X(hipMemsetD16, (hipDeviceptr_t d, unsigned short v, size_t n),        \
	  (d, v, n), 0, PL_NONE, PL_SET(HG_API_HIP_MEMSET_D16, d, v, n * 2, 0))\
	X(hipMemsetD16Async,                                                   \
	  (hipDeviceptr_t d, unsigned short v, size_t n, hipStream_t st),      \
	  (d, v, n, st), 0, PL_NONE,                                           \
	  PL_SET(HG_API_HIP_MEMSET_D16_ASYNC, d, v, n * 2, st))                \
	X(hipMemsetD32Async,                                                   \
	  (hipDeviceptr_t d, int v, size_t n, hipStream_t st), (d, v, n, st),  \
	  0, PL_NONE, PL_SET(HG_API_HIP_MEMSET_D32_ASYNC, d, v, n * 4, st))

#define PL_COPY_MORE_TABLE(X)                                                  \
	PL_SPT_COPY_TABLE(X)                                                   \
	PL_SPT_SET_TABLE(X)                                                    \
	PL_MORE_COPY_TABLE(X)                                                  \
	PL_MORE_SET_TABLE(X)

#endif
