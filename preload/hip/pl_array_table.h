/* SPDX-License-Identifier: MIT */
/*
 * Copies to and from arrays (hipArray), in the form of pl_hip_table.h.
 */
#ifndef PL_ARRAY_TABLE_H
#define PL_ARRAY_TABLE_H

#include "pl_copy_table.h"

/* Arrays are opaque runtime objects, not addresses: an array side is
 * recorded as address 0, the linear side as it is.  2D sizes are width x
 * height bytes; the kind is the one given, else the direction the form
 * names (an array is device memory). */
#define PL_ARRAY_COPY_TABLE(X)                                                 \
	X(hipMemcpyAtoA,                                                       \
	  (hipArray_t d, size_t doff, hipArray_t s, size_t soff, size_t n),    \
	  (d, doff, s, soff, n), 0, PL_NONE,                                   \
	  PL_COPY(HG_API_HIP_MEMCPY_ATOA, NULL, NULL, n, 3, 0, 0))             \
	X(hipMemcpyAtoD,                                                       \
	  (hipDeviceptr_t d, hipArray_t s, size_t soff, size_t n),             \
	  (d, s, soff, n), 0, PL_NONE,                                         \
	  PL_COPY(HG_API_HIP_MEMCPY_ATOD, d, NULL, n, 3, 0, 0))                \
	X(hipMemcpyAtoH, (void *d, hipArray_t s, size_t soff, size_t n),       \
	  (d, s, soff, n), 0, PL_NONE,                                         \
	  PL_COPY(HG_API_HIP_MEMCPY_ATOH, d, NULL, n, 2, 0, 0))                \
	X(hipMemcpyAtoHAsync,                                                  \
	  (void *d, hipArray_t s, size_t soff, size_t n, hipStream_t st),      \
	  (d, s, soff, n, st), 0, PL_NONE,                                     \
	  PL_COPY(HG_API_HIP_MEMCPY_ATOH_ASYNC, d, NULL, n, 2, st, 1))         \
	X(hipMemcpyDtoA,                                                       \
	  (hipArray_t d, size_t doff, hipDeviceptr_t s, size_t n),             \
	  (d, doff, s, n), 0, PL_NONE,                                         \
	  PL_COPY(HG_API_HIP_MEMCPY_DTOA, NULL, s, n, 3, 0, 0))                \
	X(hipMemcpyHtoA, (hipArray_t d, size_t doff, const void *s, size_t n), \
	  (d, doff, s, n), 0, PL_NONE,                                         \
	  PL_COPY(HG_API_HIP_MEMCPY_HTOA, NULL, s, n, 1, 0, 0))                \
	X(hipMemcpyHtoAAsync,                                                  \
	  (hipArray_t d, size_t doff, const void *s, size_t n, hipStream_t st),\
	  (d, doff, s, n, st), 0, PL_NONE,                                     \
	  PL_COPY(HG_API_HIP_MEMCPY_HTOA_ASYNC, NULL, s, n, 1, st, 1))         \
	X(hipMemcpyToArray,                                                    \
	  (hipArray_t d, size_t w, size_t h, const void *s, size_t n,          \
	   hipMemcpyKind k),                                                   \
	  (d, w, h, s, n, k), 0, PL_NONE,                                      \
	  PL_COPY(HG_API_HIP_MEMCPY_TO_ARRAY, NULL, s, n, k, 0, 0))            \
	X(hipMemcpyFromArray,                                                  \
	  (void *d, hipArray_const_t s, size_t w, size_t h, size_t n,          \
	   hipMemcpyKind k),                                                   \
	  (d, s, w, h, n, k), 0, PL_NONE,                                      \
	  PL_COPY(HG_API_HIP_MEMCPY_FROM_ARRAY, d, NULL, n, k, 0, 0))          \
	X(hipMemcpyFromArray_spt,                                              \
	  (void *d, hipArray_const_t s, size_t w, size_t h, size_t n,          \
	   hipMemcpyKind k),                                                   \
	  (d, s, w, h, n, k), 0, PL_NONE,                                      \
	  PL_COPY(HG_API_HIP_MEMCPY_FROM_ARRAY, d, NULL, n, k, PL_PTDS, 0))    \
	PL_ARRAY_2D_TABLE(X)

