/* SPDX-License-Identifier: MIT */
/* Containers of code objects: wrappers, images, files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "co_int.h"

#define HIPF_MAGIC 0x48495046u

struct keep {
	struct keep *next;
	max_align_t align[];
};

struct co_set {
	char where[256];
	void *map;
	size_t map_size;
	struct co_entry *e;
	size_t n, cap;
	struct keep *kept;
	uint32_t bundles;
};

static struct co_set *set_new(const char *where)
{
	struct co_set *s = calloc(1, sizeof *s);
	if (s)
		snprintf(s->where, sizeof s->where, "%s", where);
	return s;
}

const char *co_set_where(const struct co_set *set) { return set->where; }
void co_set_next_bundle(struct co_set *set) { set->bundles++; }
size_t co_set_count(const struct co_set *set) { return set->n; }
size_t co_set_bundles(const struct co_set *set) { return set->bundles; }

const struct co_entry *co_set_entry(const struct co_set *set, size_t i)
{
	return i < set->n ? &set->e[i] : NULL;
}

void co_set_release(const struct co_set *set, size_t i)
{
	const uint8_t *map = set->map, *p, *q;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (i >= set->n || !map)
		return;
	p = set->e[i].data;
	q = p + set->e[i].size;
	if (p < map || q > map + set->map_size)
		return; /* decompressed: not the file's pages */
	/* Whole pages inside the entry only: a neighbour may be in use. */
	p = (const uint8_t *)(((uintptr_t)p + page - 1) & ~(page - 1));
	q = (const uint8_t *)((uintptr_t)q & ~(page - 1));
	if (q > p)
		madvise((void *)p, (size_t)(q - p), MADV_DONTNEED);
}

uint8_t *co_set_keep(struct co_set *set, size_t size)
{
	struct keep *k = malloc(sizeof *k + size + 1);
	if (!k)
		return NULL;
	k->next = set->kept;
	set->kept = k;
	return (uint8_t *)k->align;
}

static char *keep_str(struct co_set *set, const char *s, size_t n)
{
	char *d = (char *)co_set_keep(set, n);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

int co_set_add(struct co_set *set, const char *triple, size_t tlen,
	       const uint8_t *data, size_t size, uint64_t off, bool compressed,
	       struct co_error *err)
{
	/* host and non-AMDGPU entries are not code objects we read */
	if (!memmem(triple, tlen, "amdgcn", 6))
		return 0;
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;
		struct co_entry *e = realloc(set->e, cap * sizeof *e);
		if (!e)
			return co_fail(err, "code object list", set->where, off,
				       "out of memory");
		set->e = e;
		set->cap = cap;
	}
	char *t = keep_str(set, triple, tlen);
	if (!t)
		return co_fail(err, "code object list", set->where, off, "out of memory");
	const char *dash = strstr(t, "--");
	set->e[set->n++] = (struct co_entry){
		.triple = t, .target = dash ? dash + 2 : t, .data = data,
		.size = size, .offset = off, .bundle = set->bundles ? set->bundles - 1 : 0,
		.compressed = compressed,
	};
	return 0;
}

void co_set_free(struct co_set *set)
{
	if (!set)
		return;
	for (struct keep *k = set->kept, *next; k; k = next) {
		next = k->next;
		free(k);
	}
	if (set->map)
		munmap(set->map, set->map_size);
	free(set->e);
	free(set);
}

/* A bare ELF: one entry whose target comes from its own header. */
static int add_elf(struct co_set *set, const uint8_t *p, size_t n,
		   uint64_t off, struct co_error *err)
{
	char triple[96];
	struct co_error e2;
	struct co_object *o = co_object_open(p, n, set->where, &e2);
	if (!o) {
		if (err)
			*err = e2;
		return -1;
	}
	snprintf(triple, sizeof triple, "amdgcn-amd-amdhsa--%s",
		 co_object_profiles(o)->target);
	co_object_free(o);
	set->bundles = 0;
	return co_set_add(set, triple, strlen(triple), p, n, off, false, err);
}

