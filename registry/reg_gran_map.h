/* SPDX-License-Identifier: MIT */
/* Granularity along one allocation as a list of change points. */
#ifndef REG_GRAN_MAP_H
#define REG_GRAN_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct reg_gran_point {
	size_t off;   /* granularity `gran` holds from here to the next point */
	uint8_t gran;
};

/* Most allocations never split: their points live in `small`, so making
 * and dropping one touches no allocator.  A map must not be moved after
 * init (p may point into it). */
struct reg_gran_map {
	struct reg_gran_point *p;
	uint32_t n, cap;
	struct reg_gran_point small[3];
};

void reg_gran_map_init(struct reg_gran_map *m, uint8_t gran);
void reg_gran_map_fini(struct reg_gran_map *m);
/* Set [lo, hi) to gran; offsets are relative to the allocation. */
bool reg_gran_map_set(struct reg_gran_map *m, size_t lo, size_t hi, uint8_t gran);
/* Granularity over [lo, hi): one value, or HG_GRAN_MIXED. */
uint8_t reg_gran_map_over(const struct reg_gran_map *m, size_t lo, size_t hi);

#endif
