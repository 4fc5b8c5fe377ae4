/* SPDX-License-Identifier: MIT */
/*
 * A lock that one thread, its owner, takes around every launch and other
 * threads take rarely (at exit, to write the counts of threads that are
 * still running).  An atomic exchange on every launch is a visible part of
 * the launch path's own time (bench/README.md, launch); the owner here pays
 * a plain store and a load instead.  It says it is in (`busy`) and checks
 * that no visitor is about; a visitor says it is coming (`visitor`), then
 * has every thread of the process pass a full barrier (membarrier), after
 * which either the owner's `busy` is visible to it or the owner sees the
 * visitor and waits on the plain lock.  Where membarrier cannot be used (an
 * old kernel, a seccomp filter), a lock has a visitor for good
 * (HG_OLOCK_ALWAYS), so that its owner always takes the plain lock.
 */
#ifndef HG_OLOCK_H
#define HG_OLOCK_H

#include <stdatomic.h>

#include "hg_spin.h"

typedef struct {
	hg_spin_t lock;    /* visitors, and the owner while one is about */
	atomic_int busy;    /* the owner is in without the lock */
	atomic_int visitor; /* a visitor holds or waits for the lock */
} hg_olock_t;

#define HG_OLOCK_ALWAYS 2 /* visitor: membarrier cannot be used */

/* A lock in zeroed memory, ready for its owner. */
void hg_olock_start(hg_olock_t *l);

/* The owner goes in; returns what hg_olock_disown needs. */
static inline int hg_olock_own(hg_olock_t *l)
{
	atomic_store_explicit(&l->busy, 1, memory_order_relaxed);
	/* The store may pass the load below on the CPU: the visitor's
	 * membarrier is the fence that pairs with this one. */
	atomic_signal_fence(memory_order_seq_cst);
	if (__builtin_expect(
		    !atomic_load_explicit(&l->visitor, memory_order_acquire), 1))
		return 0;
	atomic_store_explicit(&l->busy, 0, memory_order_release);
	hg_spin_lock(&l->lock);
	return 1;
}

static inline void hg_olock_disown(hg_olock_t *l, int locked)
{
	if (locked)
		hg_spin_unlock(&l->lock);
	else
		atomic_store_explicit(&l->busy, 0, memory_order_release);
}

/* Another thread goes in: 0 if it cannot tell whether the owner is in (a
 * membarrier that failed after it was registered), and then it is not in. */
int hg_olock_visit(hg_olock_t *l);
void hg_olock_leave(hg_olock_t *l);

/* After fork, in the child: nobody else is in. */
void hg_olock_reset(hg_olock_t *l);

/* Registers the process for membarrier, once at start and again in a
 * forked child (while single-threaded); without it, locks started after
 * have a visitor for good.  Returns whether it could. */
int hg_olock_init(void);

#endif
