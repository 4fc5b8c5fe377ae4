/* SPDX-License-Identifier: MIT */
/* A value per address range, ranges split and merged as values are set;
 * what is not covered has the caller's default. */
#ifndef VG_RANGES_H
#define VG_RANGES_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct vg_range {
	uint64_t start, end;
	uint32_t value;
};

struct vg_ranges {
	pthread_mutex_t lock;
	struct vg_range *r;
	size_t n, cap;
};

/* Called for each piece of [start, end) whose value changes, before it
 * does, with the old value (0 where none was set). */
#define VG_RANGES_INIT { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 }
typedef void (*vg_ranges_fn)(uint64_t start, uint64_t end, uint32_t old, void *arg);

int vg_ranges_set(struct vg_ranges *m, uint64_t start, uint64_t end,
		  uint32_t value, vg_ranges_fn fn, void *arg);
/* Set (or clear) bits of each piece's value; unset pieces start at dflt. */
int vg_ranges_flags(struct vg_ranges *m, uint64_t start, uint64_t end,
		    uint32_t bits, int set, uint32_t dflt);
/* The value at start, dflt where none was set. */
uint32_t vg_ranges_get(struct vg_ranges *m, uint64_t start, uint64_t end,
		       uint32_t dflt);
/* Whether any range meets [start, end). */
int vg_ranges_meets(struct vg_ranges *m, uint64_t start, uint64_t end);
/* Whether any range meets [start, end); *value gets the AND of the values
 * of those that do. */
int vg_ranges_and(struct vg_ranges *m, uint64_t start, uint64_t end,
		  uint32_t *value);
/* Narrow [*s, *e), which holds va and lies in no range, to the gap
 * between the ranges on either side of va. */
void vg_ranges_gap(struct vg_ranges *m, uint64_t va, uint64_t *s, uint64_t *e);
/* The range holding va, in *s and *e; 0 when none does. */
int vg_ranges_extent(struct vg_ranges *m, uint64_t va, uint64_t *s, uint64_t *e);
/* [start, end) set no more. */
void vg_ranges_drop(struct vg_ranges *m, uint64_t start, uint64_t end);
/* Fork, in vg.h's phases (0 before, 1 parent, 2 child): the lock is held
 * across it, and the child's map is empty. */
void vg_ranges_fork(struct vg_ranges *m, int phase);

#endif
