/* SPDX-License-Identifier: MIT */
#include "reg_dev.h"

#include <stdatomic.h>
#include <string.h>

#include "hg_pack.h"
#include "reg_gran_map.h"
#include "reg_recent.h"
#include "reg_rangeset.h"

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);

struct dev_range {
	struct reg_dev_info info;
	struct reg_gran_map gran;
	struct dev_range *next_spare;
};

/*
 * One lock, the ranges', guards everything here: the ranges, the spare
 * records, and the writes of the two counters below, which are then plain
 * stores (a loop that allocates and frees a temporary takes it once a
 * call, and no other atomic).
 */
static struct reg_rangeset ranges = REG_RANGESET_INIT;
static atomic_uint_fast64_t generation;

/* Records are kept for reuse: a loop that allocates and frees a temporary
 * would otherwise pay a malloc and a free for ours as well. */
#define MAX_SPARE 64

static struct dev_range *spare;
static unsigned nspare;

static struct dev_range *spare_take(void)
{
	struct dev_range *d = spare;

	if (d) {
		spare = d->next_spare;
		nspare--;
	}
	return d;
}

/* Returns d when there is no room: the caller frees it, unlocked. */
static struct dev_range *spare_keep(struct dev_range *d)
{
	if (nspare == MAX_SPARE)
		return d;
	d->next_spare = spare;
	spare = d;
	nspare++;
	return NULL;
}

static void bump(atomic_uint_fast64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_release);
}

static void changed(void)
{
	bump(&generation);
}

uint64_t reg_dev_generation(void)
{
	return atomic_load_explicit(&generation, memory_order_acquire);
}

/* This thread's entry of a whole range that went away: the table keeps
 * whole ranges, which do not overlap, so only the live entry that starts
 * where it starts can hold it, mostly found where the launches that used
 * it left it in seen[]. */
static void forget_range(uintptr_t base)
{
	unsigned h = reg_recent_seen_slot(base), c = reg_recent.seen_at[h];

	if (reg_recent.seen[h] != base || reg_recent.base[c] != base ||
	    !reg_recent.len[c])
		for (c = 0; c < reg_recent.top &&
			    (reg_recent.base[c] != base || !reg_recent.len[c]);
		     c++)
			;
	if (c < reg_recent.top) {
		reg_recent.len[c] = 0;
		reg_recent.hole = c;
	}
}

/* [lo, hi) went away or changed (after the change, so that a thread that
 * saw the old epoch had the old range); under the lock.  `whole`: it is a
 * whole range, gone. */
static void retire(uintptr_t lo, uintptr_t hi, bool whole)
{
	uint64_t old = atomic_load_explicit(&reg_recent_epoch,
					    memory_order_relaxed);

	bump(&reg_recent_epoch);
	if (reg_recent.epoch != old) {
		reg_recent.epoch = 0;
		return;
	}
	if (whole)
		forget_range(lo);
	else
		for (unsigned i = 0; i < reg_recent.top; i++)
			if (reg_recent.base[i] < hi &&
			    lo < reg_recent.base[i] + reg_recent.len[i])
				reg_recent.len[i] = 0;
	reg_recent.epoch = old + 1;
}

static void retire_range(const struct reg_dev_info *r)
{
	retire(r->base, r->base + (r->size ? r->size : 1), true);
}

/* With the epoch reg_recent_sync returned before the registry's lock was
 * taken: a range of one granularity throughout. */
static void near_put(const struct reg_dev_info *r, uint8_t gran, uint64_t e)
{
	unsigned i = reg_recent.hole;

	if (reg_recent.epoch != e || !r->size)
		return;
	if (i >= reg_recent.top || reg_recent.len[i])
		for (i = 0; i < reg_recent.top && reg_recent.len[i]; i++)
			;
	if (i == REG_RECENT) {
		i = reg_recent.next;
		reg_recent.next = (reg_recent.next + 1) % REG_RECENT;
	} else if (i == reg_recent.top) {
		reg_recent.top++;
	}
	reg_recent.base[i] = r->base, reg_recent.len[i] = r->size;
	reg_recent.id[i] = r->id, reg_recent.mem[i] = r->mem;
	reg_recent.gran[i] = gran;
	reg_recent.what[i] = (uint32_t)r->mem << 16 | (uint32_t)gran << 24;
	reg_recent.idlen[i] = (uint8_t)hg_pack_len63(r->id);
	reg_recent.cls5[i] = (uint8_t)hg_pack_v5_class(r->mem, gran);
}

/* Under the lock. */
static void near_keep(const struct dev_range *d, uint64_t e)
{
	if (d->gran.n == 1) /* else split by advice: looked up each time */
		near_put(&d->info, d->gran.p[0].gran, e);
}

