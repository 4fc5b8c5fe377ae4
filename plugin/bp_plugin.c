/* SPDX-License-Identifier: MIT */
/* The `hipgrain` babeltrace2 plugin: registration only. */
#include <babeltrace2/babeltrace.h>

#include "bp_decode.h"

/* BT_PLUGIN_MODULE defines functions the loader finds by name, with no
 * prototype to declare them. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

BT_PLUGIN_MODULE();
BT_PLUGIN(hipgrain);
BT_PLUGIN_DESCRIPTION("hipgrain's packed trace events as typed fields");
BT_PLUGIN_LICENSE("MIT");

BT_PLUGIN_FILTER_COMPONENT_CLASS(decode, bp_decode_iter_next);
BT_PLUGIN_FILTER_COMPONENT_CLASS_DESCRIPTION(decode,
	"Decode hipgrain's alloc, free, launch, memcpy and memset events into "
	"typed fields, "
	"and name its codes (api, memory class, granularity, HIP status).");
BT_PLUGIN_FILTER_COMPONENT_CLASS_INITIALIZE_METHOD(decode, bp_decode_init);
BT_PLUGIN_FILTER_COMPONENT_CLASS_GET_SUPPORTED_MIP_VERSIONS_METHOD(decode,
								  bp_decode_mips);
BT_PLUGIN_FILTER_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD(
	decode, bp_decode_iter_init);
BT_PLUGIN_FILTER_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_FINALIZE_METHOD(
	decode, bp_decode_iter_fini);