/* Bundles back to back (padding between them), as in .hip_fatbin. */
static int add_bundles(struct co_set *set, const uint8_t *p, size_t n,
		       uint64_t base, struct co_error *err)
{
	size_t pos = 0;
	while (pos < n) {
		if (!co_is_bundle(p + pos, n - pos) && !co_is_ccob(p + pos, n - pos)) {
			pos = (pos + 8) & ~(size_t)7; /* linkers align bundles */
			continue;
		}
		size_t used = 0;
		if (co_bundle_parse(set, p + pos, n - pos, base + pos, &used, err))
			return -1;
		pos += used ? used : 8;
	}
	if (set->bundles == 0)
		return co_fail(err, "fat binary", set->where, base,
			       "no offload bundle in %zu bytes", n);
	return 0;
}

/* In memory with no size given: the headers are all there is to go by. */
static size_t image_extent(const uint8_t *p)
{
	if (!memcmp(p, "\177ELF", 4))
		return co_elf_extent(p, CO_MAX_UNCOMPRESSED);
	if (!memcmp(p, "CCOB", 4)) {
		uint16_t v;
		memcpy(&v, p + 4, 2);
		uint32_t t32;
		uint64_t t64;
		memcpy(&t32, p + 8, 4);
		memcpy(&t64, p + 8, 8);
		return v == 2 ? t32 : v == 3 ? (size_t)t64 : 0;
	}
	if (co_is_offload_binary(p, 32))
		return co_offload_extent(p);
	return CO_MAX_UNCOMPRESSED; /* plain bundle: its header bounds itself */
}

struct co_set *co_set_from_image(const void *image, size_t size,
				 struct co_error *err)
{
	const uint8_t *p = image;
	if (!p) {
		co_fail(err, "code object image", "memory", 0, "null pointer");
		return NULL;
	}
	if (size == 0)
		size = image_extent(p);
	struct co_set *set = set_new("memory");
	if (!set) {
		co_fail(err, "code object image", "memory", 0, "out of memory");
		return NULL;
	}
	int rc;
	if (co_is_amdgpu_elf(p, size))
		rc = add_elf(set, p, size, 0, err);
	else if (co_is_bundle(p, size) || co_is_ccob(p, size)) {
		size_t used;
		rc = co_bundle_parse(set, p, size, 0, &used, err);
	} else if (co_is_offload_binary(p, size)) {
		size_t used;
		rc = co_offload_parse(set, p, size, 0, &used, err);
	} else
		rc = co_fail(err, "code object image", "memory", 0,
			     "neither an offload bundle, an offload binary nor "
			     "an AMDGPU ELF (size %zu)",
			     size);
	if (rc) {
		co_set_free(set);
		return NULL;
	}
	return set;
}

struct co_set *co_set_from_wrapper(const void *wrapper, struct co_error *err)
{
	struct { uint32_t magic, version; const void *binary, *dummy; } w;
	if (!wrapper) {
		co_fail(err, "fat binary wrapper", "memory", 0, "null pointer");
		return NULL;
	}
	memcpy(&w, wrapper, sizeof w);
	if (w.magic != HIPF_MAGIC || !w.binary) {
		co_fail(err, "fat binary wrapper", "memory", 0,
			"magic 0x%08x is not HIPF (0x%08x) or no binary",
			w.magic, HIPF_MAGIC);
		return NULL;
	}
	const uint8_t *b = w.binary;
	if (!co_is_bundle(b, 32) && !co_is_ccob(b, 32)) {
		co_fail(err, "fat binary wrapper", "memory", 8,
			"binary is not an offload bundle");
		return NULL;
	}
	return co_set_from_image(b, 0, err);
}

