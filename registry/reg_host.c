/* SPDX-License-Identifier: MIT */
#include "reg_host.h"

#include "hg_spin.h"
#include "hg_os.h"
#include "reg_rangeset.h"

#define SHARD_BITS 6
#define NSHARDS (1u << SHARD_BITS)
#define INITIAL_CAP 1024u
#define EMPTY ((uintptr_t)0)
#define TOMB ((uintptr_t)1)

struct slot {
	uintptr_t addr;
	uint64_t meta; /* size << 8 | api */
	uintptr_t site;
	uint64_t id;
};

struct shard {
	hg_spin_t lock;
	uint32_t mask; /* capacity - 1, 0 before the first insert */
	uint32_t used, tombs;
	struct slot *slots;
} __attribute__((aligned(64)));

static struct shard shards[NSHARDS];
static struct reg_rangeset large = REG_RANGESET_INIT;

static inline uint64_t mix(uintptr_t a)
{
	uint64_t h = a >> 4; /* glibc blocks are 16-byte aligned */

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static inline struct shard *shard_of(uint64_t h)
{
	return &shards[h >> (64 - SHARD_BITS)];
}

static struct slot *probe(struct shard *sh, uint64_t h, uintptr_t addr)
{
	uint32_t i = (uint32_t)h & sh->mask;

	if (!sh->slots)
		return NULL;
	for (;; i = (i + 1) & sh->mask) {
		struct slot *s = &sh->slots[i];

		if (s->addr == addr)
			return s;
		if (s->addr == EMPTY)
			return NULL;
	}
}

static void place(struct shard *sh, const struct slot *src)
{
	uint32_t i = (uint32_t)mix(src->addr) & sh->mask;

	while (sh->slots[i].addr > TOMB)
		i = (i + 1) & sh->mask;
	if (sh->slots[i].addr == TOMB)
		sh->tombs--;
	sh->slots[i] = *src;
	sh->used++;
}

/* Rebuild at a size that leaves the table at most half full. */
static bool rehash(struct shard *sh)
{
	uint32_t cap = sh->mask ? sh->mask + 1 : INITIAL_CAP;
	struct slot *old = sh->slots;
	uint32_t oldcap = sh->mask ? sh->mask + 1 : 0;

	while (sh->used * 2 >= cap)
		cap *= 2;
	sh->slots = hg_os_alloc((size_t)cap * sizeof(struct slot));
	if (!sh->slots) {
		sh->slots = old;
		return false;
	}
	sh->mask = cap - 1;
	sh->used = sh->tombs = 0;
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].addr > TOMB)
			place(sh, &old[i]);
	hg_os_free(old, (size_t)oldcap * sizeof(struct slot));
	return true;
}

bool reg_host_insert(uintptr_t addr, size_t size, uint8_t api, uintptr_t site)
{
	uint64_t h = mix(addr);
	struct shard *sh = shard_of(h);
	struct slot s = {addr, ((uint64_t)size << 8) | api, site, 0};
	struct slot *old;
	size_t stale = 0;
	bool ok = true;
	void *unused;

	hg_spin_lock(&sh->lock);
	old = probe(sh, h, addr);
	if (old) {
		stale = old->meta >> 8;
		*old = s; /* freed behind our back, then reused */
		goto out;
	}
	if (!sh->slots || (sh->used + sh->tombs + 1) * 4 > (sh->mask + 1) * 3)
		ok = rehash(sh);
	if (ok)
		place(sh, &s);
out:
	hg_spin_unlock(&sh->lock);
	if (stale >= REG_HOST_LARGE && size < REG_HOST_LARGE)
		reg_rangeset_remove(&large, addr, &unused);
	if (ok && size >= REG_HOST_LARGE)
		ok = reg_rangeset_insert(&large, addr, addr + size, NULL, NULL);
	return ok;
}

static void unpack(const struct slot *s, struct reg_host_block *out)
{
	out->addr = s->addr;
	out->size = s->meta >> 8;
	out->api = (uint8_t)s->meta;
	out->site = s->site;
	out->id = s->id;
}

bool reg_host_remove(uintptr_t addr, struct reg_host_block *out)
{
	uint64_t h = mix(addr);
	struct shard *sh = shard_of(h);
	struct slot *s;
	void *unused;

	hg_spin_lock(&sh->lock);
	s = probe(sh, h, addr);
	if (s) {
		unpack(s, out);
		s->addr = TOMB;
		sh->used--;
		sh->tombs++;
	}
	hg_spin_unlock(&sh->lock);
	if (!s)
		return false;
	if (out->size >= REG_HOST_LARGE)
		reg_rangeset_remove(&large, addr, &unused);
	return true;
}

static bool lookup(uintptr_t addr, struct reg_host_block *out)
{
	uint64_t h = mix(addr);
	struct shard *sh = shard_of(h);
	struct slot *s;

	hg_spin_lock(&sh->lock);
	s = probe(sh, h, addr);
	if (s)
		unpack(s, out);
	hg_spin_unlock(&sh->lock);
	return s != NULL;
}

bool reg_host_find(uintptr_t p, struct reg_host_block *out)
{
	const struct reg_range *r;
	uintptr_t base = 0;

	hg_spin_lock(&large.lock);
	r = reg_rangeset_find_locked(&large, p);
	if (r)
		base = r->base;
	hg_spin_unlock(&large.lock);
	if (base) /* the range may be stale: the block there now may be small */
		return lookup(base, out) && p < out->addr + out->size;
	/* Blocks never overlap, so the first live start at or below p either
	 * contains p or proves that no small block does. */
	for (uintptr_t a = p & ~(uintptr_t)15; a + REG_HOST_LARGE > p && a > TOMB;
	     a -= 16)
		if (lookup(a, out))
			return p < out->addr + out->size;
	return false;
}

bool reg_host_set_id(uintptr_t addr, uint64_t id)
{
	uint64_t h = mix(addr);
	struct shard *sh = shard_of(h);
	struct slot *s;

	hg_spin_lock(&sh->lock);
	s = probe(sh, h, addr);
	if (s)
		s->id = id;
	hg_spin_unlock(&sh->lock);
	return s != NULL;
}

/* Summed on demand: a shared counter would cost every malloc a locked add. */
size_t reg_host_count(void)
{
	size_t n = 0;

	for (unsigned i = 0; i < NSHARDS; i++) {
		hg_spin_lock(&shards[i].lock);
		n += shards[i].used;
		hg_spin_unlock(&shards[i].lock);
	}
	return n;
}

void reg_host_fork_prepare(void)
{
	for (unsigned i = 0; i < NSHARDS; i++)
		hg_spin_lock(&shards[i].lock);
	hg_spin_lock(&large.lock);
}

void reg_host_fork_parent(void)
{
	hg_spin_unlock(&large.lock);
	for (unsigned i = NSHARDS; i-- > 0;)
		hg_spin_unlock(&shards[i].lock);
}

void reg_host_fork_child(void)
{
	hg_spin_reset(&large.lock);
	for (unsigned i = 0; i < NSHARDS; i++)
		hg_spin_reset(&shards[i].lock);
}
