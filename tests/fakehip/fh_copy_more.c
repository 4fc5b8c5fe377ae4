/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): pitched (2D, 3D and
 * parameter-block) copies and sets, and the per-thread default stream
 * forms, row by row through fh_copy and fh_set.  The double has no arrays:
 * a copy that names one answers hipErrorNotSupported.
 */
#include "fh.h"

/* h rows of w bytes; a row wider than its pitch is refused as ROCm 5.2
 * refuses it. */
static hipError_t rows(const char *api, char *d, size_t dp, const char *s,
		       size_t sp, size_t w, size_t h, int kind)
{
	hipError_t err = hipSuccess;

	if (!w || !h)
		return fh_copy(api, d, s, 0, kind);
	if (!d || !s)
		return fh_copy(api, d, s, w, kind);
	if (w > dp || w > sp)
		return fh_ret(hipErrorInvalidPitchValue);
	for (size_t i = 0; i < h && err == hipSuccess; i++)
		err = fh_copy(api, d + i * dp, s + i * sp, w, kind);
	return err;
}

static hipError_t set_rows(const char *api, char *d, size_t p, int v, size_t w,
			   size_t h)
{
	hipError_t err = hipSuccess;

	if (!w || !h || !d)
		return fh_set(api, d, v, w * h, 1);
	if (w > p)
		return fh_ret(hipErrorInvalidPitchValue);
	for (size_t i = 0; i < h && err == hipSuccess; i++)
		err = fh_set(api, d + i * p, v, w, 1);
	return err;
}

static hipError_t copy_3d(const char *api, const hipMemcpy3DParms *p)
{
	const hipPitchedPtr *d, *s;
	hipError_t err = hipSuccess;
	char *dz, *sz;

	if (!p)
		return fh_ret(hipErrorInvalidValue);
	if (p->srcArray || p->dstArray)
		return fh_ret(hipErrorNotSupported);
	d = &p->dstPtr;
	s = &p->srcPtr;
	dz = d->ptr ? (char *)d->ptr + (p->dstPos.z * d->ysize + p->dstPos.y) *
					       d->pitch + p->dstPos.x : NULL;
	sz = s->ptr ? (char *)s->ptr + (p->srcPos.z * s->ysize + p->srcPos.y) *
					       s->pitch + p->srcPos.x : NULL;
	if (!p->extent.depth || !dz || !sz)
		return rows(api, dz, d->pitch, sz, s->pitch, p->extent.width,
			    p->extent.height * p->extent.depth, p->kind);
	for (size_t z = 0; z < p->extent.depth && err == hipSuccess; z++)
		err = rows(api, dz + z * d->pitch * d->ysize, d->pitch,
			   sz + z * s->pitch * s->ysize, s->pitch,
			   p->extent.width, p->extent.height, p->kind);
	return err;
}

static hipError_t set_3d(const char *api, hipPitchedPtr pp, int v, hipExtent e)
{
	hipError_t err = hipSuccess;

	if (!pp.ptr || !e.depth)
		return set_rows(api, pp.ptr, pp.pitch, v, e.width,
				e.height * e.depth);
	for (size_t z = 0; z < e.depth && err == hipSuccess; z++)
		err = set_rows(api, (char *)pp.ptr + z * pp.pitch * pp.ysize,
			       pp.pitch, v, e.width, e.height);
	return err;
}

/* A parameter block's side: its start, and whether it is on the device
 * (-1: an array, which the double does not have). */
static int side(hipMemoryType t, const void *host, hipDeviceptr_t dev,
		size_t off, char **at)
{
	if (t == hipMemoryTypeHost) {
		*at = host ? (char *)host + off : NULL;
		return 0;
	}
	if (t == hipMemoryTypeArray)
		return -1;
	*at = dev ? (char *)dev + off : NULL;
	return 1;
}

static hipError_t param_2d(const char *api, const hip_Memcpy2D *p)
{
	char *d, *s;
	int dd, sd;

	if (!p)
		return fh_ret(hipErrorInvalidValue);
	dd = side(p->dstMemoryType, p->dstHost, p->dstDevice,
		  p->dstY * p->dstPitch + p->dstXInBytes, &d);
	sd = side(p->srcMemoryType, p->srcHost, p->srcDevice,
		  p->srcY * p->srcPitch + p->srcXInBytes, &s);
	if (dd < 0 || sd < 0)
		return fh_ret(hipErrorNotSupported);
	return rows(api, d, p->dstPitch, s, p->srcPitch, p->WidthInBytes,
		    p->Height, sd * 2 + dd);
}

static hipError_t drv_3d(const char *api, const HIP_MEMCPY3D *p)
{
	hipError_t err = hipSuccess;
	char *d, *s;
	int dd, sd;

	if (!p)
		return fh_ret(hipErrorInvalidValue);
	dd = side(p->dstMemoryType, p->dstHost, p->dstDevice,
		  ((size_t)p->dstZ * p->dstHeight + p->dstY) * p->dstPitch +
			  p->dstXInBytes, &d);
	sd = side(p->srcMemoryType, p->srcHost, p->srcDevice,
		  ((size_t)p->srcZ * p->srcHeight + p->srcY) * p->srcPitch +
			  p->srcXInBytes, &s);
	if (dd < 0 || sd < 0)
		return fh_ret(hipErrorNotSupported);
	if (!p->Depth || !d || !s)
		return rows(api, d, p->dstPitch, s, p->srcPitch, p->WidthInBytes,
			    (size_t)p->Height * p->Depth, sd * 2 + dd);
	/* Planes are dstHeight (srcHeight) rows apart. */
	for (size_t z = 0; z < p->Depth && err == hipSuccess; z++)
		err = rows(api, d + z * p->dstHeight * p->dstPitch, p->dstPitch,
			   s + z * p->srcHeight * p->srcPitch, p->srcPitch,
			   p->WidthInBytes, p->Height, sd * 2 + dd);
	return err;
}

