/* SPDX-License-Identifier: MIT */
/*
 * Clang offload bundles.
 *
 * Plain:  "__CLANG_OFFLOAD_BUNDLE__", u64 count, then per entry u64 offset,
 *         u64 size, u64 id length, id bytes.  Offsets are from the bundle
 *         start; the bundle's size is the end of its last entry.
 * CCOB:   "CCOB", u16 version, u16 method, then
 *         v1: u32 uncompressed size, u64 hash            (20-byte header)
 *         v2: u32 total size, u32 uncompressed, u64 hash (24)
 *         v3: u64 total size, u64 uncompressed, u64 hash (32)
 *         and the compressed plain bundle.  v1 states no total size: it runs
 *         to the end of what holds it.
 */
#include <string.h>

#include "co_int.h"

static const char magic[] = "__CLANG_OFFLOAD_BUNDLE__";
#define MAGIC_LEN 24

bool co_is_bundle(const uint8_t *p, size_t n)
{
	return n >= MAGIC_LEN && !memcmp(p, magic, MAGIC_LEN);
}

bool co_is_ccob(const uint8_t *p, size_t n)
{
	return n >= 8 && !memcmp(p, "CCOB", 4);
}

static int parse_plain(struct co_set *set, const uint8_t *data, size_t avail,
		       uint64_t base_off, bool compressed, size_t *used,
		       struct co_error *err)
{
	const char *where = co_set_where(set);
	struct hg_cursor c = hg_cursor_make(data, avail);
	hg_cursor_skip(&c, MAGIC_LEN);
	uint64_t count = hg_cursor_u64(&c);
	if (c.bad)
		return co_fail(err, "offload bundle", where, base_off,
			       "header truncated (%zu bytes)", avail);
	if (count == 0 || count > CO_MAX_BUNDLE_ENTRIES)
		return co_fail(err, "offload bundle", where, base_off + 24,
			       "implausible entry count %llu",
			       (unsigned long long)count);
	uint64_t end = 0;
	for (uint64_t i = 0; i < count; i++) {
		size_t at = c.pos;
		uint64_t off = hg_cursor_u64(&c), size = hg_cursor_u64(&c);
		uint64_t tlen = hg_cursor_u64(&c);
		if (c.bad || tlen > CO_MAX_TRIPLE || !hg_cursor_need(&c, tlen))
			return co_fail(err, "offload bundle entry", where,
				       base_off + at,
				       "entry %llu of %llu: descriptor truncated or id too long",
				       (unsigned long long)i, (unsigned long long)count);
		const char *triple = (const char *)c.base + c.pos;
		hg_cursor_skip(&c, tlen);
		if (!hg_range_ok(avail, off, size))
			return co_fail(err, "offload bundle entry", where,
				       base_off + at,
				       "entry %llu (%.*s) lies outside the bundle: offset %llu size %llu, bundle %zu bytes",
				       (unsigned long long)i, (int)tlen, triple,
				       (unsigned long long)off,
				       (unsigned long long)size, avail);
		if (off + size > end)
			end = off + size;
		if (size && co_set_add(set, triple, tlen, data + off, size,
				       compressed ? base_off : base_off + off,
				       compressed, err))
			return -1;
	}
	*used = end > c.pos ? end : c.pos;
	return 0;
}

