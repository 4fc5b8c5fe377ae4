/* SPDX-License-Identifier: MIT */
/*
 * LLVM offload binaries: what clang's new offload driver (the default for
 * OpenMP from clang 15, opt-in for HIP with --offload-new-driver) embeds in
 * a host's .llvm.offloading section, and what __tgt_register_lib receives.
 *
 *   header (32 bytes): magic 10 ff 10 ad, u32 version, u64 size of this
 *          binary, u64 entry offset, u64 entry size
 *   entry  (40 bytes): u16 image kind, u16 offload kind, u32 flags,
 *          u64 string table offset, u64 string count, u64 image offset,
 *          u64 image size
 *   string table: count pairs of u64 offsets (key, value) of NUL-terminated
 *          strings ("triple", "arch", ...)
 *
 * Offsets are from the binary's start.  A section holds binaries back to
 * back, each padded to 8 bytes.  Only machine code (an AMDGPU ELF) is a
 * code object we read; bitcode (link-time optimisation, in .o files) is
 * refused with a reason rather than skipped, so a scan never calls a file
 * clean because it held only what it could not read.
 */
#include <stdio.h>
#include <string.h>

#include "co_int.h"

#define HDR_SIZE    32u
#define ENTRY_SIZE  40u
#define MAX_STRINGS 64u
#define IMG_BITCODE 2u

static const uint8_t magic[4] = {0x10, 0xff, 0x10, 0xad};

bool co_is_offload_binary(const uint8_t *p, size_t n)
{
	return n >= HDR_SIZE && !memcmp(p, magic, 4);
}

size_t co_offload_extent(const uint8_t *p)
{
	uint64_t size = hg_load64(p + 8);

	return size >= HDR_SIZE && size <= CO_MAX_UNCOMPRESSED ? (size_t)size
							       : 0;
}

/* LLVM's OffloadKind: a count (None, OpenMP, Cuda, HIP), not clang's bits. */
static const char *offload_kind(uint16_t k)
{
	switch (k) {
	case 1:
		return "openmp";
	case 2:
		return "cuda";
	case 3:
		return "hip";
	default:
		return "offload";
	}
}

/* The value of `key` in the string table, or "" (always NUL-terminated). */
static const char *string_of(const uint8_t *b, size_t n, uint64_t table,
			     uint64_t count, const char *key)
{
	for (uint64_t i = 0; i < count; i++) {
		uint64_t at = table + i * 16, k, v;

		if (!hg_range_ok(n, at, 16))
			return "";
		k = hg_load64(b + at);
		v = hg_load64(b + at + 8);
		if (k >= n || v >= n || !memchr(b + k, 0, n - k) ||
		    !memchr(b + v, 0, n - v))
			continue;
		if (!strcmp((const char *)b + k, key))
			return (const char *)b + v;
	}
	return "";
}

struct entry {
	uint16_t image_kind, offload_kind;
	uint64_t strings, nstrings, image, image_size;
};

static int read_entry(const uint8_t *b, size_t n, struct entry *e,
		      uint64_t *bad, const char **why)
{
	struct hg_cursor c = hg_cursor_make(b, n);
	uint64_t eoff, esize;

	hg_cursor_seek(&c, 16);
	eoff = hg_cursor_u64(&c);
	esize = hg_cursor_u64(&c);
	*bad = 16;
	if (esize < ENTRY_SIZE || !hg_range_ok(n, eoff, ENTRY_SIZE)) {
		*why = "entry lies outside the binary";
		return -1;
	}
	hg_cursor_seek(&c, eoff);
	e->image_kind = hg_cursor_u16(&c);
	e->offload_kind = hg_cursor_u16(&c);
	hg_cursor_skip(&c, 4);
	e->strings = hg_cursor_u64(&c);
	e->nstrings = hg_cursor_u64(&c);
	e->image = hg_cursor_u64(&c);
	e->image_size = hg_cursor_u64(&c);
	*bad = eoff;
	if (e->nstrings > MAX_STRINGS ||
	    !hg_range_ok(n, e->strings, e->nstrings * 16)) {
		*why = "string table lies outside the binary";
		return -1;
	}
	if (!hg_range_ok(n, e->image, e->image_size)) {
		*why = "image lies outside the binary";
		return -1;
	}
	return 0;
}

int co_offload_parse(struct co_set *set, const uint8_t *data, size_t avail,
		     uint64_t base, size_t *used, struct co_error *err)
{
	const char *where = co_set_where(set), *why = NULL;
	uint32_t version = avail >= 8 ? hg_load32(data + 4) : 0;
	uint64_t size = avail >= HDR_SIZE ? hg_load64(data + 8) : 0, bad;
	struct entry e;
	char triple[CO_MAX_TRIPLE];

	*used = 0;
	if (!co_is_offload_binary(data, avail))
		return co_fail(err, "offload binary", where, base,
			       "header truncated (%zu bytes)", avail);
	if (version < 1 || version > 2)
		return co_fail(err, "offload binary", where, base + 4,
			       "version %u is not one this reader knows (1, 2)",
			       version);
	if (size < HDR_SIZE || size > avail)
		return co_fail(err, "offload binary", where, base + 8,
			       "size %llu does not fit in %zu bytes",
			       (unsigned long long)size, avail);
	if (read_entry(data, (size_t)size, &e, &bad, &why))
		return co_fail(err, "offload binary", where, base + bad, "%s",
			       why);
	*used = (size_t)size;
	co_set_next_bundle(set);
	snprintf(triple, sizeof triple, "%s-%s--%s",
		 offload_kind(e.offload_kind),
		 string_of(data, (size_t)size, e.strings, e.nstrings, "triple"),
		 string_of(data, (size_t)size, e.strings, e.nstrings, "arch"));
	if (!strstr(triple, "amdgcn"))
		return 0; /* another vendor's device: not ours to read */
	if (!co_is_amdgpu_elf(data + e.image, (size_t)e.image_size))
		return co_fail(err, "offload binary", where, base + e.image,
			       "the %s image is %s", triple,
			       e.image_kind == IMG_BITCODE
				   ? "LLVM bitcode, not machine code (a "
				     "relocatable object: scan the linked "
				     "program)"
				   : "not an AMDGPU ELF");
	return co_set_add(set, triple, strlen(triple), data + e.image,
			  (size_t)e.image_size, base + e.image, false, err);
}

int co_offload_section(struct co_set *set, const uint8_t *p, size_t n,
		       uint64_t base, struct co_error *err)
{
	size_t pos = 0, found = 0;

	while (pos < n) {
		size_t used = 0;

		if (!co_is_offload_binary(p + pos, n - pos)) {
			pos =
			    (pos + 8) & ~(size_t)7; /* binaries are 8-aligned */
			continue;
		}
		if (co_offload_parse(set, p + pos, n - pos, base + pos, &used,
				     err))
			return -1;
		found++;
		pos += (used + 7) & ~(size_t)7;
	}
	if (!found)
		return co_fail(err, ".llvm.offloading", co_set_where(set), base,
			       "no offload binary in %zu bytes", n);
	return 0;
}
