/* SPDX-License-Identifier: MIT */
#include "hg_olock.h"

#include <sched.h>

#include "hg_os.h"

/* Whether membarrier can be used (hg_olock_init). */
static atomic_int asym;

int hg_olock_init(void)
{
	int ok = hg_os_barrier_register();

	atomic_store_explicit(&asym, ok, memory_order_relaxed);
	return ok;
}

void hg_olock_start(hg_olock_t *l)
{
	if (!atomic_load_explicit(&asym, memory_order_relaxed))
		atomic_store_explicit(&l->visitor, HG_OLOCK_ALWAYS,
				      memory_order_relaxed);
}

int hg_olock_visit(hg_olock_t *l)
{
	hg_spin_lock(&l->lock);
	if (atomic_load_explicit(&l->visitor, memory_order_relaxed) ==
	    HG_OLOCK_ALWAYS)
		return 1; /* the owner locks */
	atomic_store_explicit(&l->visitor, 1, memory_order_seq_cst);
	if (!hg_os_barrier()) {
		hg_olock_leave(l);
		return 0;
	}
	/* The owner's sections are a launch or a flush: short. */
	while (atomic_load_explicit(&l->busy, memory_order_acquire))
		sched_yield();
	return 1;
}

void hg_olock_leave(hg_olock_t *l)
{
	if (atomic_load_explicit(&l->visitor, memory_order_relaxed) !=
	    HG_OLOCK_ALWAYS)
		atomic_store_explicit(&l->visitor, 0, memory_order_release);
	hg_spin_unlock(&l->lock);
}

void hg_olock_reset(hg_olock_t *l)
{
	hg_spin_reset(&l->lock);
	atomic_store_explicit(&l->busy, 0, memory_order_relaxed);
	atomic_store_explicit(&l->visitor, 0, memory_order_relaxed);
	hg_olock_start(l);
}
