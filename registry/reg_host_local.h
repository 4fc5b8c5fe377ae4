/* SPDX-License-Identifier: MIT */
/*
 * Each thread's own table of the small host blocks it allocated: a front,
 * direct-mapped by address, whose common insert and remove are inline in
 * the hooks (reg_host_fast.h), and behind it a small hash table for the
 * blocks whose front slot another block holds.  The owner inserts and
 * removes with plain stores and no atomic read-modify-write, which is what
 * keeps malloc+free near glibc's own cost.  Another thread never writes a
 * table while its owner might: when it needs to see other threads' blocks
 * (a GPU call asks for a host pointer one of them may hold, a block is
 * freed by a thread that did not allocate it) it moves them all into the
 * shared table (reg_host_shared.h) after a handshake with each owner.
 * Before that it may read a table without the handshake, to learn whether
 * a move would find anything.
 *
 * The handshake is Dekker's, made asymmetric: an owner marks itself busy and
 * then reads whether anyone wants its table; the thread that wants it says
 * so, makes every running thread pass a memory barrier (hg_os_barrier),
 * then waits until the owner is not busy.  The owner pays a compiler
 * barrier; the rare mover pays a system call.  Where the kernel cannot
 * (and under ThreadSanitizer) each table says so in the word its owner
 * tests anyway, and the owner stores again with a locked exchange.
 */
#ifndef REG_HOST_LOCAL_H
#define REG_HOST_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reg_host_shared.h"

/* What the inline path (reg_host_fast.h) does, and the rest: into the
 * shared table instead when this thread's table is full, being moved, or
 * its blocks are being freed elsewhere; false when neither can take it. */
bool reg_host_local_put(uintptr_t addr, uint64_t meta, uintptr_t site);
/* This thread's own blocks only. */
bool reg_host_local_take(uintptr_t addr, struct reg_host_block *out);
/* The common free: this thread's block, never traced, its allocator among
 * `plain` (bits 1 << enum hg_api), is forgotten (1); otherwise nothing is
 * touched: 0 when this thread's table holds the block, -1 when not. */
int reg_host_local_drop(uintptr_t addr, uint64_t plain);
bool reg_host_local_get(uintptr_t addr, struct reg_host_block *out);
bool reg_host_local_set_id(uintptr_t addr, uint64_t id);
/* Move every other thread's blocks into the shared table; `wanted` is the
 * block a free from this thread is looking for (0 for none): the thread
 * that owns it sends its next blocks to the shared table for a while.
 * True when anything moved. */
bool reg_host_local_publish(uintptr_t wanted);
/* False only when no other thread's table holds a block starting in
 * [lo, hi], read without the handshake (so without a system call): a free
 * or a lookup that no other table can answer costs no move. */
bool reg_host_local_elsewhere(uintptr_t lo, uintptr_t hi);
/* A count of the drains to the shared table begun and ended: odd while
 * one runs, so that a miss read across one can be told from a miss. */
unsigned long reg_host_local_drains(void);
size_t reg_host_local_count(void);

void reg_host_local_fork_prepare(void);
void reg_host_local_fork_parent(void);
void reg_host_local_fork_child(void);

#endif
