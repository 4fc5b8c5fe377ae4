/* SPDX-License-Identifier: MIT */
/*
 * The field classes of decoded events: hipgrain's numbers as enumerations
 * with their names (common/hg_events.h, hg_hiperr.h), and the payloads of
 * a decoded alloc, free, launch, memcpy and memset, and of an event whose
 * bytes are damaged.
 */
#ifndef BP_TYPES_H
#define BP_TYPES_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>

#include "dec_schema.h"

/* Members of bp_decoded_class(DEC_LAUNCH)'s argument structure, in order. */
enum { BP_ARG_INDEX, BP_ARG_VALUE, BP_ARG_ID, BP_ARG_OFFSET, BP_ARG_MEM,
       BP_ARG_GRAN };

/*
 * The enumeration that names member `member` of a hipgrain event
 * (`event`: its name) whose class is `in`: api and alloc_api, the memory
 * classes, gran, and a HIP call's rc; NULL for any other member.
 */
bt_field_class *bp_code_class(bt_trace_class *tc, const char *event,
			      const char *member, const bt_field_class *in);

/* The payload class of a decoded event of kind (members as
 * hipgrain-events(7) names them). */
bt_field_class *bp_decoded_class(bt_trace_class *tc, enum dec_kind kind);

/* class (the name it came as), error, bytes. */
bt_field_class *bp_damaged_class(bt_trace_class *tc);

#endif
