/* SPDX-License-Identifier: MIT */
/* filter.hipgrain.decode: the methods bp_plugin.c registers, and the same
 * class made at run time for programs that build their own graph. */
#ifndef BP_DECODE_H
#define BP_DECODE_H

#include <babeltrace2/babeltrace.h>

bt_component_class_initialize_method_status
bp_decode_init(bt_self_component_filter *self,
	       bt_self_component_filter_configuration *config,
	       const bt_value *params, void *init_data);

/* The MIP versions the filter speaks: 0, and 1 where the headers have it
 * (babeltrace2 2.1's CLI puts LTTng 2.16's traces in a MIP-1 graph). */
bt_component_class_get_supported_mip_versions_method_status
bp_decode_mips(bt_self_component_class_filter *cls, const bt_value *params,
	       void *init_data, bt_logging_level level,
	       bt_integer_range_set_unsigned *versions);

bt_message_iterator_class_initialize_method_status
bp_decode_iter_init(bt_self_message_iterator *self,
		    bt_self_message_iterator_configuration *config,
		    bt_self_component_port_output *port);

void bp_decode_iter_fini(bt_self_message_iterator *self);

bt_message_iterator_class_next_method_status
bp_decode_iter_next(bt_self_message_iterator *self,
		    bt_message_array_const msgs, uint64_t capacity,
		    uint64_t *count);

/* The class, named "decode" (a new reference); NULL if out of memory. */
bt_component_class_filter *bp_decode_class(void);

#endif
