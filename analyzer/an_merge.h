/* SPDX-License-Identifier: MIT */
/*
 * A sink that reads every stream of a trace in time order and hands each
 * message to a function of ours: babeltrace2's utils.muxer and a simple
 * sink in one component, without the muxer's queue and checks per message
 * (the report's reading cost is measured against babeltrace2's own).
 */
#ifndef AN_MERGE_H
#define AN_MERGE_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stdint.h>

/* One message, in time order; false stops the graph with an error. */
typedef bool (*an_merge_fn)(void *arg, const bt_message *m);

/*
 * Adds the sink to g with ninputs input ports, "in0"..., to be connected to
 * the sources' output ports.  The messages of one stream keep their order;
 * those of different streams go by time, a tie to the lower port.  A
 * stream whose time goes backwards stops the graph with an error, as the
 * muxer does.  NULL on failure.
 */
const bt_component_sink *an_merge_add(bt_graph *g, uint64_t ninputs,
				      an_merge_fn fn, void *arg);

#endif