/* One section (or embedded image) a host ELF carries. */
static int load_host_sec(struct co_set *set, const uint8_t *p,
			 const struct co_host_sec *h, struct co_error *err)
{
	const uint8_t *q = p + h->off;
	size_t used;

	switch (h->kind) {
	case CO_HOST_FATBIN:
		return add_bundles(set, q, h->size, h->off, err);
	case CO_HOST_OFFLOADING:
		return co_offload_section(set, q, h->size, h->off, err);
	default: /* an .omp_offloading.<triple> section, or an embedded ELF */
		if (co_is_bundle(q, h->size) || co_is_ccob(q, h->size))
			return co_bundle_parse(set, q, h->size, h->off, &used, err);
		if (co_is_amdgpu_elf(q, h->size))
			return add_elf(set, q, h->size, h->off, err);
		return co_fail(err, "OpenMP device image", set->where, h->off,
			       "neither an AMDGPU ELF nor an offload bundle");
	}
}

static int load_host(struct co_set *set, const uint8_t *p, size_t n,
		     struct co_error *err)
{
	enum { MAX_SECS = 64 };
	struct co_host_sec secs[MAX_SECS];
	const char *why = NULL;
	bool omp_host;
	int k = co_host_sections(p, n, secs, MAX_SECS, &omp_host, &why);

	if (k < 0)
		return co_fail(err, "ELF", set->where, 0, "%s", why);
	for (int i = 0; i < k; i++)
		if (load_host_sec(set, p, &secs[i], err))
			return -1;
	/* Registers OpenMP images, yet none was found: never a false clean. */
	if (omp_host && set->n == 0)
		return co_fail(err, "ELF", set->where, 0,
			       "registers OpenMP offload images "
			       "(__tgt_register_lib) but none was found");
	return 0;
}

static int load_file(struct co_set *set, const uint8_t *p, size_t n,
		     struct co_error *err)
{
	if (co_is_amdgpu_elf(p, n))
		return add_elf(set, p, n, 0, err);
	if (co_is_bundle(p, n) || co_is_ccob(p, n))
		return add_bundles(set, p, n, 0, err);
	if (co_is_offload_binary(p, n))
		return co_offload_section(set, p, n, 0, err);
	if (n >= 4 && !memcmp(p, "\177ELF", 4))
		return load_host(set, p, n, err);
	return co_fail(err, "input", set->where, 0,
		       "not an ELF file, offload bundle, offload binary or code object");
}

struct co_set *co_set_from_file(const char *path, struct co_error *err)
{
	struct co_set *set = set_new(path);
	if (!set) {
		co_fail(err, "file", path, 0, "out of memory");
		return NULL;
	}
	/*
	 * O_NONBLOCK: a FIFO with no writer would block open() forever (found
	 * by tests/hostile); this way it opens at once and fstat() refuses it
	 * below.  Regular files, the only ones read, ignore the flag.
	 */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		co_fail(err, "file", path, 0, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		co_fail(err, "file", path, 0, "not a regular non-empty file");
		goto fail;
	}
	set->map_size = (size_t)st.st_size;
	set->map = mmap(NULL, set->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (set->map == MAP_FAILED) {
		set->map = NULL;
		co_fail(err, "file", path, 0, "mmap: %s", strerror(errno));
		goto fail;
	}
	close(fd);
	fd = -1;
	if (load_file(set, set->map, set->map_size, err))
		goto fail;
	return set;
fail:
	if (fd >= 0)
		close(fd);
	co_set_free(set);
	return NULL;
}

long co_set_select(const struct co_set *set, const char *device_isa)
{
	struct co_target dev, code;
	if (co_target_parse(device_isa, &dev))
		return -1;
	long best = -1;
	int best_score = -1;
	for (size_t i = 0; i < set->n; i++) {
		if (co_target_parse(set->e[i].target, &code))
			continue;
		int s = co_target_match(&code, &dev);
		if (s >= 0) /* a specific target's code before a generic one's */
			s = 2 * s + !co_target_generic(code.proc);
		if (s > best_score) {
			best_score = s;
			best = (long)i;
		}
	}
	return best;
}
