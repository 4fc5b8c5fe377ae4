/* SPDX-License-Identifier: MIT */
#include "reg_olock.h"

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Whether membarrier can be used (reg_olock_init). */
static atomic_int asym;

static long membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

int reg_olock_init(void)
{
	long cmds = membarrier(MEMBARRIER_CMD_QUERY);
	int ok = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
		 membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;

	atomic_store_explicit(&asym, ok, memory_order_relaxed);
	return ok;
}

void reg_olock_start(reg_olock_t *l)
{
	if (!atomic_load_explicit(&asym, memory_order_relaxed))
		atomic_store_explicit(&l->visitor, REG_OLOCK_ALWAYS,
				      memory_order_relaxed);
}

int reg_olock_visit(reg_olock_t *l)
{
	reg_lock(&l->lock);
	if (atomic_load_explicit(&l->visitor, memory_order_relaxed) ==
	    REG_OLOCK_ALWAYS)
		return 1; /* the owner locks */
	atomic_store_explicit(&l->visitor, 1, memory_order_seq_cst);
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
		reg_olock_leave(l);
		return 0;
	}
	/* The owner's sections are a launch or a flush: short. */
	while (atomic_load_explicit(&l->busy, memory_order_acquire))
		sched_yield();
	return 1;
}

void reg_olock_leave(reg_olock_t *l)
{
	if (atomic_load_explicit(&l->visitor, memory_order_relaxed) !=
	    REG_OLOCK_ALWAYS)
		atomic_store_explicit(&l->visitor, 0, memory_order_release);
	reg_unlock(&l->lock);
}

void reg_olock_reset(reg_olock_t *l)
{
	reg_lock_reset(&l->lock);
	atomic_store_explicit(&l->busy, 0, memory_order_relaxed);
	atomic_store_explicit(&l->visitor, 0, memory_order_relaxed);
	reg_olock_start(l);
}
