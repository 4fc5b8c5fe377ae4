/* SPDX-License-Identifier: MIT */
/*
 * A small block lives in its thread's own table until another thread needs
 * to see it; large blocks, and blocks the own table cannot take, live in
 * the shared one.  A lookup therefore tries this thread's table and the
 * shared one, then reads the other threads' tables without stopping them
 * to learn whether a block there could be the answer, and only then moves
 * every other thread's blocks into the shared table and tries again.
 */
#include "reg_host.h"

#include <sched.h>

#include "reg_host_local.h"
#include "reg_host_shared.h"

bool reg_host_insert(uintptr_t addr, size_t size, uint8_t api, uintptr_t site)
{
	uint64_t meta = ((uint64_t)size << 8) | api;
	struct reg_host_slot s = {addr, meta, site, 0};

	if (size < REG_HOST_LARGE)
		return reg_host_local_put(addr, meta, site);
	return reg_host_shared_put(&s);
}

bool reg_host_remove(uintptr_t addr, struct reg_host_block *out)
{
	if (reg_host_local_take(addr, out) || reg_host_shared_take(addr, out))
		return true;
	/* Another thread's; or a mover carried it to the shared table since. */
	if (reg_host_local_elsewhere(addr, addr))
		reg_host_local_publish(addr);
	return reg_host_shared_take(addr, out);
}

bool reg_host_drop_plain(uintptr_t addr, uint64_t plain)
{
	int r = reg_host_local_drop(addr, plain);

	return r >= 0 ? r : reg_host_shared_drop(addr, plain);
}

static bool lookup(uintptr_t addr, struct reg_host_block *out)
{
	return reg_host_local_get(addr, out) || reg_host_shared_get(addr, out);
}

/*
 * A large block freed unseen whose start now holds a small block of this
 * thread's: the small one took its place in this thread's table, not in the
 * shared one where the large block still is, so it goes when a lookup
 * meets it.
 */
static void drop_stale_large(uintptr_t base)
{
	struct reg_host_block b;

	if (reg_host_shared_get(base, &b) && b.size >= REG_HOST_LARGE)
		reg_host_shared_take(base, &b);
}

/*
 * p's block as this thread's and the shared table know it; [*lo, *hi] are
 * the starts where a block of another thread's table would be a nearer
 * answer (*lo > *hi: none).
 */
static bool search(uintptr_t p, struct reg_host_block *out, uintptr_t *lo,
		   uintptr_t *hi)
{
	uintptr_t base = reg_host_shared_large_base(p);
	uintptr_t a = p & ~(uintptr_t)15;

	*hi = a;
	if (base) {
		*lo = *hi = base; /* a small block there now, freed unseen */
		if (!lookup(base, out))
			return false;
		if (out->size < REG_HOST_LARGE)
			drop_stale_large(base);
		return p < out->addr + out->size;
	}
	/* Blocks never overlap, so the first live start at or below p either
	 * contains p or proves that no small block does. */
	for (; a + REG_HOST_LARGE > p && a > 1; a -= 16)
		if (lookup(a, out)) {
			*lo = a + 16;
			return p < out->addr + out->size;
		}
	*lo = a + 16;
	return false;
}

/* A drain that moved p's block from another thread's table to the shared
 * one while the search read them (a thread exiting, a mover) makes a miss
 * that is none: the search runs again once no drain is under way. */
#define FIND_TRIES 8

bool reg_host_find(uintptr_t p, struct reg_host_block *out)
{
	uintptr_t lo, hi;
	bool hit = false;

	for (int i = 0; i < FIND_TRIES; i++) {
		unsigned long seq = reg_host_local_drains();

		hit = search(p, out, &lo, &hi);
		if (!(lo > hi || !reg_host_local_elsewhere(lo, hi) ||
		      !reg_host_local_publish(0)))
			return search(p, out, &lo, &hi);
		if (hit || (!(seq & 1) && seq == reg_host_local_drains()))
			return hit;
		while (reg_host_local_drains() & 1)
			sched_yield();
	}
	return hit;
}

bool reg_host_set_id(uintptr_t addr, uint64_t id)
{
	return reg_host_local_set_id(addr, id) ||
	       reg_host_shared_set_id(addr, id);
}

size_t reg_host_count(void)
{
	return reg_host_local_count() + reg_host_shared_count();
}

void reg_host_fork_prepare(void)
{
	reg_host_local_fork_prepare();
	reg_host_shared_fork_prepare();
}

void reg_host_fork_parent(void)
{
	reg_host_shared_fork_parent();
	reg_host_local_fork_parent();
}

void reg_host_fork_child(void)
{
	reg_host_shared_fork_child();
	reg_host_local_fork_child();
}
