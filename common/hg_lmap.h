/* SPDX-License-Identifier: MIT */
/*
 * The map of hg_map.h under a spin lock, its slots straight from the
 * kernel: for what runs inside the wrapped process (modules and kernels,
 * memory handles), written at registration and read at every launch,
 * where malloc is the program's and may be the caller.
 */
#ifndef HG_LMAP_H
#define HG_LMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_map.h"
#include "hg_spin.h"

struct hg_lmap {
	hg_spin_t lock;
	struct hg_map map;
};

extern const struct hg_map_mem hg_lmap_os_mem;
#define HG_LMAP_INIT {HG_SPIN_INIT, {.mem = &hg_lmap_os_mem}}

/* value is not NULL; false when out of memory. */
bool hg_lmap_put(struct hg_lmap *m, uint64_t key, void *value);
void *hg_lmap_get(struct hg_lmap *m, uint64_t key);
/* Up to max values, copied out under the lock; returns how many. */
size_t hg_lmap_values(struct hg_lmap *m, void **out, size_t max);
/* Remove every entry whose value satisfies pred; calls drop on each. */
void hg_lmap_remove_if(struct hg_lmap *m, bool (*pred)(void *, void *),
		       void *arg, void (*drop)(void *));

#endif
