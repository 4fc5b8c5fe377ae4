/* SPDX-License-Identifier: MIT */
/* A locked map from a 64-bit handle to a pointer, for modules and kernels:
 * written at registration, read at every launch. */
#ifndef REG_MAP_H
#define REG_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reg_lock.h"

struct reg_map_slot {
	uint64_t key; /* 0: empty */
	void *value;
};

struct reg_map {
	reg_lock_t lock;
	uint32_t mask, used;
	struct reg_map_slot *slots;
};

#define REG_MAP_INIT {REG_LOCK_INIT, 0, 0, NULL}

bool reg_map_put(struct reg_map *m, uint64_t key, void *value);
void *reg_map_get(struct reg_map *m, uint64_t key);
/* Up to max values, copied out under the lock; returns how many. */
size_t reg_map_values(struct reg_map *m, void **out, size_t max);
/* Remove every entry whose value satisfies pred; calls drop on each. */
void reg_map_remove_if(struct reg_map *m, bool (*pred)(void *, void *),
		       void *arg, void (*drop)(void *));

#endif
