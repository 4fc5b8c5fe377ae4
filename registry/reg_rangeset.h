/* SPDX-License-Identifier: MIT */
/*
 * A set of disjoint address ranges kept sorted, with one value per range.
 * Used for the few, long-lived ranges the GPU cares about (HIP allocations,
 * large host blocks) where lookups of interior pointers must be exact.
 */
#ifndef REG_RANGESET_H
#define REG_RANGESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_spin.h"

struct reg_range {
	uintptr_t base;
	uintptr_t end; /* exclusive */
	void *value;
};

struct reg_rangeset {
	hg_spin_t lock;
	struct reg_range *v;
	size_t n, cap;
};

#define REG_RANGESET_INIT {HG_SPIN_INIT, NULL, 0, 0}

/* Insert [base, end); overlapping stale ranges are dropped (drop may be
 * NULL).  Returns false when the table cannot grow. */
bool reg_rangeset_insert(struct reg_rangeset *s, uintptr_t base, uintptr_t end,
			 void *value, void (*drop)(void *));
/* Remove the range starting exactly at base. */
bool reg_rangeset_remove(struct reg_rangeset *s, uintptr_t base, void **value);
/* The same, for a caller that holds s->lock. */
bool reg_rangeset_insert_locked(struct reg_rangeset *s, uintptr_t base,
				uintptr_t end, void *value, void (*drop)(void *));
bool reg_rangeset_remove_locked(struct reg_rangeset *s, uintptr_t base,
				void **value);
/* The range containing p (callers hold s->lock via the _locked variant). */
const struct reg_range *reg_rangeset_find_locked(const struct reg_rangeset *s,
						 uintptr_t p);
size_t reg_rangeset_count(struct reg_rangeset *s);

#endif
