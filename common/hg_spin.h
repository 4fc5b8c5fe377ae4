/* SPDX-License-Identifier: MIT */
/*
 * A test-and-test-and-set spinlock, for tables the wrapped process reaches
 * from inside malloc, where a pthread mutex could recurse into the
 * allocator or deadlock after fork; critical sections under it are a few
 * dozen instructions.
 */
#ifndef HG_SPIN_H
#define HG_SPIN_H

#include <stdatomic.h>

typedef struct {
	atomic_int held;
} hg_spin_t;

#define HG_SPIN_INIT {0}

static inline void hg_spin_lock(hg_spin_t *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
			return;
		while (atomic_load_explicit(&l->held, memory_order_relaxed))
			__builtin_ia32_pause();
	}
}

static inline void hg_spin_unlock(hg_spin_t *l)
{
	atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* After fork the child is single-threaded: whoever held it is gone. */
static inline void hg_spin_reset(hg_spin_t *l)
{
	atomic_store_explicit(&l->held, 0, memory_order_relaxed);
}

#endif
