/* SPDX-License-Identifier: MIT */
/*
 * Call sites.  Each distinct stack is emitted once as a `callsite` event and
 * referred to by id everywhere else.
 *
 * Policy (hipgrain(1), CALL SITES): HIP allocations and host blocks of at
 * least HIPGRAIN_STACK_THRESHOLD bytes get a full stack of up to
 * HIPGRAIN_STACK_DEPTH frames at allocation; smaller host blocks keep only
 * their caller's address, turned into a one-frame call site if the GPU ever
 * sees the block.  Unwinding costs microseconds; the malloc path cannot pay
 * that for every block.
 */
#ifndef REG_SITE_H
#define REG_SITE_H

#include <stdint.h>

#define REG_SITE_MAX_DEPTH 64

void reg_site_set_depth(unsigned depth);
/* Unwind the calling thread, dropping `skip` innermost frames (hipgrain's). */
uint64_t reg_site_capture(unsigned skip);
/* A one-frame call site for a return address. */
uint64_t reg_site_from_ip(uintptr_t ip);
/* Intern an already captured stack. */
uint64_t reg_site_intern(const uint64_t *frames, unsigned n);

void reg_site_fork_prepare(void);
void reg_site_fork_parent(void);
void reg_site_fork_child(void);

#endif
