/* SPDX-License-Identifier: MIT */
#include "reg_site.h"

#include <link.h>
#include <stdatomic.h>
#include <string.h>

#define UNW_LOCAL_ONLY /* the _UL entry points, all in libunwind.so */
#include <libunwind.h>

#include "reg_emit.h"
#include "reg_lock.h"
#include "reg_os.h"

#define TABLE_BITS 16
#define TABLE_CAP (1u << TABLE_BITS)
#define ARENA_CHUNK ((size_t)1 << 20)

struct entry {
	uint64_t hash;
	uint64_t id;
	const uint64_t *frames;
	uint32_t n;
};

static reg_lock_t lock = REG_LOCK_INIT;
static struct entry *table; /* TABLE_CAP entries; when full, ids stop being shared */
static uint64_t *arena;
static size_t arena_left;
static uint64_t next_id = 1;
static unsigned depth = 24;

void reg_site_set_depth(unsigned d)
{
	depth = d < 1 ? 1 : d > REG_SITE_MAX_DEPTH ? REG_SITE_MAX_DEPTH : d;
	/* As heaptrack does: no lock on the unwinder's cache per stack. */
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
}

static uint64_t hash_frames(const uint64_t *f, unsigned n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;

	for (unsigned i = 0; i < n; i++) {
		h ^= f[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h;
}

static const uint64_t *keep(const uint64_t *f, unsigned n)
{
	uint64_t *dst;

	if (arena_left < n) {
		arena = reg_os_alloc(ARENA_CHUNK);
		arena_left = arena ? ARENA_CHUNK / sizeof(uint64_t) : 0;
		if (!arena)
			return NULL;
	}
	dst = arena;
	memcpy(dst, f, n * sizeof(*f));
	arena += n;
	arena_left -= n;
	return dst;
}

/* Returns the id and whether the caller must emit it (first sighting). */
static uint64_t lookup_or_add(const uint64_t *f, unsigned n, int *fresh)
{
	uint64_t h = hash_frames(f, n), id;
	uint32_t i = (uint32_t)h & (TABLE_CAP - 1);

	*fresh = 0;
	reg_lock(&lock);
	if (!table && !(table = reg_os_alloc(TABLE_CAP * sizeof(*table)))) {
		id = next_id++;
		*fresh = 1;
		goto out;
	}
	for (uint32_t probes = 0; probes < TABLE_CAP; probes++) {
		struct entry *e = &table[(i + probes) & (TABLE_CAP - 1)];

		if (e->id == 0) {
			id = next_id++;
			*fresh = 1;
			e->frames = keep(f, n);
			if (e->frames)
				*e = (struct entry){h, id, e->frames, n};
			goto out;
		}
		if (e->hash == h && e->n == n &&
		    !memcmp(e->frames, f, n * sizeof(*f))) {
			id = e->id;
			goto out;
		}
	}
	id = next_id++; /* table full: correct, merely not deduplicated */
	*fresh = 1;
out:
	reg_unlock(&lock);
	return id;
}

uint64_t reg_site_intern(const uint64_t *frames, unsigned n)
{
	int fresh;
	uint64_t id = lookup_or_add(frames, n, &fresh);

	if (fresh)
		reg_emit_callsite(id, frames, (uint16_t)n);
	return id;
}

/* The address range of the object this code is linked into (the preload),
 * whose frames are hipgrain's own, not the program's. */
static uintptr_t self_lo, self_hi;

static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t me = (uintptr_t)arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && me >= lo &&
		    me < lo + ph->p_memsz) {
			self_lo = lo;
			self_hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

/*
 * Unwind and drop the leading frames that are hipgrain's own.  Which ones
 * those are depends on inlining, so they are found by address; `skip` is
 * only a floor.
 */
uint64_t reg_site_capture(unsigned skip)
{
	void *buf[REG_SITE_MAX_DEPTH + 24];
	uint64_t frames[REG_SITE_MAX_DEPTH];
	int got = unw_backtrace(buf, (int)(depth + skip + 16));
	unsigned n = 0;
	int i = 0;

	if (!self_hi)
		dl_iterate_phdr(find_self, (void *)(uintptr_t)reg_site_capture);
	while (i < got && (uintptr_t)buf[i] >= self_lo &&
	       (uintptr_t)buf[i] < self_hi)
		i++;
	if (!self_hi) /* not found: fall back on the caller's count */
		i = (int)skip + 1;
	for (; i < got && n < depth; i++)
		frames[n++] = (uint64_t)(uintptr_t)buf[i];
	return reg_site_intern(frames, n);
}

uint64_t reg_site_from_ip(uintptr_t ip)
{
	uint64_t f = ip;

	return reg_site_intern(&f, 1);
}

void reg_site_fork_prepare(void)
{
	reg_lock(&lock);
}

void reg_site_fork_parent(void)
{
	reg_unlock(&lock);
}

void reg_site_fork_child(void)
{
	reg_lock_reset(&lock);
}