/* Under the lock; returns what the caller frees, unlocked. */
static struct dev_range *drop(struct dev_range *d)
{
	reg_gran_map_fini(&d->gran);
	return spare_keep(d);
}

/* A range that an insert found overlapping: gone behind our back.  Rare:
 * a record with no room among the spares is freed under the lock. */
static void evict(void *v)
{
	retire_range(&((const struct dev_range *)v)->info);
	__libc_free(drop(v));
}

/* The thread that allocates a range mostly launches on it next: the range
 * goes into its table at once, as the first lookup would put it. */
bool reg_dev_add(const struct reg_dev_info *info)
{
	uint64_t e = reg_recent_sync(); /* before the insert: never too new */
	struct dev_range *d;
	bool ok;

	hg_spin_lock(&ranges.lock);
	d = spare_take();
	if (!d) {
		hg_spin_unlock(&ranges.lock);
		d = __libc_malloc(sizeof(*d));
		if (!d)
			return false;
		hg_spin_lock(&ranges.lock);
	}
	d->info = *info;
	reg_gran_map_init(&d->gran, info->gran);
	changed();
	ok = reg_rangeset_insert_locked(&ranges, info->base,
					info->base + info->size, d, evict);
	if (!ok)
		d = drop(d);
	hg_spin_unlock(&ranges.lock);
	if (!ok) {
		__libc_free(d);
		return false;
	}
	near_put(info, info->gran, e);
	return true;
}

bool reg_dev_remove(uintptr_t base, struct reg_dev_info *out)
{
	struct dev_range *d;
	void *v;

	hg_spin_lock(&ranges.lock);
	if (!reg_rangeset_remove_locked(&ranges, base, &v)) {
		hg_spin_unlock(&ranges.lock);
		return false;
	}
	changed();
	*out = ((struct dev_range *)v)->info;
	retire_range(out);
	d = drop(v);
	hg_spin_unlock(&ranges.lock);
	__libc_free(d);
	return true;
}

bool reg_dev_find(uintptr_t p, struct reg_dev_info *out)
{
	const struct reg_range *r;
	struct dev_range *d;

	hg_spin_lock(&ranges.lock);
	r = reg_rangeset_find_locked(&ranges, p);
	if (r) {
		d = r->value;
		*out = d->info;
		out->gran = reg_gran_map_over(&d->gran, p - d->info.base,
					      d->info.size);
	}
	hg_spin_unlock(&ranges.lock);
	return r != NULL;
}

bool reg_dev_find_far(uint64_t p, struct reg_dev_hit *hit)
{
	uint64_t e = reg_recent_sync(); /* before the lock: never too new */
	const struct reg_range *r;
	const struct dev_range *d;
	uintptr_t off;

	*hit = (struct reg_dev_hit){0, 0, 0, 0, 0};
	if (!p)
		return false;
	hg_spin_lock(&ranges.lock);
	r = reg_rangeset_find_locked(&ranges, p);
	if (r) {
		d = r->value;
		off = p - d->info.base;
		*hit = (struct reg_dev_hit){
			d->info.id, off, 1, d->info.mem,
			reg_gran_map_over(&d->gran, off, off + 1)};
		near_keep(d, e);
	}
	hg_spin_unlock(&ranges.lock);
	return r != NULL;
}

int reg_dev_set_gran(uintptr_t addr, size_t len, uint8_t gran, reg_gran_cb cb,
		     void *arg)
{
	uintptr_t end = addr + len;
	int touched = 0;

	hg_spin_lock(&ranges.lock);
	for (size_t i = 0; i < ranges.n; i++) {
		struct reg_range *r = &ranges.v[i];
		struct dev_range *d = r->value;
		uintptr_t lo, hi;

		if (r->end <= addr || r->base >= end)
			continue;
		lo = addr > r->base ? addr : r->base;
		hi = end < r->end ? end : r->end;
		if (!reg_gran_map_set(&d->gran, lo - r->base, hi - r->base, gran))
			continue;
		touched++;
		if (cb)
			cb(&d->info, lo, hi - lo, gran, arg);
	}
	if (touched) {
		changed();
		retire(addr, end, false);
	}
	hg_spin_unlock(&ranges.lock);
	return touched;
}

size_t reg_dev_count(void)
{
	return reg_rangeset_count(&ranges);
}

void reg_dev_fork_prepare(void)
{
	hg_spin_lock(&ranges.lock);
}

void reg_dev_fork_parent(void)
{
	hg_spin_unlock(&ranges.lock);
}

void reg_dev_fork_child(void)
{
	hg_spin_reset(&ranges.lock);
}
