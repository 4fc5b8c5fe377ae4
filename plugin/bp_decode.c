/* SPDX-License-Identifier: MIT */
/*
 * filter.hipgrain.decode: one input port, one output port; each message
 * from upstream becomes one message downstream (bp_msg.c), so the
 * iterator keeps no queue.
 */
#include "bp_decode.h"

#include <inttypes.h>
#include <stdlib.h>

#include "bp_mip.h"
#include "bp_msg.h"

bt_component_class_initialize_method_status
bp_decode_init(bt_self_component_filter *self,
	       bt_self_component_filter_configuration *config,
	       const bt_value *params, void *init_data)
{
	if (bt_self_component_filter_add_input_port(self, "in", NULL, NULL) ||
	    bt_self_component_filter_add_output_port(self, "out", NULL, NULL))
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_component_class_get_supported_mip_versions_method_status
bp_decode_mips(bt_self_component_class_filter *cls, const bt_value *params,
	       void *init_data, bt_logging_level level,
	       bt_integer_range_set_unsigned *versions)
{
	return bt_integer_range_set_unsigned_add_range(versions, 0, bp_mip_max())
		? BT_COMPONENT_CLASS_GET_SUPPORTED_MIP_VERSIONS_METHOD_STATUS_MEMORY_ERROR
		: BT_COMPONENT_CLASS_GET_SUPPORTED_MIP_VERSIONS_METHOD_STATUS_OK;
}

bt_message_iterator_class_initialize_method_status
bp_decode_iter_init(bt_self_message_iterator *self,
		    bt_self_message_iterator_configuration *config,
		    bt_self_component_port_output *port)
{
	/* A filter's self component is its self component filter. */
	bt_self_component_filter *comp =
		(bt_self_component_filter *)bt_self_message_iterator_borrow_component(self);
	struct bp_iter *it = calloc(1, sizeof(*it));

	if (!it)
		return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	it->self = self;
	it->ir.comp = bt_self_message_iterator_borrow_component(self);
	if (bt_message_iterator_create_from_message_iterator(
		    self, bt_self_component_filter_borrow_input_port_by_name(comp, "in"),
		    &it->up)) {
		free(it);
		return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
	}
	bt_self_message_iterator_set_data(self, it);
	return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

void bp_decode_iter_fini(bt_self_message_iterator *self)
{
	struct bp_iter *it = bt_self_message_iterator_get_data(self);

	if (!it)
		return;
	bt_message_iterator_put_ref(it->up);
	bp_ir_fini(&it->ir);
	bp_procs_fini(&it->procs);
	free(it->dec.args);
	free(it);
}

static bt_message_iterator_class_next_method_status
bp_up_status(bt_message_iterator_next_status st)
{
	switch (st) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_MEMORY_ERROR;
	default:
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
	}
}

bt_message_iterator_class_next_method_status
bp_decode_iter_next(bt_self_message_iterator *self,
		    bt_message_array_const msgs, uint64_t capacity,
		    uint64_t *count)
{
	struct bp_iter *it = bt_self_message_iterator_get_data(self);
	bt_message_array_const up;
	uint64_t n, i;
	bt_message_iterator_next_status st = bt_message_iterator_next(it->up, &up, &n);

	if (st != BT_MESSAGE_ITERATOR_NEXT_STATUS_OK)
		return bp_up_status(st);
	/*
	 * babeltrace2 2.0's ctf source can leave an error on the thread and
	 * still deliver messages (damaged payloads); the library aborts at
	 * the next call made with one set.  The batch came with OK: what
	 * is left is stale.
	 */
	bt_current_thread_clear_error();
	/* Every iterator's batch has the library's one capacity. */
	for (i = 0; i < n && i < capacity; i++) {
		msgs[i] = bp_msg(it, up[i]);
		if (!msgs[i])
			break;
		bt_message_put_ref(up[i]);
	}
	if (i == n) {
		*count = n;
		return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
	}
	/* bp_msg appended what failed; this says where in the batch. */
	if (i < capacity)
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(
			self, "cannot make the decoded message of upstream's "
			      "message %" PRIu64 " of %" PRIu64 " in its batch",
			i + 1, n);
	else
		BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(
			self, "upstream sent more messages than the batch holds "
			      "(%" PRIu64 " for %" PRIu64 ")", n, capacity);
	for (uint64_t k = 0; k < i; k++)
		bt_message_put_ref(msgs[k]);
	for (; i < n; i++)
		bt_message_put_ref(up[i]);
	return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_ERROR;
}

bt_component_class_filter *bp_decode_class(void)
{
	bt_message_iterator_class *ic =
		bt_message_iterator_class_create(bp_decode_iter_next);
	bt_component_class_filter *fc = NULL;

	if (!ic)
		return NULL;
	if (bt_message_iterator_class_set_initialize_method(ic, bp_decode_iter_init) ||
	    bt_message_iterator_class_set_finalize_method(ic, bp_decode_iter_fini))
		goto end;
	fc = bt_component_class_filter_create("decode", ic);
	if (fc && (bt_component_class_filter_set_initialize_method(fc, bp_decode_init) ||
		   bt_component_class_filter_set_get_supported_mip_versions_method(
			   fc, bp_decode_mips))) {
		bt_component_class_filter_put_ref(fc);
		fc = NULL;
	}
end:
	bt_message_iterator_class_put_ref(ic);
	return fc;
}
