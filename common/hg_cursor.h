/* SPDX-License-Identifier: MIT */
/*
 * A bounds-checked little-endian byte cursor over untrusted bytes, so that
 * a short or lying input turns into a clean failure instead of an
 * out-of-bounds read.  A failed read leaves the cursor where it was and
 * sets `bad`; callers may chain reads and test `bad` once.  Header-only so
 * that hot loops inline.
 *
 * It suits containers: one buffer whose headers name absolute offsets and
 * sizes, read with seeks.  These parsers read through it: the AMDGPU ELF
 * (codeobj/co_elf.c) and its notes (co_object.c), clang offload bundles and
 * CCOB (co_bundle.c), LLVM offload binaries and OpenMP images
 * (co_offload.c), the AMDHSA msgpack metadata (co_msgpack.c, co_meta.c),
 * the profile cache's files (co_cache.c), and the virtual GPU's reading of
 * a code object as loaded in device memory (vgpu/vg_image.c).
 *
 * The others have readers of their own, because their bytes are not one
 * buffer of fixed-width fields:
 *  - DWARF (codeobj/co_dwarf.h, struct rd: co_dwarf.c, co_dwarf_linetab.c,
 *    co_dwarf_lines.c) is a forward stream of LEB128 numbers, C strings and
 *    offsets of 4 or 8 bytes, read over sub-ranges of a section; a read
 *    past the end yields 0 and leaves the reader at the end, so a DIE's
 *    many reads are checked once.
 *  - Trace payloads (hg_pack.h, struct hg_unpacker, hg_unpack_all) are
 *    values of 0 to 8 bytes behind tags of two lengths, copied out of
 *    babeltrace2's fields into a window with 8 bytes to spare
 *    (decode/dec_pack.c), so that a value is one load masked to its length.
 *  - KFD SMI events (kfd/kd_smi_parse.c, struct cur) are text, read
 *    character by character against each kind's spec.
 *  - Instruction words (codeobj/co_isa.c, co_flow_cfg.c) are loaded with
 *    hg_load32 below from a code range whose bounds the decoder's loop
 *    checks per instruction.
 * An image registered in memory without a size (co_set.c) is sized from
 * its own headers before any of these read it.
 */
#ifndef HG_CURSOR_H
#define HG_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct hg_cursor {
	const uint8_t *base; /* first byte of the whole buffer */
	size_t size;         /* bytes in the buffer */
	size_t pos;          /* next byte to read */
	bool bad;            /* a read went past the end */
};

static inline struct hg_cursor hg_cursor_make(const void *base, size_t size)
{
	struct hg_cursor c = {(const uint8_t *)base, size, 0, false};
	return c;
}

static inline size_t hg_cursor_left(const struct hg_cursor *c)
{
	return c->pos <= c->size ? c->size - c->pos : 0;
}

/* Can `n` bytes be read at absolute offset `off`?  Overflow-safe. */
static inline bool hg_range_ok(size_t size, uint64_t off, uint64_t n)
{
	return off <= size && n <= size - off;
}

static inline bool hg_cursor_need(struct hg_cursor *c, size_t n)
{
	if (c->bad || n > hg_cursor_left(c)) {
		c->bad = true;
		return false;
	}
	return true;
}

static inline bool hg_cursor_seek(struct hg_cursor *c, uint64_t off)
{
	if (off > c->size) {
		c->bad = true;
		return false;
	}
	c->pos = (size_t)off;
	return true;
}

static inline bool hg_cursor_skip(struct hg_cursor *c, uint64_t n)
{
	if (c->bad || n > hg_cursor_left(c)) {
		c->bad = true;
		return false;
	}
	c->pos += (size_t)n;
	return true;
}

/* Pointer to the next `n` bytes, consumed; NULL when they are not there. */
static inline const uint8_t *hg_cursor_take(struct hg_cursor *c, size_t n)
{
	if (!hg_cursor_need(c, n))
		return NULL;
	const uint8_t *p = c->base + c->pos;
	c->pos += n;
	return p;
}

#define HG_CURSOR_LE(bits)                                                     \
	static inline uint##bits##_t hg_cursor_u##bits(struct hg_cursor *c)    \
	{                                                                      \
		uint##bits##_t v = 0;                                          \
		const uint8_t *p = hg_cursor_take(c, sizeof v);                \
		if (p)                                                         \
			memcpy(&v, p, sizeof v); /* hosts are little-endian */ \
		return v;                                                      \
	}
HG_CURSOR_LE(8)
HG_CURSOR_LE(16)
HG_CURSOR_LE(32)
HG_CURSOR_LE(64)
#undef HG_CURSOR_LE

/* Big-endian reads, for msgpack. */
static inline uint64_t hg_cursor_be(struct hg_cursor *c, unsigned n)
{
	const uint8_t *p = hg_cursor_take(c, n);
	uint64_t v = 0;
	for (unsigned i = 0; p && i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Little-endian load from a range already checked by the caller. */
static inline uint32_t hg_load32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline uint64_t hg_load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

#endif /* HG_CURSOR_H */
