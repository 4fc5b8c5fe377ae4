/* SPDX-License-Identifier: MIT */
/*
 * Writes a compressed offload bundle (CCOB) from a plain one, for fixtures:
 * clang-offload-bundler-15 in Debian cannot compress.
 *   mkccob zlib|zstd 2|3 IN OUT
 * Header: "CCOB", u16 version, u16 method (0 zlib, 1 zstd), then v2: u32
 * total, u32 uncompressed; v3: u64 total, u64 uncompressed; then u64 hash.
 * LLVM puts a truncated MD5 in the hash; readers do not check it, so this
 * writes co_hash instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "co.h"

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	unsigned char *d = malloc(*n);
	if (d && fread(d, 1, *n, f) != *n) {
		free(d);
		d = NULL;
	}
	fclose(f);
	return d;
}

int main(int argc, char **argv)
{
	if (argc != 5)
		return 64;
	int zstd = !strcmp(argv[1], "zstd"), version = atoi(argv[2]);
	size_t n;
	unsigned char *in = slurp(argv[3], &n);
	if (!in || (version != 2 && version != 3))
		return 1;
	size_t cap = zstd ? ZSTD_compressBound(n) : compressBound(n);
	unsigned char *out = malloc(cap);
	size_t got = cap;
	if (zstd) {
		got = ZSTD_compress(out, cap, in, n, 9);
		if (ZSTD_isError(got))
			return 1;
	} else {
		uLongf g = cap;
		if (compress2(out, &g, in, n, 9) != Z_OK)
			return 1;
		got = g;
	}
	unsigned char h[32];
	size_t hl = version == 2 ? 24 : 32;
	uint16_t v = (uint16_t)version, m = (uint16_t)zstd;
	uint64_t total = hl + got, raw = n, hash = co_hash(in, n);
	memcpy(h, "CCOB", 4);
	memcpy(h + 4, &v, 2);
	memcpy(h + 6, &m, 2);
	if (version == 2) {
		uint32_t t32 = (uint32_t)total, r32 = (uint32_t)raw;
		memcpy(h + 8, &t32, 4);
		memcpy(h + 12, &r32, 4);
		memcpy(h + 16, &hash, 8);
	} else {
		memcpy(h + 8, &total, 8);
		memcpy(h + 16, &raw, 8);
		memcpy(h + 24, &hash, 8);
	}
	FILE *f = fopen(argv[4], "wb");
	if (!f || fwrite(h, 1, hl, f) != hl || fwrite(out, 1, got, f) != got ||
	    fclose(f))
		return 1;
	free(in);
	free(out);
	return 0;
}
