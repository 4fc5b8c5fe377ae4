/* SPDX-License-Identifier: MIT */
/*
 * A cap on sequence lengths read from traces.
 *
 * babeltrace2 2.0's ctf plugin sizes a sequence field from the length it
 * reads in the stream before checking that the packet holds that many
 * elements.  One flipped bit in a length field (found by tests/hostile)
 * makes it allocate billions of fields: 16 GiB for the pointer array
 * alone, then the machine swaps until the OOM killer steps in, or glib
 * aborts, or a NULL field is written and the process crashes.
 *
 * The plugin calls this public function through its PLT.  Defined in the
 * executable and exported (see meson.build), ours is found first: it
 * refuses absurd lengths, so the read stops with an error and the report
 * is made from what came before, marked partial.  No sequence in a
 * hipgrain or LTTng statedump event comes near the cap (ours have 16-bit
 * lengths; an LTTng event must fit in one sub-buffer).
 */
#include <babeltrace2/babeltrace.h>
#include <dlfcn.h>
#include <inttypes.h>

#define AN_SEQ_MAX (UINT64_C(1) << 22)

typedef bt_field_array_dynamic_set_length_status (*an_set_length_fn)(bt_field *,
								     uint64_t);

__attribute__((visibility("default"), used))
bt_field_array_dynamic_set_length_status
bt_field_array_dynamic_set_length(bt_field *field, uint64_t length)
{
	static an_set_length_fn real;

	if (length > AN_SEQ_MAX) {
		bt_current_thread_error_append_cause_from_unknown(
		    "hipgrain", __FILE__, __LINE__,
		    "a sequence claims %" PRIu64 " elements (more than %" PRIu64
		    "): its length field is damaged",
		    length, AN_SEQ_MAX);
		return BT_FIELD_DYNAMIC_ARRAY_SET_LENGTH_STATUS_MEMORY_ERROR;
	}
	if (!real)
		real = (an_set_length_fn)dlsym(
		    RTLD_NEXT, "bt_field_array_dynamic_set_length");
	if (!real)
		return BT_FIELD_DYNAMIC_ARRAY_SET_LENGTH_STATUS_MEMORY_ERROR;
	return real(field, length);
}
