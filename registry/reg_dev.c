/* SPDX-License-Identifier: MIT */
#include "reg_dev.h"

#include <stdatomic.h>
#include <string.h>

#include "reg_gran_map.h"
#include "reg_near.h"
#include "reg_rangeset.h"

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);

struct dev_range {
	struct reg_dev_info info;
	struct reg_gran_map gran;
	struct dev_range *next_spare;
};

/* Records are kept for reuse: a loop that allocates and frees a temporary
 * would otherwise pay a malloc and a free for ours as well. */
#define MAX_SPARE 64

static reg_lock_t spare_lock = REG_LOCK_INIT;
static struct dev_range *spare;
static unsigned nspare;

static struct dev_range *record(void)
{
	struct dev_range *d;

	reg_lock(&spare_lock);
	d = spare;
	if (d) {
		spare = d->next_spare;
		nspare--;
	}
	reg_unlock(&spare_lock);
	return d ? d : __libc_malloc(sizeof(*d));
}

static void unrecord(struct dev_range *d)
{
	reg_lock(&spare_lock);
	if (nspare < MAX_SPARE) {
		d->next_spare = spare;
		spare = d;
		nspare++;
		d = NULL;
	}
	reg_unlock(&spare_lock);
	__libc_free(d);
}

static struct reg_rangeset ranges = REG_RANGESET_INIT;
static atomic_uint_fast64_t generation;

/*
 * The ranges a thread found lately, of one granularity throughout: a
 * launch's pointers are mostly the ones before, and finding them again
 * under the lock costs more than the rest of the launch.  They hold while
 * `reg_near_epoch` has not moved; it moves when a range goes away or
 * changes (not when one is added: a found range stays what it was).  The thread that
 * moves it keeps its own, less what it changed, if nobody else moved it
 * since: a loop that allocates and frees a temporary keeps finding its
 * other buffers here.
 */
atomic_uint_fast64_t reg_near_epoch = 1;
__thread struct reg_near reg_near __attribute__((tls_model("initial-exec")));

static void changed(void)
{
	atomic_fetch_add_explicit(&generation, 1, memory_order_release);
}

uint64_t reg_dev_generation(void)
{
	return atomic_load_explicit(&generation, memory_order_acquire);
}

/* [lo, hi) went away or changed (after the change, so that a thread that
 * saw the old epoch had the old range). */
static void retire(uintptr_t lo, uintptr_t hi)
{
	uint64_t old = atomic_fetch_add_explicit(&reg_near_epoch, 1,
						 memory_order_acq_rel);

	if (reg_near.epoch != old) {
		reg_near.epoch = 0;
		return;
	}
	for (unsigned i = 0; i < reg_near.top; i++)
		if (reg_near.base[i] < hi &&
		    lo < reg_near.base[i] + reg_near.len[i])
			reg_near.len[i] = 0;
	reg_near.epoch = old + 1;
}

static void retire_range(const struct reg_dev_info *r)
{
	retire(r->base, r->base + (r->size ? r->size : 1));
}

void reg_near_reset(uint64_t e)
{
	memset(reg_near.len, 0, sizeof(reg_near.len));
	reg_near.top = 0;
	reg_near.epoch = e;
}

int reg_near_scan(uintptr_t p)
{
	unsigned h = reg_near_seen_slot(p);

	for (int c = 0; c < (int)reg_near.top; c++)
		if (p - reg_near.base[c] < reg_near.len[c]) {
			reg_near.seen[h] = p;
			reg_near.seen_at[h] = (uint8_t)c;
			return c;
		}
	return -1;
}

/* Under the lock, with the epoch reg_near_sync returned before taking it. */
static void near_keep(const struct dev_range *d, uint64_t e)
{
	unsigned i = 0;

	if (d->gran.n != 1 || reg_near.epoch != e || !d->info.size)
		return; /* split by advice: looked up each time */
	while (i < reg_near.top && reg_near.len[i])
		i++;
	if (i == REG_NEAR) {
		i = reg_near.next;
		reg_near.next = (reg_near.next + 1) % REG_NEAR;
	} else if (i == reg_near.top) {
		reg_near.top++;
	}
	reg_near.base[i] = d->info.base, reg_near.len[i] = d->info.size;
	reg_near.id[i] = d->info.id, reg_near.mem[i] = d->info.mem;
	reg_near.gran[i] = d->gran.p[0].gran;
	reg_near.what[i] = (uint32_t)d->info.mem << 16 |
			   (uint32_t)d->gran.p[0].gran << 24;
}

static void drop(void *v)
{
	struct dev_range *d = v;

	reg_gran_map_fini(&d->gran);
	unrecord(d);
}

/* A range that an insert found overlapping: gone behind our back. */
static void evict(void *v)
{
	retire_range(&((const struct dev_range *)v)->info);
	drop(v);
}

bool reg_dev_add(const struct reg_dev_info *info)
{
	struct dev_range *d = record();

	if (!d)
		return false;
	d->info = *info;
	reg_gran_map_init(&d->gran, info->gran);
	changed();
	if (!reg_rangeset_insert(&ranges, info->base, info->base + info->size,
				 d, evict)) {
		drop(d);
		return false;
	}
	return true;
}

bool reg_dev_remove(uintptr_t base, struct reg_dev_info *out)
{
	void *v;

	if (!reg_rangeset_remove(&ranges, base, &v))
		return false;
	changed();
	*out = ((struct dev_range *)v)->info;
	retire_range(out);
	drop(v);
	return true;
}

bool reg_dev_find(uintptr_t p, struct reg_dev_info *out)
{
	const struct reg_range *r;
	struct dev_range *d;

	reg_lock(&ranges.lock);
	r = reg_rangeset_find_locked(&ranges, p);
	if (r) {
		d = r->value;
		*out = d->info;
		out->gran = reg_gran_map_over(&d->gran, p - d->info.base,
					      d->info.size);
	}
	reg_unlock(&ranges.lock);
	return r != NULL;
}

bool reg_dev_find_far(uint64_t p, struct reg_dev_hit *hit)
{
	uint64_t e = reg_near_sync(); /* before the lock: never too new */
	const struct reg_range *r;
	const struct dev_range *d;
	uintptr_t off;

	*hit = (struct reg_dev_hit){0, 0, 0, 0, 0};
	if (!p)
		return false;
	reg_lock(&ranges.lock);
	r = reg_rangeset_find_locked(&ranges, p);
	if (r) {
		d = r->value;
		off = p - d->info.base;
		*hit = (struct reg_dev_hit){
			d->info.id, off, 1, d->info.mem,
			reg_gran_map_over(&d->gran, off, off + 1)};
		near_keep(d, e);
	}
	reg_unlock(&ranges.lock);
	return r != NULL;
}

int reg_dev_set_gran(uintptr_t addr, size_t len, uint8_t gran, reg_gran_cb cb,
		     void *arg)
{
	uintptr_t end = addr + len;
	int touched = 0;

	reg_lock(&ranges.lock);
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
	reg_unlock(&ranges.lock);
	if (touched) {
		changed();
		retire(addr, end);
	}
	return touched;
}

size_t reg_dev_count(void)
{
	return reg_rangeset_count(&ranges);
}

void reg_dev_fork_prepare(void)
{
	reg_lock(&ranges.lock);
	reg_lock(&spare_lock);
}

void reg_dev_fork_parent(void)
{
	reg_unlock(&spare_lock);
	reg_unlock(&ranges.lock);
}

void reg_dev_fork_child(void)
{
	reg_lock_reset(&spare_lock);
	reg_lock_reset(&ranges.lock);
}
