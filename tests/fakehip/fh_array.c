/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): 2D arrays as plain device
 * memory, rows of width elements with no padding, and the copies that
 * reach them (offsets in bytes, and in rows for hOffset).  The handle a
 * program gets points at the double's own record, never at a hipArray.
 */
#include "fh.h"

#include <stdlib.h>

struct fh_array {
	char *data;
	size_t pitch; /* bytes per row */
	size_t rows;
};

hipError_t hipMallocArray(hipArray_t *out, const hipChannelFormatDesc *desc,
			  size_t width, size_t height, unsigned int flags)
{
	struct fh_array *a;
	size_t elem;
	void *p = NULL;

	FH_INIT();
	if (!out || !desc || !width)
		return fh_ret(hipErrorInvalidValue);
	elem = (size_t)(desc->x + desc->y + desc->z + desc->w) / 8;
	a = calloc(1, sizeof(*a));
	if (!elem || !a || fh_map(&p, width * elem * (height ? height : 1),
				  FH_DEVICE, 0) != hipSuccess) {
		free(a);
		return fh_ret(hipErrorInvalidValue);
	}
	*a = (struct fh_array){p, width * elem, height ? height : 1};
	*out = (hipArray_t)(void *)a;
	return fh_ret(hipSuccess);
}

hipError_t hipFreeArray(hipArray_t array)
{
	struct fh_array *a = (struct fh_array *)(void *)array;
	hipError_t err;

	FH_INIT();
	if (!a)
		return fh_ret(hipErrorInvalidValue);
	err = fh_unmap(a->data, FH_KIND_BIT(FH_DEVICE));
	free(a);
	return fh_ret(err);
}

/* Byte off, row row of array a; NULL past its end (or no array). */
static char *at(hipArray_const_t arr, size_t off, size_t row, size_t n)
{
	const struct fh_array *a = (const void *)arr;
	size_t start = row * (a ? a->pitch : 0) + off;

	if (!a || start > a->pitch * a->rows || n > a->pitch * a->rows - start)
		return NULL;
	return a->data + start;
}

/* Each side an array or an address; an array side must hold the rows. */
static hipError_t rows(const char *api, char *d, size_t dp, const char *s,
		       size_t sp, size_t w, size_t h, int kind)
{
	hipError_t err = hipSuccess;

	if (!d || !s)
		return fh_copy(api, d, s, h ? w : 0, kind);
	for (size_t i = 0; i < h && err == hipSuccess; i++)
		err = fh_copy(api, d + i * dp, s + i * sp, w, kind);
	return h ? err : fh_copy(api, d, s, 0, kind);
}

#define PITCH(arr) ((arr) ? ((const struct fh_array *)(const void *)(arr))->pitch : 0)

#define FH_A(decl, call)                                                       \
	FH_PUBLIC hipError_t decl                                                        \
	{                                                                      \
		FH_INIT();                                                     \
		return call;                                                   \
	}

FH_A(hipMemcpyAtoA(hipArray_t d, size_t doff, hipArray_t s, size_t soff,
		   size_t n),
     rows("hipMemcpyAtoA", at(d, doff, 0, n), 0, at(s, soff, 0, n), 0, n, 1, 3))
FH_A(hipMemcpyAtoD(hipDeviceptr_t d, hipArray_t s, size_t soff, size_t n),
     rows("hipMemcpyAtoD", d, 0, at(s, soff, 0, n), 0, n, 1, 3))
FH_A(hipMemcpyAtoH(void *d, hipArray_t s, size_t soff, size_t n),
     rows("hipMemcpyAtoH", d, 0, at(s, soff, 0, n), 0, n, 1, 2))
FH_A(hipMemcpyAtoHAsync(void *d, hipArray_t s, size_t soff, size_t n,
			hipStream_t st),
     rows("hipMemcpyAtoHAsync", d, 0, at(s, soff, 0, n), 0, n, 1, 2))
FH_A(hipMemcpyDtoA(hipArray_t d, size_t doff, hipDeviceptr_t s, size_t n),
     rows("hipMemcpyDtoA", at(d, doff, 0, n), 0, s, 0, n, 1, 3))
FH_A(hipMemcpyHtoA(hipArray_t d, size_t doff, const void *s, size_t n),
     rows("hipMemcpyHtoA", at(d, doff, 0, n), 0, s, 0, n, 1, 1))
FH_A(hipMemcpyHtoAAsync(hipArray_t d, size_t doff, const void *s, size_t n,
			hipStream_t st),
     rows("hipMemcpyHtoAAsync", at(d, doff, 0, n), 0, s, 0, n, 1, 1))
