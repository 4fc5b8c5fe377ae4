/* SPDX-License-Identifier: MIT */
/*
 * The host blocks every thread can see: a table sharded by address, each
 * shard under its own lock, plus a range index of the large blocks.  Blocks
 * come here when they are large, when a thread's own table (reg_host_local.h)
 * cannot hold them, or when another thread needed to see them.
 */
#ifndef REG_HOST_SHARED_H
#define REG_HOST_SHARED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reg_host.h"

/* One block as both tables store it; addr 0 marks a free slot. */
struct reg_host_slot {
	uintptr_t addr;
	uint64_t meta; /* size << 8 | api */
	uintptr_t site;
	uint64_t id;
};

static inline size_t reg_host_slot_size(const struct reg_host_slot *s)
{
	return (size_t)(s->meta >> 8);
}

/* Field by field: a copy the compiler makes in 16-byte moves would stall
 * on the 8-byte stores that wrote the slot a moment ago. */
static inline void reg_host_slot_unpack(const struct reg_host_slot *s,
					struct reg_host_block *out)
{
	out->addr = s->addr;
	out->size = reg_host_slot_size(s);
	out->api = (uint8_t)s->meta;
	out->site = s->site;
	out->id = s->id;
}

/* Replaces a block already at the address (freed unseen, then reused). */
bool reg_host_shared_put(const struct reg_host_slot *s);
bool reg_host_shared_take(uintptr_t addr, struct reg_host_block *out);
bool reg_host_shared_get(uintptr_t addr, struct reg_host_block *out);
/* reg_host_drop_plain's half: the block removed only if never traced and
 * its allocator is among `plain`. */
bool reg_host_shared_drop(uintptr_t addr, uint64_t plain);
bool reg_host_shared_set_id(uintptr_t addr, uint64_t id);
/* The start of the large block holding p, or 0 (possibly stale). */
uintptr_t reg_host_shared_large_base(uintptr_t p);
size_t reg_host_shared_count(void);

void reg_host_shared_fork_prepare(void);
void reg_host_shared_fork_parent(void);
void reg_host_shared_fork_child(void);

#endif
