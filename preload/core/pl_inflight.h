/* SPDX-License-Identifier: MIT */
/*
 * The hooked call each thread is in, kept so that a signal which ends the
 * process inside the runtime (ROCr's assert on a refused prefetch, a
 * fault in a copy) is pinned to the call the program made: that call
 * never returns, so its own record is never written.  Entering is a few
 * stores to memory the thread owns; only the signal's handler reads it.
 */
#ifndef PL_INFLIGHT_H
#define PL_INFLIGHT_H

#include <stdatomic.h>
#include <stdint.h>

#include "hg_tp_types.h"

struct pl_inflight {
	_Atomic(const char *) name; /* the entry point; NULL: none */
	uintptr_t caller;	    /* the program's return address */
	struct hg_tp_range_op op;   /* advice, prefetch; api 0 otherwise */
};

extern __thread struct pl_inflight *pl_inflight_self
	__attribute__((tls_model("initial-exec")));

/* This thread's record, claimed at its first hooked call. */
struct pl_inflight *pl_inflight_claim(void);

static inline struct pl_inflight *pl_inflight_enter(const char *name,
						    uintptr_t caller)
{
	struct pl_inflight *s = pl_inflight_self;

	if (__builtin_expect(!s, 0))
		s = pl_inflight_claim();
	s->caller = caller;
	s->op.api = 0;
	atomic_store_explicit(&s->name, name, memory_order_release);
	return s;
}

static inline void pl_inflight_leave(struct pl_inflight *s)
{
	atomic_store_explicit(&s->name, NULL, memory_order_relaxed);
}

/* The handlers of the signals that end a process by default with a
 * core (abort, faults); each writes the calls in flight and hands the
 * signal on to what was there before. */
void pl_inflight_install(void);

#endif
