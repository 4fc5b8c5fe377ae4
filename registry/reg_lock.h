/* SPDX-License-Identifier: MIT */
/*
 * A test-and-test-and-set spinlock.  The registry is entered from inside
 * malloc, where a pthread mutex could recurse into the allocator or deadlock
 * after fork; critical sections here are a few dozen instructions.
 */
#ifndef REG_LOCK_H
#define REG_LOCK_H

#include <stdatomic.h>

typedef struct {
	atomic_int held;
} reg_lock_t;

#define REG_LOCK_INIT {0}

static inline void reg_lock(reg_lock_t *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
			return;
		while (atomic_load_explicit(&l->held, memory_order_relaxed))
			__builtin_ia32_pause();
	}
}

static inline void reg_unlock(reg_lock_t *l)
{
	atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* After fork the child is single-threaded: whoever held it is gone. */
static inline void reg_lock_reset(reg_lock_t *l)
{
	atomic_store_explicit(&l->held, 0, memory_order_relaxed);
}

#endif