FH_A(hipMemcpyToArray(hipArray_t d, size_t w, size_t h, const void *s,
		      size_t n, hipMemcpyKind k),
     rows("hipMemcpyToArray", at(d, w, h, n), 0, s, 0, n, 1, k))
FH_A(hipMemcpyFromArray(void *d, hipArray_const_t s, size_t w, size_t h,
			size_t n, hipMemcpyKind k),
     rows("hipMemcpyFromArray", d, 0, at(s, w, h, n), 0, n, 1, k))
FH_A(hipMemcpyFromArray_spt(void *d, hipArray_const_t s, size_t w, size_t h,
			    size_t n, hipMemcpyKind k),
     rows("hipMemcpyFromArray_spt", d, 0, at(s, w, h, n), 0, n, 1, k))

/* 2D: rows of wd bytes; the array's own pitch apart on its side. */
#define TO_2D(api, d, w, h, s, sp, wd, ht, k)                                  \
	rows(api, at(d, w, h, (ht ? ht - 1 : 0) * PITCH(d) + wd), PITCH(d), s, \
	     sp, wd, ht, k)
#define FROM_2D(api, d, dp, s, w, h, wd, ht, k)                                \
	rows(api, d, dp, at(s, w, h, (ht ? ht - 1 : 0) * PITCH(s) + wd),       \
	     PITCH(s), wd, ht, k)

FH_A(hipMemcpy2DToArray(hipArray_t d, size_t w, size_t h, const void *s,
			size_t sp, size_t wd, size_t ht, hipMemcpyKind k),
     TO_2D("hipMemcpy2DToArray", d, w, h, s, sp, wd, ht, k))
FH_A(hipMemcpy2DToArray_spt(hipArray_t d, size_t w, size_t h, const void *s,
			    size_t sp, size_t wd, size_t ht, hipMemcpyKind k),
     TO_2D("hipMemcpy2DToArray_spt", d, w, h, s, sp, wd, ht, k))
FH_A(hipMemcpy2DToArrayAsync(hipArray_t d, size_t w, size_t h, const void *s,
			     size_t sp, size_t wd, size_t ht, hipMemcpyKind k,
			     hipStream_t st),
     TO_2D("hipMemcpy2DToArrayAsync", d, w, h, s, sp, wd, ht, k))
FH_A(hipMemcpy2DToArrayAsync_spt(hipArray_t d, size_t w, size_t h,
				 const void *s, size_t sp, size_t wd, size_t ht,
				 hipMemcpyKind k, hipStream_t st),
     TO_2D("hipMemcpy2DToArrayAsync_spt", d, w, h, s, sp, wd, ht, k))
FH_A(hipMemcpy2DFromArray(void *d, size_t dp, hipArray_const_t s, size_t w,
			  size_t h, size_t wd, size_t ht, hipMemcpyKind k),
     FROM_2D("hipMemcpy2DFromArray", d, dp, s, w, h, wd, ht, k))
FH_A(hipMemcpy2DFromArray_spt(void *d, size_t dp, hipArray_const_t s,
			      size_t w, size_t h, size_t wd, size_t ht,
			      hipMemcpyKind k),
     FROM_2D("hipMemcpy2DFromArray_spt", d, dp, s, w, h, wd, ht, k))
FH_A(hipMemcpy2DFromArrayAsync(void *d, size_t dp, hipArray_const_t s,
			       size_t w, size_t h, size_t wd, size_t ht,
			       hipMemcpyKind k, hipStream_t st),
     FROM_2D("hipMemcpy2DFromArrayAsync", d, dp, s, w, h, wd, ht, k))
FH_A(hipMemcpy2DFromArrayAsync_spt(void *d, size_t dp, hipArray_const_t s,
				   size_t w, size_t h, size_t wd, size_t ht,
				   hipMemcpyKind k, hipStream_t st),
     FROM_2D("hipMemcpy2DFromArrayAsync_spt", d, dp, s, w, h, wd, ht, k))
FH_A(hipMemcpy2DArrayToArray(hipArray_t d, size_t dw, size_t dh,
			     hipArray_const_t s, size_t sw, size_t sh,
			     size_t wd, size_t ht, hipMemcpyKind k),
     rows("hipMemcpy2DArrayToArray",
	  at(d, dw, dh, (ht ? ht - 1 : 0) * PITCH(d) + wd), PITCH(d),
	  at(s, sw, sh, (ht ? ht - 1 : 0) * PITCH(s) + wd), PITCH(s), wd, ht,
	  k))
