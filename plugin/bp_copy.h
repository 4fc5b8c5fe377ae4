/* SPDX-License-Identifier: MIT */
/*
 * Copies of what passes through unchanged: field classes into the output
 * trace class, and field values into fields of those classes.
 */
#ifndef BP_COPY_H
#define BP_COPY_H

#include <babeltrace2/babeltrace.h>

/*
 * fc copied into tc; NULL on failure.  `event` not NULL: fc is the
 * payload of that hipgrain event, whose numeric codes become the
 * enumerations of bp_code_class.
 */
bt_field_class *bp_class_copy(bt_trace_class *tc, const bt_field_class *fc,
			      const char *event);

/* in's value into out, of a class bp_class_copy made of in's; 0 or -1. */
int bp_field_copy(const bt_field *in, bt_field *out);

#endif
