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

struct reg_dev_info {
	uintptr_t base;
	size_t size;
	uint64_t id;
	uint64_t site;
	uint32_t flags;
	uint8_t api;  /* enum hg_api */
	uint8_t mem;  /* enum hg_mem */
	uint8_t gran; /* enum hg_gran over [pointer, end) for lookups */
};

bool reg_dev_add(const struct reg_dev_info *info);
bool reg_dev_remove(uintptr_t base, struct reg_dev_info *out);
/* The range containing p; out->gran covers [p, end of the range). */
bool reg_dev_find(uintptr_t p, struct reg_dev_info *out);
/* A launch's pointer: whether a range holds it, its id, the offset into
 * it, mem, and the granularity of the page it points into.  What a kernel reaches beyond that page the code object does not
 * say, and a launch is judged by where its pointers point: a pointer into the
 * coarse half of a split range is coarse (the report states the split). */
struct reg_dev_hit {
	uint64_t id, off;
	uint8_t found, mem, gran;
};
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
/* Changes whenever a range is added, removed or changes granularity: a
 * lookup result is still valid while the generation is the same. */
uint64_t reg_dev_generation(void);

void reg_dev_fork_prepare(void);
void reg_dev_fork_parent(void);
void reg_dev_fork_child(void);

#endif
