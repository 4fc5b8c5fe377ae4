/* SPDX-License-Identifier: MIT */
/* A u64 → pointer hash map (open addressing); NULL values are not stored. */
#ifndef AN_MAP_H
#define AN_MAP_H

#include <stddef.h>
#include <stdint.h>

struct an_map_slot {
	uint64_t key;
	void *val; /* NULL: empty; an_map_tomb: deleted */
};

struct an_map {
	struct an_map_slot *slots;
	size_t cap; /* power of two */
	size_t used; /* live + tombstones */
	size_t live;
};

void *an_map_get(const struct an_map *m, uint64_t key);
int an_map_put(struct an_map *m, uint64_t key, void *val);
/* an_map_put of a key known not to be in the map: it is not looked for. */
int an_map_add(struct an_map *m, uint64_t key, void *val);
/* Removes key and returns its value, or NULL. */
void *an_map_del(struct an_map *m, uint64_t key);
/* Calls fn on every value; the map must not change meanwhile. */
void an_map_each(const struct an_map *m, void (*fn)(void *val, void *arg),
		 void *arg);
void an_map_fini(struct an_map *m);

#endif
