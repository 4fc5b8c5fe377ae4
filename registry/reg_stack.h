/* SPDX-License-Identifier: MIT */
/*
 * A thread's recent stacks, reused while the stack still holds them.
 *
 * Unwinding costs about as much as the event it is for.  A program that
 * allocates in its loop asks for the same stack every round, from the same
 * depth.  So each thread remembers, for the stacks it unwound lately, where
 * every frame's return address was saved and what it was.  If the capture
 * starts at the same address (its own canonical frame address) and every
 * saved return address is still in its place, the frames are the same as
 * last time: each caller's frame address follows from its callee's and the
 * return address, for every frame of fixed size.  Checking a stack costs a
 * load and a compare per frame instead of an unwind step.
 *
 * What this cannot see: a frame whose size changes between two calls
 * (alloca, variable-length arrays) at the same return address and depth,
 * whose old return-address slots all still hold the old values as stale
 * data.  The next frame's slot then holds the other caller's return
 * address, which the check compares; every frame would have to coincide.
 *
 * Only stacks inside the thread's own stack are remembered, so a check
 * never reads memory that may be gone (fibres, signal stacks): those are
 * unwound each time.  x86-64 only (return addresses saved at CFA - 8);
 * elsewhere every capture unwinds.
 */
#ifndef REG_STACK_H
#define REG_STACK_H

#include <stdint.h>

/* Most frames a remembered stack checks (hipgrain's own and the program's). */
#define REG_STACK_MAX_SLOTS 96

struct reg_stack_slots {
	unsigned n;
	uintptr_t addr[REG_STACK_MAX_SLOTS]; /* where each return address is */
	uint64_t val[REG_STACK_MAX_SLOTS];   /* ... and what it is */
};

/* The most frames a remembered stack may have (set before any capture). */
void reg_stack_set_depth(unsigned frames);
/* Claim this thread's memo for one capture; 0 if a capture it interrupted
 * (a signal handler's) holds it: that one then unwinds without it. */
int reg_stack_enter(void);
void reg_stack_leave(void);
/* The site id remembered for a capture whose frame address is `cfa`, or 0. */
uint64_t reg_stack_recall(uintptr_t cfa);
/* Remember `id` for this capture; `s` lists every frame from the capture's
 * caller outwards.  Stacks outside the thread's stack are not kept. */
void reg_stack_remember(uintptr_t cfa, const struct reg_stack_slots *s,
			uint64_t id);

#endif