#define FH_FORWARD(decl, call)                                                 \
	FH_PUBLIC hipError_t decl                                                        \
	{                                                                      \
		FH_INIT();                                                     \
		return call;                                                   \
	}

FH_FORWARD(hipMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w,
		       size_t h, hipMemcpyKind k),
	   rows("hipMemcpy2D", d, dp, s, sp, w, h, k))
FH_FORWARD(hipMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp,
			    size_t w, size_t h, hipMemcpyKind k,
			    hipStream_t st),
	   rows("hipMemcpy2DAsync", d, dp, s, sp, w, h, k))
FH_FORWARD(hipMemcpy3D(const hipMemcpy3DParms *p), copy_3d("hipMemcpy3D", p))
FH_FORWARD(hipMemcpy3DAsync(const hipMemcpy3DParms *p, hipStream_t st),
	   copy_3d("hipMemcpy3DAsync", p))
FH_FORWARD(hipMemcpyParam2D(const hip_Memcpy2D *p),
	   param_2d("hipMemcpyParam2D", p))
FH_FORWARD(hipMemcpyParam2DAsync(const hip_Memcpy2D *p, hipStream_t st),
	   param_2d("hipMemcpyParam2DAsync", p))
FH_FORWARD(hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *p),
	   param_2d("hipDrvMemcpy2DUnaligned", p))
FH_FORWARD(hipDrvMemcpy3D(const HIP_MEMCPY3D *p), drv_3d("hipDrvMemcpy3D", p))
FH_FORWARD(hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *p, hipStream_t st),
	   drv_3d("hipDrvMemcpy3DAsync", p))
FH_FORWARD(hipMemset2D(void *d, size_t p, int v, size_t w, size_t h),
	   set_rows("hipMemset2D", d, p, v, w, h))
FH_FORWARD(hipMemset2DAsync(void *d, size_t p, int v, size_t w, size_t h,
			    hipStream_t st),
	   set_rows("hipMemset2DAsync", d, p, v, w, h))
FH_FORWARD(hipMemset3D(hipPitchedPtr pp, int v, hipExtent e),
	   set_3d("hipMemset3D", pp, v, e))
FH_FORWARD(hipMemset3DAsync(hipPitchedPtr pp, int v, hipExtent e,
			    hipStream_t st),
	   set_3d("hipMemset3DAsync", pp, v, e))
FH_FORWARD(hipMemsetD16Async(hipDeviceptr_t d, unsigned short v, size_t n,
			     hipStream_t st),
	   fh_set("hipMemsetD16Async", d, v, n, 2))

/* The per-thread default stream forms: the same work (streams are in order
 * here and nothing runs on a GPU). */
FH_FORWARD(hipMemcpy_spt(void *d, const void *s, size_t n, hipMemcpyKind k),
	   fh_copy("hipMemcpy_spt", d, s, n, k))
FH_FORWARD(hipMemcpyAsync_spt(void *d, const void *s, size_t n,
			      hipMemcpyKind k, hipStream_t st),
	   fh_copy("hipMemcpyAsync_spt", d, s, n, k))
FH_FORWARD(hipMemcpy2D_spt(void *d, size_t dp, const void *s, size_t sp,
			   size_t w, size_t h, hipMemcpyKind k),
	   rows("hipMemcpy2D_spt", d, dp, s, sp, w, h, k))
FH_FORWARD(hipMemcpy2DAsync_spt(void *d, size_t dp, const void *s, size_t sp,
				size_t w, size_t h, hipMemcpyKind k,
				hipStream_t st),
	   rows("hipMemcpy2DAsync_spt", d, dp, s, sp, w, h, k))
FH_FORWARD(hipMemcpy3D_spt(const hipMemcpy3DParms *p),
	   copy_3d("hipMemcpy3D_spt", p))
FH_FORWARD(hipMemcpy3DAsync_spt(const hipMemcpy3DParms *p, hipStream_t st),
	   copy_3d("hipMemcpy3DAsync_spt", p))
FH_FORWARD(hipMemset_spt(void *d, int v, size_t n),
	   fh_set("hipMemset_spt", d, v, n, 1))
FH_FORWARD(hipMemsetAsync_spt(void *d, int v, size_t n, hipStream_t st),
	   fh_set("hipMemsetAsync_spt", d, v, n, 1))
FH_FORWARD(hipMemset2D_spt(void *d, size_t p, int v, size_t w, size_t h),
	   set_rows("hipMemset2D_spt", d, p, v, w, h))
FH_FORWARD(hipMemset2DAsync_spt(void *d, size_t p, int v, size_t w, size_t h,
				hipStream_t st),
	   set_rows("hipMemset2DAsync_spt", d, p, v, w, h))
FH_FORWARD(hipMemset3D_spt(hipPitchedPtr pp, int v, hipExtent e),
	   set_3d("hipMemset3D_spt", pp, v, e))
FH_FORWARD(hipMemset3DAsync_spt(hipPitchedPtr pp, int v, hipExtent e,
				hipStream_t st),
	   set_3d("hipMemset3DAsync_spt", pp, v, e))
