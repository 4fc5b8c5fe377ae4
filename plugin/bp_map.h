/* SPDX-License-Identifier: MIT */
/* A map of 64-bit keys (pointers, ids) to pointers: the plugin's input
 * objects to its output ones, and a process's heads and blocks. */
#ifndef BP_MAP_H
#define BP_MAP_H

#include <stdint.h>

struct bp_map {
	uint64_t *keys;
	void **vals; /* NULL: an empty slot */
	uint64_t cap, n;
};

void *bp_map_get(const struct bp_map *m, uint64_t key);
/* 0, or -1 when out of memory; val is not NULL. */
int bp_map_put(struct bp_map *m, uint64_t key, void *val);
/* The value removed, or NULL. */
void *bp_map_del(struct bp_map *m, uint64_t key);
/* Calls fn on every value, then empties the map. */
void bp_map_clear(struct bp_map *m, void (*fn)(void *val));

#endif
