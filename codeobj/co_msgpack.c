/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "co_msgpack.h"

static struct mp_val bytes(struct hg_cursor *c, enum mp_type t, uint64_t n)
{
	struct mp_val v = {.t = t, .n = (uint32_t)n};
	v.s = (const char *)hg_cursor_take(c, n);
	if (!v.s)
		v.t = MP_BAD;
	return v;
}

static struct mp_val container(struct hg_cursor *c, enum mp_type t, uint64_t n)
{
	/* every item takes at least one byte: a larger count is a lie */
	struct mp_val v = {.t = t, .n = (uint32_t)n};
	uint64_t min = t == MP_MAP ? 2 * n : n;
	if (c->bad || min > hg_cursor_left(c))
		v.t = MP_BAD;
	return v;
}

static struct mp_val ext(struct hg_cursor *c, uint64_t n)
{
	hg_cursor_u8(c); /* type */
	return bytes(c, MP_EXT, n);
}

struct mp_val mp_read(struct hg_cursor *c)
{
	struct mp_val v = {.t = MP_BAD};
	uint8_t b = hg_cursor_u8(c);
	if (c->bad)
		return v;
	if (b <= 0x7f)
		return (struct mp_val){.t = MP_INT, .i = b};
	if (b >= 0xe0)
		return (struct mp_val){.t = MP_INT, .i = (int8_t)b};
	if ((b & 0xf0) == 0x80)
		return container(c, MP_MAP, b & 0x0f);
	if ((b & 0xf0) == 0x90)
		return container(c, MP_ARRAY, b & 0x0f);
	if ((b & 0xe0) == 0xa0)
		return bytes(c, MP_STR, b & 0x1f);
	switch (b) {
	case 0xc0: return (struct mp_val){.t = MP_NIL};
	case 0xc2: case 0xc3: return (struct mp_val){.t = MP_BOOL, .i = b & 1};
	case 0xc4: case 0xc5: case 0xc6:
		return bytes(c, MP_BIN, hg_cursor_be(c, 1u << (b - 0xc4)));
	case 0xc7: case 0xc8: case 0xc9:
		return ext(c, hg_cursor_be(c, 1u << (b - 0xc7)));
	case 0xca: hg_cursor_skip(c, 4); v.t = c->bad ? MP_BAD : MP_FLOAT; return v;
	case 0xcb: hg_cursor_skip(c, 8); v.t = c->bad ? MP_BAD : MP_FLOAT; return v;
	case 0xcc: case 0xcd: case 0xce: case 0xcf:
		v.i = (int64_t)hg_cursor_be(c, 1u << (b - 0xcc));
		v.t = c->bad ? MP_BAD : MP_INT;
		return v;
	case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
		unsigned n = 1u << (b - 0xd0);
		uint64_t u = hg_cursor_be(c, n);
		if (n < 8 && (u >> (8 * n - 1)) & 1)
			u |= ~0ull << (8 * n); /* sign-extend */
		v.i = (int64_t)u;
		v.t = c->bad ? MP_BAD : MP_INT;
		return v;
	}
	case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
		return ext(c, 1u << (b - 0xd4));
	case 0xd9: case 0xda: case 0xdb:
		return bytes(c, MP_STR, hg_cursor_be(c, 1u << (b - 0xd9)));
	case 0xdc: case 0xdd:
		return container(c, MP_ARRAY, hg_cursor_be(c, 2u << (b - 0xdc)));
	case 0xde: case 0xdf:
		return container(c, MP_MAP, hg_cursor_be(c, 2u << (b - 0xde)));
	default:
		return v; /* 0xc1 is never used */
	}
}

bool mp_skip(struct hg_cursor *c, int depth)
{
	if (depth > 64)
		return false;
	struct mp_val v = mp_read(c);
	if (v.t == MP_BAD)
		return false;
	uint64_t items = v.t == MP_ARRAY ? v.n : v.t == MP_MAP ? 2ull * v.n : 0;
	for (uint64_t i = 0; i < items; i++)
		if (!mp_skip(c, depth + 1))
			return false;
	return true;
}

bool mp_str_is(const struct mp_val *v, const char *s)
{
	return v->t == MP_STR && strlen(s) == v->n && !memcmp(v->s, s, v->n);
}
