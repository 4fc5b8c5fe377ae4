/* SPDX-License-Identifier: MIT */
/*
 * Profile cache: a code object's kernel facts in a compact file named after
 * its content hash, so a second run of the same program decodes nothing.
 *
 * Layout (little-endian): "HGPC", u32 format, u64 facts id (the sources
 * that found the facts: a profile of another build's dataflow or atomics
 * table is found again, not trusted), u64 hash, u32 xnack, u32
 * sramecc, u32 code object version, u32 kernels, str target, then per kernel
 * str name, str symbol, u32 kernarg size, u64 code addr, u64 code size, the
 * atomics (u32 fp ops, u32 fp count, u64 fp first, str fp mnemonics, u32 int
 * ops, u32 int count, str int mnemonics, u32 cas, u32 lds, u8 analysed,
 * str fp sites, str int sites, u32 sys count, str sys sites), u32
 * args and per arg u32 offset, u32 size, u8 kind, u8 space; a trailing u64
 * co_hash of all that came before.  str = u16 length + bytes.  The loader
 * trusts none of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "co_facts_id.h"
#include "co_int.h"

#define FORMAT 6 /* 2: the argument sites of atomics; 3: integer sites name
		  * their operation; 4: sites name an MI300 atomic's scope;
		  * 5: the facts id; 6: synchronization at system scope */
#define MAX_FILE (64u << 20)

struct buf {
	uint8_t *p;
	size_t n, cap;
	bool oom;
};

static void put(struct buf *b, const void *v, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

#define PUT(b, T, v) do { T x_ = (T)(v); put(b, &x_, sizeof x_); } while (0)

static void put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n > UINT16_MAX)
		n = UINT16_MAX;
	PUT(b, uint16_t, n);
	put(b, s, n);
}

static void put_kernel(struct buf *b, const struct co_kernel *k)
{
	const struct co_atomics *a = &k->atomics;
	put_str(b, k->name);
	put_str(b, k->symbol);
	PUT(b, uint32_t, k->kernarg_size);
	PUT(b, uint64_t, k->code_addr);
	PUT(b, uint64_t, k->code_size);
	PUT(b, uint32_t, a->fp_ops);
	PUT(b, uint32_t, a->fp_count);
	PUT(b, uint64_t, a->fp_first);
	put_str(b, a->fp_mnemonics);
	PUT(b, uint32_t, a->int_ops);
	PUT(b, uint32_t, a->int_count);
	put_str(b, a->int_mnemonics);
	PUT(b, uint32_t, a->cas_count);
	PUT(b, uint32_t, a->lds_count);
	PUT(b, uint8_t, a->analysed);
	put_str(b, a->fp_sites);
	put_str(b, a->int_sites);
	PUT(b, uint32_t, a->sys_count);
	put_str(b, a->sys_sites);
	PUT(b, uint32_t, k->nargs);
	for (uint32_t i = 0; i < k->nargs; i++) {
		PUT(b, uint32_t, k->args[i].offset);
		PUT(b, uint32_t, k->args[i].size);
		PUT(b, uint8_t, k->args[i].value_kind);
		PUT(b, uint8_t, k->args[i].address_space);
	}
}

static void cache_path(char *buf, size_t size, const char *dir, uint64_t hash)
{
	snprintf(buf, size, "%s/%016llx.hgp", dir, (unsigned long long)hash);
}

int co_cache_store(const char *dir, const struct co_profiles *p,
		   struct co_error *err)
{
	struct buf b = {0};
	put(&b, "HGPC", 4);
	PUT(&b, uint32_t, FORMAT);
	PUT(&b, uint64_t, CO_FACTS_ID);
	PUT(&b, uint64_t, p->hash);
	PUT(&b, uint32_t, p->xnack);
	PUT(&b, uint32_t, p->sramecc);
	PUT(&b, uint32_t, p->code_object_version);
	PUT(&b, uint32_t, p->nkernels);
	put_str(&b, p->target);
	for (uint32_t i = 0; i < p->nkernels; i++)
		put_kernel(&b, &p->kernels[i]);
	uint64_t h = b.oom ? 0 : co_hash(b.p, b.n);
	put(&b, &h, sizeof h);
	if (b.oom) {
		free(b.p);
		return co_fail(err, "profile cache", dir, 0, "out of memory");
	}
	char path[4096], tmp[4200];
	cache_path(path, sizeof path, dir, p->hash);
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	mkdir(dir, 0700); /* may exist already; open below says if unusable */
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = 0;
	if (fd < 0 || write(fd, b.p, b.n) != (ssize_t)b.n) {
		rc = co_fail(err, "profile cache", tmp, 0, "write: %s", strerror(errno));
	} else if (close(fd) || rename(tmp, path)) {
		fd = -1;
		rc = co_fail(err, "profile cache", path, 0, "%s", strerror(errno));
	} else {
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp);
	free(b.p);
	return rc;
}

static const char *get_str(struct hg_cursor *c, struct co_strpool **pool)
{
	uint16_t n = hg_cursor_u16(c);
	const uint8_t *s = hg_cursor_take(c, n);
	return s ? co_pool_add(pool, (const char *)s, n) : NULL;
}

static void get_fixed(struct hg_cursor *c, char *out, size_t size)
{
	uint16_t n = hg_cursor_u16(c);
	const uint8_t *s = hg_cursor_take(c, n);
	if (!s || n >= size) {
		c->bad = true;
		return;
	}
	memcpy(out, s, n);
	out[n] = 0;
}