#define PL_ARRAY_2D_TABLE(X)                                                   \
	X(hipMemcpy2DToArray,                                                  \
	  (hipArray_t d, size_t w, size_t h, const void *s, size_t sp,         \
	   size_t wd, size_t ht, hipMemcpyKind k),                             \
	  (d, w, h, s, sp, wd, ht, k), 0, PL_NONE,                             \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_TO_ARRAY, NULL, s, wd * ht, k, 0, 0))   \
	X(hipMemcpy2DToArray_spt,                                              \
	  (hipArray_t d, size_t w, size_t h, const void *s, size_t sp,         \
	   size_t wd, size_t ht, hipMemcpyKind k),                             \
	  (d, w, h, s, sp, wd, ht, k), 0, PL_NONE,                             \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_TO_ARRAY, NULL, s, wd * ht, k, PL_PTDS, \
		  0))                                                          \
	X(hipMemcpy2DToArrayAsync,                                             \
	  (hipArray_t d, size_t w, size_t h, const void *s, size_t sp,         \
	   size_t wd, size_t ht, hipMemcpyKind k, hipStream_t st),             \
	  (d, w, h, s, sp, wd, ht, k, st), 0, PL_NONE,                         \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_TO_ARRAY_ASYNC, NULL, s, wd * ht, k,    \
		  st, 1))                                                      \
	X(hipMemcpy2DToArrayAsync_spt,                                         \
	  (hipArray_t d, size_t w, size_t h, const void *s, size_t sp,         \
	   size_t wd, size_t ht, hipMemcpyKind k, hipStream_t st),             \
	  (d, w, h, s, sp, wd, ht, k, st), 0, PL_NONE,                         \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_TO_ARRAY_ASYNC, NULL, s, wd * ht, k,    \
		  PL_SPT(st), 1))                                              \
	X(hipMemcpy2DFromArray,                                                \
	  (void *d, size_t dp, hipArray_const_t s, size_t w, size_t h,         \
	   size_t wd, size_t ht, hipMemcpyKind k),                             \
	  (d, dp, s, w, h, wd, ht, k), 0, PL_NONE,                             \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_FROM_ARRAY, d, NULL, wd * ht, k, 0, 0)) \
	X(hipMemcpy2DFromArray_spt,                                            \
	  (void *d, size_t dp, hipArray_const_t s, size_t w, size_t h,         \
	   size_t wd, size_t ht, hipMemcpyKind k),                             \
	  (d, dp, s, w, h, wd, ht, k), 0, PL_NONE,                             \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_FROM_ARRAY, d, NULL, wd * ht, k,        \
		  PL_PTDS, 0))                                                 \
	X(hipMemcpy2DFromArrayAsync,                                           \
	  (void *d, size_t dp, hipArray_const_t s, size_t w, size_t h,         \
	   size_t wd, size_t ht, hipMemcpyKind k, hipStream_t st),             \
	  (d, dp, s, w, h, wd, ht, k, st), 0, PL_NONE,                         \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_FROM_ARRAY_ASYNC, d, NULL, wd * ht, k,  \
		  st, 1))                                                      \
	X(hipMemcpy2DFromArrayAsync_spt,                                       \
	  (void *d, size_t dp, hipArray_const_t s, size_t w, size_t h,         \
	   size_t wd, size_t ht, hipMemcpyKind k, hipStream_t st),             \
	  (d, dp, s, w, h, wd, ht, k, st), 0, PL_NONE,                         \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_FROM_ARRAY_ASYNC, d, NULL, wd * ht, k,  \
		  PL_SPT(st), 1))                                              \
	X(hipMemcpy2DArrayToArray,                                             \
	  (hipArray_t d, size_t dw, size_t dh, hipArray_const_t s, size_t sw,  \
	   size_t sh, size_t wd, size_t ht, hipMemcpyKind k),                  \
	  (d, dw, dh, s, sw, sh, wd, ht, k), 0, PL_NONE,                       \
	  PL_COPY(HG_API_HIP_MEMCPY_2D_ARRAY_TO_ARRAY, NULL, NULL, wd * ht, k, \
		  0, 0))

#endif
