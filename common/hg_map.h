/* SPDX-License-Identifier: MIT */
/*
 * The one u64 -> pointer hash map: open addressing, linear probing, a
 * deleted slot marked and reused, the table rebuilt in place when marks
 * outnumber live entries, so a long run of puts and deletes never degrades
 * the lookups.  NULL values are not stored.  Not locked: hg_lmap.h wraps it
 * for what runs inside the wrapped process.
 */
#ifndef HG_MAP_H
#define HG_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hg_map_slot {
	uint64_t key;
	void *val; /* NULL: empty; else live, or the deleted mark */
};

/* Where the slots come from: zeroed memory, and its return with its size.
 * NULL: calloc and free. */
struct hg_map_mem {
	void *(*alloc)(size_t size);
	void (*free)(void *p, size_t size);
};

struct hg_map {
	struct hg_map_slot *slots;
	size_t cap; /* power of two */
	size_t used; /* live + deleted */
	size_t live;
	const struct hg_map_mem *mem;
};

void *hg_map_get(const struct hg_map *m, uint64_t key);
/* 0, or -ENOMEM; val is not NULL. */
int hg_map_put(struct hg_map *m, uint64_t key, void *val);
/* hg_map_put of a key known not to be in the map: it is not looked for. */
int hg_map_add(struct hg_map *m, uint64_t key, void *val);
/* Removes key and returns its value, or NULL. */
void *hg_map_del(struct hg_map *m, uint64_t key);
/* Calls fn on every value; the map must not change meanwhile. */
void hg_map_each(const struct hg_map *m, void (*fn)(void *val, void *arg),
		 void *arg);
/* Removes every entry whose value satisfies pred(val, arg), calling drop
 * (if any) on each removed value. */
void hg_map_del_if(struct hg_map *m, bool (*pred)(void *val, void *arg),
		   void *arg, void (*drop)(void *val));
/* Frees the slots (not the values); the map is empty again, same memory. */
void hg_map_fini(struct hg_map *m);
/* Calls drop (if any) on every value, then hg_map_fini. */
void hg_map_clear(struct hg_map *m, void (*drop)(void *val));

#endif
