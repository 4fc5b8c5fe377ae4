/* SPDX-License-Identifier: MIT */
#include "reg_host_shared.h"

#include "reg_host.h"
#include "hg_spin.h"
#include "hg_os.h"
#include "reg_rangeset.h"

#define SHARD_BITS 6
#define NSHARDS (1u << SHARD_BITS)
#define INITIAL_CAP 1024u
#define EMPTY ((uintptr_t)0)
#define TOMB ((uintptr_t)1)

struct shard {
	hg_spin_t lock;
	uint32_t mask; /* capacity - 1, 0 before the first insert */
	uint32_t used, tombs;
	struct reg_host_slot *slots;
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

static struct reg_host_slot *probe(struct shard *sh, uint64_t h, uintptr_t addr)
{
	uint32_t i = (uint32_t)h & sh->mask;

	if (!sh->slots)
		return NULL;
	for (;; i = (i + 1) & sh->mask) {
		struct reg_host_slot *s = &sh->slots[i];

		if (s->addr == addr)
			return s;
		if (s->addr == EMPTY)
			return NULL;
	}
}

static void place(struct shard *sh, const struct reg_host_slot *src)
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
	struct reg_host_slot *old = sh->slots;
	uint32_t oldcap = sh->mask ? sh->mask + 1 : 0;

	while (sh->used * 2 >= cap)
		cap *= 2;
	sh->slots = hg_os_alloc((size_t)cap * sizeof(struct reg_host_slot));
	if (!sh->slots) {
		sh->slots = old;
		return false;
	}
	sh->mask = cap - 1;
	sh->used = sh->tombs = 0;
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].addr > TOMB)
			place(sh, &old[i]);
	hg_os_free(old, (size_t)oldcap * sizeof(struct reg_host_slot));
	return true;
}

bool reg_host_shared_put(const struct reg_host_slot *s)
{
	uint64_t h = mix(s->addr);
	struct shard *sh = shard_of(h);
	size_t size = reg_host_slot_size(s);
	struct reg_host_slot *old;
	size_t stale = 0;
	bool ok = true;
	void *unused;

	hg_spin_lock(&sh->lock);
	old = probe(sh, h, s->addr);
	if (old) {
		stale = reg_host_slot_size(old);
		*old = *s;
		goto out;
	}
	if (!sh->slots || (sh->used + sh->tombs + 1) * 4 > (sh->mask + 1) * 3)
		ok = rehash(sh);
	if (ok)
		place(sh, s);
out:
	hg_spin_unlock(&sh->lock);
	if (stale >= REG_HOST_LARGE && size < REG_HOST_LARGE)
		reg_rangeset_remove(&large, s->addr, &unused);
	if (ok && size >= REG_HOST_LARGE)
		ok = reg_rangeset_insert(&large, s->addr, s->addr + size, NULL,
					 NULL);
	return ok;
}

/* addr's slot, NULL if none, with its shard locked in *sh. */
static struct reg_host_slot *locked_slot(uintptr_t addr, struct shard **sh)
{
	uint64_t h = mix(addr);

	*sh = shard_of(h);
	hg_spin_lock(&(*sh)->lock);
	return probe(*sh, h, addr);
}

/* Removed only if `plain` has its allocator's bit and, unless plain is
 * all ones (any block), it was never traced. */
static bool take_if(uintptr_t addr, struct reg_host_block *out, uint64_t plain)
{
	struct shard *sh;
	struct reg_host_slot *s;
	uint8_t api;
	void *unused;

	s = locked_slot(addr, &sh);
	if (s && plain != ~0ull) {
		api = (uint8_t)s->meta;
		if (s->id || api >= 64 || !(plain >> api & 1))
			s = NULL;
	}
	if (s) {
		reg_host_slot_unpack(s, out);
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

bool reg_host_shared_take(uintptr_t addr, struct reg_host_block *out)
{
	return take_if(addr, out, ~0ull);
}

bool reg_host_shared_drop(uintptr_t addr, uint64_t plain)
{
	struct reg_host_block b;

	return take_if(addr, &b, plain);
}

bool reg_host_shared_get(uintptr_t addr, struct reg_host_block *out)
{
	struct shard *sh;
	struct reg_host_slot *s = locked_slot(addr, &sh);

	if (s)
		reg_host_slot_unpack(s, out);
	hg_spin_unlock(&sh->lock);
	return s != NULL;
}

uintptr_t reg_host_shared_large_base(uintptr_t p)
{
	const struct reg_range *r;
	uintptr_t base = 0;

	hg_spin_lock(&large.lock);
	r = reg_rangeset_find_locked(&large, p);
	if (r)
		base = r->base;
	hg_spin_unlock(&large.lock);
	return base;
}

bool reg_host_shared_set_id(uintptr_t addr, uint64_t id)
{
	struct shard *sh;
	struct reg_host_slot *s = locked_slot(addr, &sh);

	if (s)
		s->id = id;
	hg_spin_unlock(&sh->lock);
	return s != NULL;
}

/* Summed on demand: a shared counter would cost every malloc a locked add. */
size_t reg_host_shared_count(void)
{
	size_t n = 0;

	for (unsigned i = 0; i < NSHARDS; i++) {
		hg_spin_lock(&shards[i].lock);
		n += shards[i].used;
		hg_spin_unlock(&shards[i].lock);
	}
	return n;
}

void reg_host_shared_fork_prepare(void)
{
	for (unsigned i = 0; i < NSHARDS; i++)
		hg_spin_lock(&shards[i].lock);
	hg_spin_lock(&large.lock);
}

void reg_host_shared_fork_parent(void)
{
	hg_spin_unlock(&large.lock);
	for (unsigned i = NSHARDS; i-- > 0;)
		hg_spin_unlock(&shards[i].lock);
}

void reg_host_shared_fork_child(void)
{
	hg_spin_reset(&large.lock);
	for (unsigned i = 0; i < NSHARDS; i++)
		hg_spin_reset(&shards[i].lock);
}
