/* SPDX-License-Identifier: MIT */
/*
 * AMDHSA metadata (the msgpack NT_AMDGPU_METADATA note of code objects v3+):
 * per kernel its name, symbol, kernarg size and argument layout.  Keys we do
 * not use are skipped whole, so newer metadata versions still read.
 */
#include <string.h>

#include "co_msgpack.h"

struct meta {
	struct hg_cursor c;
	struct co_strpool **pool;
	const char *why;
};

static const struct { const char *s; uint8_t v; } vkinds[] = {
	{"by_value", HG_VK_BY_VALUE}, {"global_buffer", HG_VK_GLOBAL_BUFFER},
	{"dynamic_shared_pointer", HG_VK_DYNAMIC_SHARED_POINTER},
	{"sampler", HG_VK_SAMPLER}, {"image", HG_VK_IMAGE}, {"pipe", HG_VK_PIPE},
	{"queue", HG_VK_QUEUE},
};

static const struct { const char *s; uint8_t v; } spaces[] = {
	{"private", HG_AS_PRIVATE}, {"global", HG_AS_GLOBAL},
	{"constant", HG_AS_CONSTANT}, {"local", HG_AS_LOCAL},
	{"generic", HG_AS_GENERIC}, {"region", HG_AS_REGION},
};

static uint8_t value_kind(const struct mp_val *v)
{
	if (v->t == MP_STR && v->n >= 7 && !memcmp(v->s, "hidden_", 7))
		return HG_VK_HIDDEN;
	for (size_t i = 0; i < sizeof vkinds / sizeof vkinds[0]; i++)
		if (mp_str_is(v, vkinds[i].s))
			return vkinds[i].v;
	return HG_VK_UNKNOWN;
}

static uint8_t address_space(const struct mp_val *v)
{
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
		if (mp_str_is(v, spaces[i].s))
			return spaces[i].v;
	return HG_AS_NONE;
}

static bool bad(struct meta *m, const char *why)
{
	m->why = why;
	return false;
}

static bool read_uint(struct meta *m, uint32_t *out)
{
	struct mp_val v = mp_read(&m->c);
	if (v.t != MP_INT || v.i < 0 || v.i > UINT32_MAX)
		return bad(m, "expected an unsigned 32-bit integer");
	*out = (uint32_t)v.i;
	return true;
}

static bool read_str(struct meta *m, const char **out)
{
	struct mp_val v = mp_read(&m->c);
	if (v.t != MP_STR)
		return bad(m, "expected a string");
	*out = co_pool_add(m->pool, v.s, v.n);
	return *out ? true : bad(m, "out of memory");
}

static bool read_arg(struct meta *m, struct co_arg *a)
{
	struct mp_val map = mp_read(&m->c);
	if (map.t != MP_MAP)
		return bad(m, "kernel argument is not a map");
	for (uint32_t i = 0; i < map.n; i++) {
		struct mp_val k = mp_read(&m->c);
		if (k.t != MP_STR)
			return bad(m, "argument key is not a string");
		bool ok = true;
		if (mp_str_is(&k, ".offset"))
			ok = read_uint(m, &a->offset);
		else if (mp_str_is(&k, ".size"))
			ok = read_uint(m, &a->size);
		else if (mp_str_is(&k, ".value_kind") || mp_str_is(&k, ".address_space")) {
			struct mp_val v = mp_read(&m->c);
			if (v.t != MP_STR)
				return bad(m, "value kind or address space is not a string");
			if (k.s[1] == 'v')
				a->value_kind = value_kind(&v);
			else
				a->address_space = address_space(&v);
		} else
			ok = mp_skip(&m->c, 0) || bad(m, "malformed argument field");
		if (!ok)
			return false;
	}
	return true;
}

static bool read_args(struct meta *m, struct co_kernel *k)
{
	struct mp_val arr = mp_read(&m->c);
	if (arr.t != MP_ARRAY || arr.n > CO_MAX_ARGS)
		return bad(m, ".args is not an array of plausible length");
	struct co_arg *args = co_pool_alloc(m->pool, arr.n * sizeof *args + 1);
	if (!args)
		return bad(m, "out of memory");
	for (uint32_t i = 0; i < arr.n; i++)
		if (!read_arg(m, &args[i]))
			return false;
	k->args = args;
	k->nargs = arr.n;
	return true;
}

