/* SPDX-License-Identifier: MIT */
/*
 * Live host blocks (malloc, new, ...), the hot path of the whole tool.  A
 * small block's insert and remove touch only its thread's own table, with
 * no lock and no atomic read-modify-write; nothing else happens until the
 * GPU, or another thread's free, needs to see the block.
 */
#ifndef REG_HOST_H
#define REG_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Blocks this large are also indexed by range, so interior pointers far
 * from the start resolve exactly; smaller ones are found by probing back. */
#define REG_HOST_LARGE ((size_t)65536)

/* A block's call site: a return address, or (with the tag) a callsite id. */
#define REG_SITE_ID_TAG ((uintptr_t)1 << 63)

struct reg_host_block {
	uintptr_t addr;
	size_t size;
	uintptr_t site;
	uint64_t id; /* event id once the block was traced, else 0 */
	uint8_t api; /* enum hg_api of the allocator */
};

/* False when the registry cannot grow: the block stays untracked. */
bool reg_host_insert(uintptr_t addr, size_t size, uint8_t api, uintptr_t site);
bool reg_host_remove(uintptr_t addr, struct reg_host_block *out);
/* The common free, with nothing to report: a block of this thread's, never
 * traced, whose allocator is among `plain` (bits 1 << enum hg_api).  False,
 * with nothing removed, otherwise. */
bool reg_host_drop_plain(uintptr_t addr, uint64_t plain);
/* The block containing p, interior pointers included. */
bool reg_host_find(uintptr_t p, struct reg_host_block *out);
/* Remember that the block starting at addr was traced under id. */
bool reg_host_set_id(uintptr_t addr, uint64_t id);
size_t reg_host_count(void);

void reg_host_fork_prepare(void);
void reg_host_fork_parent(void);
void reg_host_fork_child(void);

#endif
