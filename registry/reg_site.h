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
/* A thread's recent one-frame sites: a free's call site is its caller's
 * line, the same one each round of a loop, and finding it again in the
 * shared table costs a lock.  Written so that a signal handler's lookup in
 * between never pairs one entry's address with another's id. */
#define REG_RECENT_IPS 32

struct reg_recent_ip {
	uintptr_t ip;
	uint64_t id;
};

extern __thread struct reg_recent_ip reg_recent_ip[REG_RECENT_IPS]
	__attribute__((tls_model("initial-exec")));

uint64_t reg_site_from_ip_slow(uintptr_t ip, unsigned h);

static inline unsigned reg_recent_ip_slot(uintptr_t ip)
{
	return (unsigned)(ip >> 2 ^ ip >> 9) & (REG_RECENT_IPS - 1);
}

/* A one-frame call site for a return address. */
static inline uint64_t reg_site_from_ip(uintptr_t ip)
{
	unsigned h = reg_recent_ip_slot(ip);

	if (ip && reg_recent_ip[h].ip == ip)
		return reg_recent_ip[h].id;
	return reg_site_from_ip_slow(ip, h);
}
/* Intern an already captured stack. */
uint64_t reg_site_intern(const uint64_t *frames, unsigned n);

void reg_site_fork_prepare(void);
void reg_site_fork_parent(void);
void reg_site_fork_child(void);

#endif