static int parse_ccob(struct co_set *set, const uint8_t *data, size_t avail,
		      uint64_t base_off, size_t *used, struct co_error *err)
{
	const char *where = co_set_where(set);
	struct hg_cursor c = hg_cursor_make(data, avail);
	hg_cursor_skip(&c, 4);
	unsigned version = hg_cursor_u16(&c), method = hg_cursor_u16(&c);
	uint64_t total = avail, raw;
	if (version == 1) {
		raw = hg_cursor_u32(&c);
	} else if (version == 2) {
		total = hg_cursor_u32(&c);
		raw = hg_cursor_u32(&c);
	} else if (version == 3) {
		total = hg_cursor_u64(&c);
		raw = hg_cursor_u64(&c);
	} else {
		return co_fail(err, "compressed bundle", where, base_off + 4,
			       "unknown CCOB version %u", version);
	}
	hg_cursor_u64(&c); /* hash of the uncompressed bundle; unchecked */
	if (c.bad)
		return co_fail(err, "compressed bundle", where, base_off,
			       "header truncated (%zu bytes)", avail);
	if (total < c.pos || total > avail)
		return co_fail(err, "compressed bundle", where, base_off + 8,
			       "total size %llu does not fit the %zu bytes available",
			       (unsigned long long)total, avail);
	/* neither zlib nor zstd expands much beyond 1000:1 on real data; a
	 * header claiming more is lying, and we would allocate what it says */
	if (raw < MAGIC_LEN + 8 || raw > CO_MAX_UNCOMPRESSED ||
	    raw / 1100 > total - c.pos)
		return co_fail(err, "compressed bundle", where, base_off + 8,
			       "implausible uncompressed size %llu",
			       (unsigned long long)raw);
	uint8_t *out = co_set_keep(set, raw);
	if (!out)
		return co_fail(err, "compressed bundle", where, base_off,
			       "out of memory for %llu bytes", (unsigned long long)raw);
	const char *why = NULL;
	if (co_inflate(method, data + c.pos, total - c.pos, out, raw, &why))
		return co_fail(err, "compressed bundle", where, base_off + c.pos,
			       "%s", why);
	if (!co_is_bundle(out, raw))
		return co_fail(err, "compressed bundle", where, base_off,
			       "payload is not an offload bundle");
	size_t inner;
	if (parse_plain(set, out, raw, base_off, true, &inner, err))
		return -1;
	*used = total;
	return 0;
}

int co_bundle_parse(struct co_set *set, const uint8_t *data, size_t avail,
		    uint64_t base_off, size_t *used, struct co_error *err)
{
	co_set_next_bundle(set);
	if (co_is_ccob(data, avail))
		return parse_ccob(set, data, avail, base_off, used, err);
	if (co_is_bundle(data, avail))
		return parse_plain(set, data, avail, base_off, false, used, err);
	return co_fail(err, "offload bundle", co_set_where(set), base_off,
		       "no __CLANG_OFFLOAD_BUNDLE__ or CCOB magic");
}

/* An entry's device target: what follows "--" in an amdgcn triple. */
static size_t put_target(const char *id, size_t n, char *buf, size_t cap,
			 size_t at)
{
	const char *dash = NULL;
	for (size_t i = 0; i + 1 < n; i++)
		if (id[i] == '-' && id[i + 1] == '-')
			dash = id + i + 2;
	if (!dash || !memmem(id, n, "amdgcn", 6) || dash >= id + n)
		return at;
	size_t len = (size_t)(id + n - dash);
	if (at + len + 2 > cap)
		return at;
	if (at)
		buf[at++] = ',';
	memcpy(buf + at, dash, len);
	buf[at + len] = '\0';
	return at + len;
}

size_t co_bundle_targets(const void *bundle, char *buf, size_t cap)
{
	size_t at = 0;
	if (!cap)
		return 0;
	buf[0] = '\0';
	if (!bundle || !co_is_bundle(bundle, MAGIC_LEN))
		return 0;
	/* Only the header is read; its size is bounded by what it may hold. */
	struct hg_cursor c = hg_cursor_make(bundle, MAGIC_LEN + 8);
	hg_cursor_skip(&c, MAGIC_LEN);
	uint64_t count = hg_cursor_u64(&c);
	if (c.bad || count == 0 || count > CO_MAX_BUNDLE_ENTRIES)
		return 0;
	c = hg_cursor_make(bundle, MAGIC_LEN + 8 + count * (24 + CO_MAX_TRIPLE));
	hg_cursor_skip(&c, MAGIC_LEN + 8);
	for (uint64_t i = 0; i < count; i++) {
		hg_cursor_skip(&c, 16);
		uint64_t tlen = hg_cursor_u64(&c);
		if (c.bad || tlen > CO_MAX_TRIPLE || !hg_cursor_need(&c, tlen))
			break;
		at = put_target((const char *)c.base + c.pos, tlen, buf, cap, at);
		hg_cursor_skip(&c, tlen);
	}
	return at;
}
