/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): copies and sets really move
 * bytes, synchronously (streams are in order and nothing runs on a GPU).
 * A device-side pointer into memory this runtime already freed is refused
 * with hipErrorInvalidValue, as the real runtime refuses an unknown device
 * pointer, instead of faulting on the unmapped pages.
 */
#include "fh.h"

#include <string.h>

hipError_t fh_copy(const char *api, void *dst, const void *src, size_t n,
		   int kind)
{
	hipError_t err = hipSuccess;
	int dst_dev = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
	int src_dev = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;

	if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
		err = hipErrorInvalidMemcpyDirection;
	else if (n && (!dst || !src))
		err = hipErrorInvalidValue;
	else if (n && ((dst_dev && fh_was_freed(dst, n)) ||
		       (src_dev && fh_was_freed(src, n))))
		err = hipErrorInvalidValue;
	else if (n)
		memmove(dst, src, n);
	fh_log("%s dst=%p src=%p size=%zu kind=%d -> %s", api, dst, src, n, kind,
	       hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind)
{
	FH_INIT();
	return fh_copy("hipMemcpy", dst, src, n, kind);
}

hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t n,
			       hipMemcpyKind kind, hipStream_t stream)
{
	FH_INIT();
	return fh_copy("hipMemcpyWithStream", dst, src, n, kind);
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n,
			  hipMemcpyKind kind, hipStream_t stream)
{
	FH_INIT();
	return fh_copy("hipMemcpyAsync", dst, src, n, kind);
}

hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t n)
{
	FH_INIT();
	return fh_copy("hipMemcpyHtoD", dst, src, n, hipMemcpyHostToDevice);
}

hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t n)
{
	FH_INIT();
	return fh_copy("hipMemcpyDtoH", dst, src, n, hipMemcpyDeviceToHost);
}

hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n)
{
	FH_INIT();
	return fh_copy("hipMemcpyDtoD", dst, src, n, hipMemcpyDeviceToDevice);
}

hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t n,
			      hipStream_t stream)
{
	FH_INIT();
	return fh_copy("hipMemcpyHtoDAsync", dst, src, n, hipMemcpyHostToDevice);
}

hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t n,
			      hipStream_t stream)
{
	FH_INIT();
	return fh_copy("hipMemcpyDtoHAsync", dst, src, n, hipMemcpyDeviceToHost);
}

hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n,
			      hipStream_t stream)
{
	FH_INIT();
	return fh_copy("hipMemcpyDtoDAsync", dst, src, n, hipMemcpyDeviceToDevice);
}

hipError_t fh_set(const char *api, void *dst, int value, size_t count,
		  size_t width)
{
	hipError_t err = hipSuccess;
	if (count && !dst) {
		err = hipErrorInvalidValue;
	} else if (count && fh_was_freed(dst, count * width)) {
		err = hipErrorInvalidValue;
	} else if (width == 1) {
		memset(dst, value, count);
	} else {
		unsigned char *d = dst;
		for (size_t i = 0; i < count; i++)
			memcpy(d + i * width, &value, width); /* little-endian */
	}
	fh_log("%s dst=%p value=%d count=%zu width=%zu -> %s", api, dst, value,
	       count, width, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipMemset(void *dst, int value, size_t n)
{
	FH_INIT();
	return fh_set("hipMemset", dst, value, n, 1);
}

hipError_t hipMemsetAsync(void *dst, int value, size_t n, hipStream_t stream)
{
	FH_INIT();
	return fh_set("hipMemsetAsync", dst, value, n, 1);
}

hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count)
{
	FH_INIT();
	return fh_set("hipMemsetD8", dst, value, count, 1);
}

hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value,
			    size_t count, hipStream_t stream)
{
	FH_INIT();
	return fh_set("hipMemsetD8Async", dst, value, count, 1);
}

hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count)
{
	FH_INIT();
	return fh_set("hipMemsetD16", dst, value, count, 2);
}

hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count)
{
	FH_INIT();
	return fh_set("hipMemsetD32", dst, value, count, 4);
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
			     hipStream_t stream)
{
	FH_INIT();
	return fh_set("hipMemsetD32Async", dst, value, count, 4);
}
