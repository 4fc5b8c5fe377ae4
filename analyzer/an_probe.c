/* SPDX-License-Identifier: MIT */
/*
 * Probes: whether a trace's source starts at all, and how many events it
 * reads before it fails, each in a throwaway graph under the crash guard.
 * The reader and the salvage both ask, so the probes live in neither.
 */
#include <babeltrace2/babeltrace.h>
#include <stdio.h>
#include <string.h>

#include "an_guard.h"
#include "an_packets.h"
#include "an_probe.h"
#include "an_source.h"

struct an_probe_arg {
	const char *dir;
	FILE *err;	  /* an_probe: where to say why not */
	uint64_t *events; /* an_probe_count: the events read */
	bt_graph *g;
};

static int an_probe_guarded(void *arg)
{
	struct an_probe_arg *a = arg;
	const bt_component_source *src;
	bool ok;
	char what[4200];

	bt_current_thread_clear_error(); /* see an_read() */
	a->g = bt_graph_create(0);
	src = a->g ? an_add_source(a->g, a->dir, "probe") : NULL;
	ok = src && bt_component_source_get_output_port_count(src) > 0;
	if (!src) {
		snprintf(what, sizeof(what), "%s: not a readable CTF trace", a->dir);
		an_print_bt_error(a->err, what);
	} else if (!ok) {
		fprintf(a->err, "hipgrain report: %s: the trace holds no event "
				"stream (empty trace)\n", a->dir);
	}
	bt_graph_put_ref(a->g);
	return ok;
}

/* fn under the crash guard: false when the reader crashed, said on err. */
static bool an_probe_run(int (*fn)(void *), struct an_probe_arg *a)
{
	int sig, rc = an_guard_call(fn, a, &sig);

	if (rc != AN_GUARD_CRASHED)
		return rc;
	an_guard_abandon(a->g);
	if (a->err)
		an_reader_crashed(a->err, a->dir, sig);
	else
		bt_current_thread_clear_error();
	return false;
}

/* Whether dir's source starts and has streams to read. */
bool an_probe(const char *dir, FILE *err)
{
	struct an_probe_arg a = {.dir = dir, .err = err};

	return an_pkt_dir(dir, err) && an_probe_run(an_probe_guarded, &a);
}

/* The next batch of messages; false when there is none, with what the
 * sink's consume function returns in *st. */
static bool an_next(bt_message_iterator *it, bt_message_array_const *msgs,
		    uint64_t *n,
		    bt_graph_simple_sink_component_consume_func_status *st)
{
	switch (bt_message_iterator_next(it, msgs, n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		return true;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		*st = BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		*st = BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		*st = BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
		break;
	default:
		*st = BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	return false;
}

static const bt_component_filter *an_add_muxer(bt_graph *g)
{
	const bt_plugin *pl = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_class_filter *cls;

	if (bt_plugin_find("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &pl) != BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	cls = bt_plugin_borrow_filter_component_class_by_name_const(pl, "muxer");
	if (!cls || bt_graph_add_filter_component(g, cls, "muxer", NULL,
						  BT_LOGGING_LEVEL_NONE, &mux))
		mux = NULL;
	bt_plugin_put_ref(pl);
	return mux;
}

/* Connects every output port of src to a fresh muxer input port. */
static int an_connect_source(bt_graph *g, const bt_component_source *src,
			     const bt_component_filter *mux, uint64_t *nin)
{
	uint64_t n = bt_component_source_get_output_port_count(src);

	for (uint64_t i = 0; i < n; i++, (*nin)++) {
		const bt_port_output *out =
			bt_component_source_borrow_output_port_by_index_const(src, i);
		const bt_port_input *in =
			bt_component_filter_borrow_input_port_by_index_const(mux, *nin);

		if (!in || bt_graph_connect_ports(g, out, in, NULL))
			return -1;
	}
	return 0;
}

static bt_graph_simple_sink_component_consume_func_status
an_count_events(bt_message_iterator *it, void *data)
{
	bt_graph_simple_sink_component_consume_func_status st;
	bt_message_array_const msgs;
	uint64_t n, *events = data;

	if (!an_next(it, &msgs, &n, &st))
		return st;
	for (uint64_t i = 0; i < n; i++) {
		*events += bt_message_get_type(msgs[i]) == BT_MESSAGE_TYPE_EVENT;
		bt_message_put_ref(msgs[i]);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* The sink straight on a lone stream's port: a muxer between them drops
 * the events of the batch the stream failed in, and the count would be
 * short of where the stream's last whole event ends. */
static int an_count_connect(bt_graph *g, const bt_component_source *src,
			    const bt_component_sink *sink)
{
	const bt_port_input *in =
		bt_component_sink_borrow_input_port_by_name_const(sink, "in");
	const bt_component_filter *mux;
	uint64_t nin = 0;

	if (bt_component_source_get_output_port_count(src) == 1)
		return bt_graph_connect_ports(
			       g,
			       bt_component_source_borrow_output_port_by_index_const(
				       src, 0),
			       in, NULL)
			       ? -1
			       : 0;
	mux = an_add_muxer(g);
	if (!mux || an_connect_source(g, src, mux, &nin))
		return -1;
	return bt_graph_connect_ports(
		       g, bt_component_filter_borrow_output_port_by_name_const(mux, "out"),
		       in, NULL)
		       ? -1
		       : 0;
}

static int an_count_guarded(void *arg)
{
	struct an_probe_arg *a = arg;
	const bt_component_source *src;
	const bt_component_sink *sink;
	const bt_error *err;
	bt_graph_run_status st;

	bt_current_thread_clear_error(); /* see an_read() */
	a->g = bt_graph_create(0);
	src = a->g ? an_add_source(a->g, a->dir, "count") : NULL;
	if (!src ||
	    bt_graph_add_simple_sink_component(a->g, "counter", NULL,
					       an_count_events, NULL, a->events,
					       &sink) ||
	    an_count_connect(a->g, src, sink)) {
		bt_graph_put_ref(a->g);
		bt_current_thread_clear_error();
		return false;
	}
	do
		st = bt_graph_run(a->g);
	while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	bt_graph_put_ref(a->g);
	/* babeltrace2 2.0's ctf source can end a stream cut in an event as if
	 * it were whole, with the failure left on the thread: that is this
	 * probe's answer, and must not reach the next graph. */
	err = bt_current_thread_take_error();
	if (err)
		bt_error_release(err);
	return st == BT_GRAPH_RUN_STATUS_OK && !err;
}

bool an_probe_count(const char *dir, uint64_t *events)
{
	struct an_probe_arg a = {.dir = dir, .events = events};

	*events = 0;
	/* Salvage counts cut copies: each is walked as the first probe was. */
	return an_pkt_dir(dir, NULL) && an_probe_run(an_count_guarded, &a);
}
