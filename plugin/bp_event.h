/* SPDX-License-Identifier: MIT */
/*
 * One input event decoded, when it is a packed alloc, free or launch: its
 * values undone by decode/ and completed from what its process declared
 * before (bp_fill.h writes them into the output event).
 */
#ifndef BP_EVENT_H
#define BP_EVENT_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>

#include "bp_ir.h"
#include "bp_proc.h"

struct bp_decoded {
	int err; /* enum dec_err */
	char why[160];
	struct bp_proc *proc;
	struct dec_alloc alloc;
	struct dec_free free;
	struct dec_memcpy memcpy;
	struct dec_memset memset;
	struct dec_launch launch;
	bool head_lost; /* the launch's head event was not read */
	struct dec_arg *args; /* nargs of them, in a buffer grown as needed */
	uint64_t nargs, cap;
};

/*
 * Decodes `in` (of class e) into d and keeps what its process declares;
 * the class its output takes: e->out, or e->damaged when d->err.  NULL
 * when out of memory.
 */
bt_event_class *bp_event_decode(struct bp_procs *ps, const struct bp_ec *e,
				const bt_event *in, struct bp_decoded *d);
#endif
