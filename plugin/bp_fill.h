/* SPDX-License-Identifier: MIT */
/*
 * The output event's fields: copied, decoded (bp_event.h), or, where the
 * packed bytes are damaged, a `hipgrain:damaged` event that says why and
 * keeps them.
 */
#ifndef BP_FILL_H
#define BP_FILL_H

#include <babeltrace2/babeltrace.h>

#include "bp_event.h"

/* The output event's fields from in and d; 0 or -1. */
int bp_fill_event(const struct bp_ec *e, const bt_event *in,
		  const struct bp_decoded *d, bt_event *out);

#endif
