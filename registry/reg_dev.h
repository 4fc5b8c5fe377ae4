/* SPDX-License-Identifier: MIT */
/*
 * Ranges the GPU can reach by contract: HIP allocations, registered host
 * memory, and host blocks that hipMemAdvise touched.  Each keeps its
 * granularity per page range, since hipMemAdvise(Set/UnsetCoarseGrain) can
 * split an allocation.
 */
#ifndef REG_DEV_H
#define REG_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reg.h"

bool reg_dev_add(const struct reg_dev_info *info);
bool reg_dev_remove(uintptr_t base, struct reg_dev_info *out);
/* The range containing p; out->gran covers [p, end of the range). */
bool reg_dev_find(uintptr_t p, struct reg_dev_info *out);
/* For a pointer not in the thread's table (reg_recent.h), under the lock;
 * the table learns its range.  Returns whether a range holds it. */
bool reg_dev_find_far(uint64_t p, struct reg_dev_hit *hit);

typedef void (*reg_gran_cb)(const struct reg_dev_info *r, uintptr_t addr,
			    size_t len, uint8_t gran, void *arg);
/* Set the granularity of [addr, addr+len) in every range it overlaps and
 * call cb with each changed piece.  Returns the number of ranges touched. */
int reg_dev_set_gran(uintptr_t addr, size_t len, uint8_t gran, reg_gran_cb cb,
		     void *arg);
size_t reg_dev_count(void);

void reg_dev_fork_prepare(void);
void reg_dev_fork_parent(void);
void reg_dev_fork_child(void);

#endif