static bool get_kernel(struct hg_cursor *c, struct co_kernel *k,
		       struct co_strpool **pool)
{
	struct co_atomics *a = &k->atomics;
	k->name = get_str(c, pool);
	k->symbol = get_str(c, pool);
	k->kernarg_size = hg_cursor_u32(c);
	k->code_addr = hg_cursor_u64(c);
	k->code_size = hg_cursor_u64(c);
	a->fp_ops = hg_cursor_u32(c);
	a->fp_count = hg_cursor_u32(c);
	a->fp_first = hg_cursor_u64(c);
	get_fixed(c, a->fp_mnemonics, sizeof a->fp_mnemonics);
	a->int_ops = hg_cursor_u32(c);
	a->int_count = hg_cursor_u32(c);
	get_fixed(c, a->int_mnemonics, sizeof a->int_mnemonics);
	a->cas_count = hg_cursor_u32(c);
	a->lds_count = hg_cursor_u32(c);
	a->analysed = hg_cursor_u8(c) != 0;
	get_fixed(c, a->fp_sites, sizeof a->fp_sites);
	get_fixed(c, a->int_sites, sizeof a->int_sites);
	a->sys_count = hg_cursor_u32(c);
	get_fixed(c, a->sys_sites, sizeof a->sys_sites);
	k->nargs = hg_cursor_u32(c);
	if (c->bad || !k->name || !k->symbol || k->nargs > CO_MAX_ARGS ||
	    (uint64_t)k->nargs * 10 > hg_cursor_left(c))
		return false;
	struct co_arg *args = co_pool_alloc(pool, k->nargs * sizeof *args + 1);
	if (!args)
		return false;
	for (uint32_t i = 0; i < k->nargs; i++) {
		args[i].offset = hg_cursor_u32(c);
		args[i].size = hg_cursor_u32(c);
		args[i].value_kind = hg_cursor_u8(c);
		args[i].address_space = hg_cursor_u8(c);
	}
	k->args = args;
	return !c->bad;
}

static int parse(const uint8_t *d, size_t n, uint64_t hash,
		 struct co_prof_owned *o, const char **why)
{
	*why = "truncated or corrupt";
	if (n < 16 || co_hash(d, n - 8) != hg_load64(d + n - 8))
		return -1;
	struct hg_cursor c = hg_cursor_make(d, n - 8);
	struct co_profiles *p = &o->p;
	const uint8_t *m = hg_cursor_take(&c, 4);
	if (!m || memcmp(m, "HGPC", 4) || hg_cursor_u32(&c) != FORMAT) {
		*why = "not a hipgrain profile cache file of this format";
		return -1;
	}
	if (hg_cursor_u64(&c) != CO_FACTS_ID) {
		*why = "made by another hipgrain build";
		return -1;
	}
	p->hash = hg_cursor_u64(&c);
	p->xnack = (enum hg_feature)(hg_cursor_u32(&c) & 3);
	p->sramecc = (enum hg_feature)(hg_cursor_u32(&c) & 3);
	p->code_object_version = hg_cursor_u32(&c);
	p->nkernels = hg_cursor_u32(&c);
	get_fixed(&c, p->target, sizeof p->target);
	if (c.bad || p->hash != hash || p->nkernels > CO_MAX_KERNELS ||
	    p->nkernels > hg_cursor_left(&c) / 16) {
		*why = "header does not match the code object asked for";
		return -1;
	}
	p->kernels = co_pool_alloc(&o->pool, p->nkernels * sizeof *p->kernels + 1);
	if (!p->kernels)
		return -1;
	for (uint32_t i = 0; i < p->nkernels; i++)
		if (!get_kernel(&c, &p->kernels[i], &o->pool))
			return -1;
	if (hg_cursor_left(&c)) {
		*why = "trailing bytes";
		return -1;
	}
	co_profiles_sort(p);
	return 0;
}

static uint8_t *slurp(const char *path, size_t *n, int *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *d = NULL;
	*e = 0;
	if (fd < 0 || fstat(fd, &st)) {
		*e = errno;
	} else if (st.st_size <= 0 || st.st_size > MAX_FILE) {
		*e = EFBIG;
	} else if ((d = malloc((size_t)st.st_size))) {
		*n = (size_t)st.st_size;
		if (read(fd, d, *n) != (ssize_t)*n) {
			*e = EIO;
			free(d);
			d = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	return d;
}

struct co_profiles *co_cache_load(const char *dir, uint64_t hash,
				  struct co_error *err)
{
	char path[4096];
	cache_path(path, sizeof path, dir, hash);
	size_t n = 0;
	int e;
	uint8_t *d = slurp(path, &n, &e);
	if (!d) {
		co_fail(err, "profile cache", path, 0, "%s",
			e == ENOENT ? "not cached" : strerror(e ? e : ENOMEM));
		errno = e;
		return NULL;
	}
	struct co_prof_owned *o = calloc(1, sizeof *o);
	const char *why = "out of memory";
	if (!o || parse(d, n, hash, o, &why)) {
		co_fail(err, "profile cache", path, 0, "%s", why);
		if (o)
			co_pool_free(o->pool);
		free(o);
		free(d);
		return NULL;
	}
	free(d);
	return &o->p;
}

void co_profiles_free(struct co_profiles *p)
{
	if (!p)
		return;
	struct co_prof_owned *o = (struct co_prof_owned *)p;
	co_pool_free(o->pool);
	free(o);
}
