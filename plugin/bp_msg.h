/* SPDX-License-Identifier: MIT */
/* One upstream message made into the message the filter sends on. */
#ifndef BP_MSG_H
#define BP_MSG_H

#include <babeltrace2/babeltrace.h>

#include "bp_event.h"
#include "bp_ir.h"
#include "bp_proc.h"

struct bp_iter {
	bt_self_message_iterator *self;
	bt_message_iterator *up;
	struct bp_ir ir;
	struct bp_procs procs;
	struct bp_decoded dec;
};

/* NULL on failure (an error cause appended). */
bt_message *bp_msg(struct bp_iter *it, const bt_message *m);

#endif
