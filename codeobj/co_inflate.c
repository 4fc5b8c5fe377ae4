/* SPDX-License-Identifier: MIT */
/* Decompression of CCOB payloads (llvm::compression formats: 0 zlib, 1 zstd). */
#include <zlib.h>
#include <zstd.h>

#include "co_int.h"

int co_inflate(unsigned method, const uint8_t *in, size_t in_size,
	       uint8_t *out, size_t out_size, const char **why)
{
	if (method == 0) {
		uLongf got = out_size;
		uLong used = in_size;
		int rc = uncompress2(out, &got, in, &used);
		if (rc != Z_OK) {
			*why = rc == Z_BUF_ERROR ? "zlib: data longer than declared"
						 : "zlib: corrupt stream";
			return -1;
		}
		if (got != out_size) {
			*why = "zlib: data shorter than declared";
			return -1;
		}
		return 0;
	}
	if (method == 1) {
		size_t got = ZSTD_decompress(out, out_size, in, in_size);
		if (ZSTD_isError(got)) {
			*why = ZSTD_getErrorName(got);
			return -1;
		}
		if (got != out_size) {
			*why = "zstd: data shorter than declared";
			return -1;
		}
		return 0;
	}
	*why = "unknown compression method (neither zlib 0 nor zstd 1)";
	return -1;
}
