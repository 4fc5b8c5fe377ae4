/* SPDX-License-Identifier: MIT */
/* A locked map from a 64-bit handle to a pointer, for modules and kernels:
 * written at registration, read at every launch. */
#ifndef HG_MAP_H
#define HG_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_spin.h"

struct hg_map_slot {
	uint64_t key; /* 0: empty */
	void *value;
};

struct hg_map {
	hg_spin_t lock;
	uint32_t mask, used;
	struct hg_map_slot *slots;
};

#define HG_MAP_INIT {HG_SPIN_INIT, 0, 0, NULL}

bool hg_map_put(struct hg_map *m, uint64_t key, void *value);
void *hg_map_get(struct hg_map *m, uint64_t key);
/* Up to max values, copied out under the lock; returns how many. */
size_t hg_map_values(struct hg_map *m, void **out, size_t max);
/* Remove every entry whose value satisfies pred; calls drop on each. */
void hg_map_remove_if(struct hg_map *m, bool (*pred)(void *, void *),
		       void *arg, void (*drop)(void *));

#endif
