/* SPDX-License-Identifier: MIT */
/* The one u64 -> pointer map (hg_map.h) and its locked form (hg_lmap.h),
 * against a plain array over a small key space: random puts and deletes
 * leave many deleted marks and rebuilds, where a lost entry, a stale one
 * or a value visited twice would show. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "hg_lmap.h"
#include "hg_map.h"
#include "tap.h"

#define KEYS 600
#define ROUNDS 200000

static void *shadow[KEYS];
static size_t bytes_out;

static void *count_alloc(size_t size)
{
	bytes_out += size;
	return calloc(1, size);
}

static void count_free(void *p, size_t size)
{
	if (p)
		bytes_out -= size;
	free(p);
}

static const struct hg_map_mem counted = {count_alloc, count_free};

/* Keys far apart and key 0 among them: the hash, not their order, places them. */
static uint64_t key_of(unsigned i)
{
	return i ? (uint64_t)i << 40 | i : 0;
}

static void *val_of(unsigned i, unsigned round)
{
	return (void *)(uintptr_t)(((uint64_t)round << 16 | i) * 8 + 8);
}

static void tally(void *val, void *arg)
{
	size_t *n = arg;

	for (unsigned i = 0; i < KEYS; i++)
		if (shadow[i] == val)
			n[0]++;
	n[1]++;
}

static bool even_round(void *val, void *arg)
{
	(void)arg;
	return ((uintptr_t)val / 8 - 1) >> 16 & 1;
}

static bool is_32(void *val, void *arg)
{
	(void)arg;
	return val == (void *)32;
}

static size_t dropped;
static void drop(void *val)
{
	(void)val;
	dropped++;
}

static int differs(const struct hg_map *m)
{
	int bad = 0;

	for (unsigned i = 0; i < KEYS; i++)
		bad += hg_map_get(m, key_of(i)) != shadow[i];
	return bad;
}

int main(void)
{
	struct hg_map m = {.mem = &counted};
	size_t live = 0, seen[2] = {0, 0}, keep = 0;
	int bad = 0, nomem = 0;

	srand(41);
	for (unsigned r = 0; r < ROUNDS; r++) {
		unsigned i = (unsigned)rand() % KEYS;

		if (rand() % 3) {
			live += !shadow[i];
			shadow[i] = val_of(i, r);
			nomem += hg_map_put(&m, key_of(i), shadow[i]) != 0;
		} else {
			bad += hg_map_del(&m, key_of(i)) != shadow[i];
			live -= !!shadow[i];
			shadow[i] = NULL;
		}
	}
	ok(!nomem && !bad, "puts succeed; a delete returns what was put");
	ok(!differs(&m), "every key reads what was last put, or NULL");
	ok(m.live == live, "the map counts %zu live entries, as many as there are", live);
	hg_map_each(&m, tally, seen);
	ok(seen[0] == live && seen[1] == live, "each visits every live value once");

	for (unsigned i = 0; i < KEYS; i++)
		keep += shadow[i] && !even_round(shadow[i], NULL);
	hg_map_del_if(&m, even_round, NULL, drop);
	for (unsigned i = 0; i < KEYS; i++)
		if (shadow[i] && even_round(shadow[i], NULL))
			shadow[i] = NULL;
	ok(!differs(&m) && m.live == keep && dropped == live - keep,
	   "del_if removes and drops exactly the values it matches");
	dropped = 0;
	hg_map_clear(&m, drop);
	ok(dropped == keep && !m.slots && !bytes_out && m.mem == &counted,
	   "clear drops every value and returns all memory, keeping the source");
	ok(hg_map_add(&m, 7, (void *)8) == 0 && hg_map_get(&m, 7) == (void *)8,
	   "a cleared map takes entries again");
	hg_map_fini(&m);
	ok(!bytes_out, "fini returns the slots");

	static struct hg_lmap l = HG_LMAP_INIT;
	void *out[4];

	for (uintptr_t k = 1; k <= 3; k++)
		hg_lmap_put(&l, k, (void *)(k * 16));
	ok(hg_lmap_get(&l, 2) == (void *)32 && !hg_lmap_get(&l, 4),
	   "the locked map reads what was put");
	ok(hg_lmap_values(&l, out, 2) == 2 && hg_lmap_values(&l, out, 4) == 3,
	   "values copies out at most max");
	hg_lmap_remove_if(&l, is_32, NULL, NULL);
	ok(hg_lmap_values(&l, out, 4) == 2 && !hg_lmap_get(&l, 2) &&
		   hg_lmap_get(&l, 3) == (void *)48,
	   "remove_if removes what matches, and only that");
	return done();
}