static bool read_kernel(struct meta *m, struct co_kernel *k)
{
	struct mp_val map = mp_read(&m->c);
	if (map.t != MP_MAP)
		return bad(m, "kernel entry is not a map");
	for (uint32_t i = 0; i < map.n; i++) {
		struct mp_val key = mp_read(&m->c);
		if (key.t != MP_STR)
			return bad(m, "kernel key is not a string");
		bool ok;
		if (mp_str_is(&key, ".name"))
			ok = read_str(m, &k->name);
		else if (mp_str_is(&key, ".symbol"))
			ok = read_str(m, &k->symbol);
		else if (mp_str_is(&key, ".kernarg_segment_size"))
			ok = read_uint(m, &k->kernarg_size);
		else if (mp_str_is(&key, ".args"))
			ok = read_args(m, k);
		else
			ok = mp_skip(&m->c, 0) || bad(m, "malformed kernel field");
		if (!ok)
			return false;
	}
	if (!k->name || !k->symbol)
		return bad(m, "kernel without .name or .symbol");
	return true;
}

static bool read_kernels(struct meta *m, struct co_profiles *out)
{
	/*
	 * A second amdhsa.kernels key replaced the array but kept the first
	 * one's count: kernels past the new array's end, with NULL names,
	 * were sorted (found by fz_msgpack).  No compiler writes it twice.
	 */
	if (out->kernels)
		return bad(m, "amdhsa.kernels appears twice");
	struct mp_val arr = mp_read(&m->c);
	if (arr.t != MP_ARRAY || arr.n > CO_MAX_KERNELS)
		return bad(m, "amdhsa.kernels is not an array of plausible length");
	out->kernels = co_pool_alloc(m->pool, arr.n * sizeof *out->kernels + 1);
	if (!out->kernels)
		return bad(m, "out of memory");
	for (uint32_t i = 0; i < arr.n; i++) {
		if (!read_kernel(m, &out->kernels[i]))
			return false;
		out->nkernels = i + 1;
	}
	return true;
}

static bool read_version(struct meta *m, struct co_profiles *out)
{
	struct mp_val arr = mp_read(&m->c);
	uint32_t major = 0, minor = 0;
	if (arr.t != MP_ARRAY || arr.n != 2 || !read_uint(m, &major) ||
	    !read_uint(m, &minor))
		return bad(m, "amdhsa.version is not [major, minor]");
	/* [1,0] is code object v3, [1,1] v4, [1,2] v5 ... */
	out->code_object_version = major == 1 ? 3 + minor : 0;
	return true;
}

int co_meta_parse(const uint8_t *p, size_t n, struct co_profiles *out,
		  struct co_strpool **pool, const char **why, size_t *bad_off)
{
	struct meta m = {.c = hg_cursor_make(p, n), .pool = pool};
	struct mp_val map = mp_read(&m.c);
	bool ok = map.t == MP_MAP || bad(&m, "metadata is not a msgpack map");
	for (uint32_t i = 0; ok && i < map.n; i++) {
		struct mp_val key = mp_read(&m.c);
		if (key.t != MP_STR)
			ok = bad(&m, "metadata key is not a string");
		else if (mp_str_is(&key, "amdhsa.kernels"))
			ok = read_kernels(&m, out);
		else if (mp_str_is(&key, "amdhsa.version"))
			ok = read_version(&m, out);
		else if (mp_str_is(&key, "amdhsa.target")) {
			struct mp_val v = mp_read(&m.c);
			ok = v.t == MP_STR || bad(&m, "amdhsa.target is not a string");
			if (ok) {
				const char *t = memmem(v.s, v.n, "--", 2);
				size_t off = t ? (size_t)(t + 2 - v.s) : 0;
				size_t len = v.n - off;
				if (len >= sizeof out->target)
					len = sizeof out->target - 1;
				memcpy(out->target, v.s + off, len);
				out->target[len] = 0;
			}
		} else
			ok = mp_skip(&m.c, 0) || bad(&m, "malformed metadata value");
	}
	if (ok && m.c.bad)
		ok = bad(&m, "metadata truncated");
	if (!ok) {
		*why = m.c.bad ? "metadata truncated" : m.why;
		*bad_off = m.c.pos;
		return -1;
	}
	return 0;
}
