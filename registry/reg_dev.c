/* SPDX-License-Identifier: MIT */
#include "reg_dev.h"

#include <stdatomic.h>

#include "reg_gran_map.h"
#include "reg_rangeset.h"

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);

struct dev_range {
	struct reg_dev_info info;
	struct reg_gran_map gran;
};

static struct reg_rangeset ranges = REG_RANGESET_INIT;
static atomic_uint_fast64_t generation;

static void changed(void)
{
	atomic_fetch_add_explicit(&generation, 1, memory_order_release);
}

uint64_t reg_dev_generation(void)
{
	return atomic_load_explicit(&generation, memory_order_acquire);
}

static void drop(void *v)
{
	struct dev_range *d = v;

	reg_gran_map_fini(&d->gran);
	__libc_free(d);
}

bool reg_dev_add(const struct reg_dev_info *info)
{
	struct dev_range *d = __libc_malloc(sizeof(*d));

	if (!d)
		return false;
	d->info = *info;
	if (!reg_gran_map_init(&d->gran, info->gran)) {
		__libc_free(d);
		return false;
	}
	changed();
	if (!reg_rangeset_insert(&ranges, info->base, info->base + info->size,
				 d, drop)) {
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

void reg_dev_find_n(const uint64_t *p, size_t n, struct reg_dev_hit *hit)
{
	reg_lock(&ranges.lock);
	for (size_t i = 0; i < n; i++) {
		const struct reg_range *r =
			p[i] ? reg_rangeset_find_locked(&ranges, p[i]) : NULL;
		const struct dev_range *d = r ? r->value : NULL;

		hit[i] = (struct reg_dev_hit){0, 0, 0, 0, 0};
		if (d)
			hit[i] = (struct reg_dev_hit){
				d->info.id, p[i] - d->info.base, 1, d->info.mem,
				reg_gran_map_over(&d->gran, p[i] - d->info.base,
						  p[i] - d->info.base + 1)};
	}
	reg_unlock(&ranges.lock);
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
	if (touched)
		changed();
	return touched;
}

size_t reg_dev_count(void)
{
	return reg_rangeset_count(&ranges);
}

void reg_dev_fork_prepare(void)
{
	reg_lock(&ranges.lock);
}

void reg_dev_fork_parent(void)
{
	reg_unlock(&ranges.lock);
}

void reg_dev_fork_child(void)
{
	reg_lock_reset(&ranges.lock);
}
