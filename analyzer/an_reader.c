/* SPDX-License-Identifier: MIT */
/*
 * Reading: one graph, a source.ctf.fs per trace directory and a sink of
 * ours that orders their streams by time (an_merge.h) and feeds replay.
 * A trace whose source cannot even start is left out with a message (tried
 * in a throwaway graph first: a failed addition makes a graph unusable).
 */
#include "an_inputs.h"
#include "an_reader.h"

#include <babeltrace2/babeltrace.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "an_guard.h"
#include "an_merge.h"
#include "an_meta.h"
#include "an_replay.h"
#include "an_packets.h"
#include "an_probe.h"
#include "an_salvage.h"
#include "an_schema.h"
#include "an_source.h"

struct an_sink {
	struct an_ctx *c;
	struct an_evcache *cache;
	struct hg_map discard_traces; /* traces that lost events */
	const void *last_trace;
	int64_t last_vpid;
	struct an_proc *last_proc;
	/* The trace of the stream read last: streams come in runs. */
	const bt_stream *last_stream;
	const bt_trace *last_stream_trace;
	/*
	 * A stream of N bytes holds fewer than N events (and packets): a
	 * reader that delivers more is looping on damage (metadata declaring
	 * zero-bit events makes babeltrace2 itself spin).  Counted over all
	 * traces of the graph, against all their stream bytes.
	 */
	uint64_t stream_bytes, messages;
	bool runaway;
	/* The one trace read, as the user named it: a damaged one is read
	 * from a salvaged copy whose temporary path means nothing to them. */
	char *shown;
};

/*
 * Each image of a process says it started twice over: our preload's
 * `process` event and lttng-ust's statedump, in either order.  A second
 * one of either kind for the same pid is an exec: a new process.
 */
static struct an_proc *an_image_start(struct an_ctx *c, struct an_proc *p,
				      enum an_ev_kind kind)
{
	uint8_t mark = kind == AN_EV_PROCESS ? 1 : 2;

	if (p->image_marks & mark)
		p = an_proc_exec(c, p);
	p->image_marks |= mark;
	return p;
}

/* Common-context member i (>= 0) of e, an integer read as its class says
 * (an_read_reference: as its field says). */
static inline __attribute__((always_inline)) uint64_t
an_ctx_int(const struct an_ev *e, int16_t i, uint8_t read)
{
	return an_field_int(bt_field_structure_borrow_member_field_by_index_const(
				    e->ctx, (uint64_t)i),
			    read);
}

static struct an_proc *an_proc_of(struct an_sink *s, const struct an_ev *e)
{
	const bt_trace *t;
	int64_t vpid = -1;
	struct an_proc *p;

	if (e->stream != s->last_stream) {
		s->last_stream = e->stream;
		s->last_stream_trace = bt_stream_borrow_trace_const(e->stream);
	}
	t = s->last_stream_trace;
	/* Per event: with per-uid buffers, processes share a stream. */
	if (e->ctx && e->cls->ctx_vpid >= 0)
		vpid = (int64_t)an_ctx_int(e, e->cls->ctx_vpid,
					   e->cls->ctx_vpid_read);
	bool marks = e->cls->kind == AN_EV_PROCESS ||
		     e->cls->kind == AN_EV_STATEDUMP;

	if (!marks && t == s->last_trace && vpid == s->last_vpid &&
	    s->last_proc && s->last_proc->procname[0])
		return s->last_proc;
	p = an_proc_get(s->c, t, vpid);
	if (p && marks)
		p = an_image_start(s->c, p, e->cls->kind);
	if (p && !p->trace) {
		const bt_value *host =
			bt_trace_borrow_environment_entry_value_by_name_const(t, "hostname");

		if (host && bt_value_is_string(host))
			snprintf(p->host, sizeof(p->host), "%s",
				 bt_value_string_get(host));
		p->trace = t;
	}
	/* The statedump thread is named "<proc>-ust": take an app thread's. */
	if (p && !p->procname[0] && e->cls->kind < AN_EV_BIN_INFO && e->ctx &&
	    e->cls->ctx_procname >= 0)
		snprintf(p->procname, sizeof(p->procname), "%s",
			 bt_field_string_get_value(
				 bt_field_structure_borrow_member_field_by_index_const(
					 e->ctx, (uint64_t)e->cls->ctx_procname)));
	s->last_trace = t;
	s->last_vpid = vpid;
	s->last_proc = p;
	return p;
}

/* Time and thread of the event, for the timeline formats only. */
static void an_stamp(struct an_ctx *c, const bt_message *m,
		     const struct an_ev *e)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(e->stream);
	int64_t ns;

	if (bt_stream_class_borrow_default_clock_class_const(sc) &&
	    bt_clock_snapshot_get_ns_from_origin(
		    bt_message_event_borrow_default_clock_snapshot_const(m),
		    &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK &&
	    ns >= 0)
		c->now_ns = (uint64_t)ns;
	c->now_tid = 0;
	if (e->ctx && e->cls->ctx_vtid >= 0)
		c->now_tid = (int32_t)an_ctx_int(e, e->cls->ctx_vtid,
						 e->cls->ctx_vtid_read);
}

static void an_on_event(struct an_sink *s, const bt_message *m)
{
	const bt_event *ev = bt_message_event_borrow_event_const(m);
	struct an_ev e = {
		.cls = an_evclass_of(s->cache, bt_event_borrow_class_const(ev)),
	};
	struct an_proc *p;

	s->c->events++;
	if (!e.cls || e.cls->kind == AN_EV_OTHER)
		return;
	e.payload = bt_event_borrow_payload_field_const(ev);
	e.ctx = bt_event_borrow_common_context_field_const(ev);
	e.stream = bt_event_borrow_stream_const(ev);
	p = an_proc_of(s, &e);
	if (!p || !e.payload)
		return;
	if (e.cls->kind < AN_EV_BIN_INFO)
		s->c->hg_events++;
	if (s->c->tl)
		an_stamp(s->c, m, &e);
	an_replay(s->c, p, &e);
}

static void an_on_discard(struct an_sink *s, const bt_message *m, bool packets)
{
	const bt_stream *st = packets
		? bt_message_discarded_packets_borrow_stream_const(m)
		: bt_message_discarded_events_borrow_stream_const(m);
	uint64_t n = 1;

	if (packets) {
		if (bt_message_discarded_packets_get_count(m, &n) !=
		    BT_PROPERTY_AVAILABILITY_AVAILABLE)
			n = 1;
		s->c->discarded_packets += n;
	} else {
		if (bt_message_discarded_events_get_count(m, &n) !=
		    BT_PROPERTY_AVAILABILITY_AVAILABLE)
			n = 1;
		s->c->discarded_events += n;
	}
	hg_map_put(&s->discard_traces,
		   (uintptr_t)bt_stream_borrow_trace_const(st), (void *)st);
}

/* One message in time order, to replay. */
static bool an_on_message(void *arg, const bt_message *m)
{
	struct an_sink *s = arg;

	if (++s->messages > s->stream_bytes) {
		s->runaway = true;
		return false;
	}
	bt_message_type t = bt_message_get_type(m);

	/* Nearly every message is an event: spare it the switch's jump. */
	if (t == BT_MESSAGE_TYPE_EVENT) {
		an_on_event(s, m);
		return true;
	}
	switch (t) {
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		an_on_discard(s, m, false);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		an_on_discard(s, m, true);
		break;
	default:
		break;
	}
	return true;
}

static void an_mark_discards(void *val, void *arg)
{
	struct an_proc *p = val;
	struct an_sink *s = arg;

	if (hg_map_get(&s->discard_traces, (uintptr_t)p->trace))
		p->discarded = true;
}

/* Every output port of the sources to an input port of the sink. */
static int an_connect_sink(bt_graph *g, const bt_component_source **srcs,
			   size_t nsrc, const bt_component_sink *sink)
{
	uint64_t nin = 0;

	for (size_t k = 0; k < nsrc; k++) {
		uint64_t n = bt_component_source_get_output_port_count(srcs[k]);

		for (uint64_t i = 0; i < n; i++, nin++)
			if (bt_graph_connect_ports(
				    g,
				    bt_component_source_borrow_output_port_by_index_const(
					    srcs[k], i),
				    bt_component_sink_borrow_input_port_by_index_const(
					    sink, nin),
				    NULL))
				return -1;
	}
	return 0;
}

static int an_build(bt_graph *g, struct an_sink *s, char **dirs, size_t n,
		    FILE *err)
{
	const bt_component_source **srcs = calloc(n ? n : 1, sizeof(*srcs));
	const bt_component_sink *sink;
	size_t nsrc = 0;
	uint64_t nin = 0;
	char name[32];
	int rc = -1;

	for (size_t i = 0; srcs && i < n; i++) {
		if (n == 1)
			s->shown = strdup(dirs[i]);
		/* Metadata that would hang the reader is not worth salvaging. */
		if (!an_meta_ok(dirs[i], err) ||
		    (!an_probe(dirs[i], err) && an_salvage(s->c, &dirs[i], err))) {
			s->c->traces_failed++;
			continue;
		}
		snprintf(name, sizeof(name), "src%zu", i);
		srcs[nsrc] = an_add_source(g, dirs[i], name);
		if (!srcs[nsrc])
			goto end;
		nin += bt_component_source_get_output_port_count(srcs[nsrc++]);
		s->stream_bytes += an_stream_bytes(dirs[i]);
		s->c->traces_read++;
	}
	if (srcs && !nin) {
		rc = 1;
		goto end;
	}
	sink = srcs ? an_merge_add(g, nin, an_on_message, s) : NULL;
	if (sink)
		rc = an_connect_sink(g, srcs, nsrc, sink);
end:
	free(srcs);
	return rc;
}

static int an_run_guarded(void *g)
{
	bt_graph_run_status st;

	do
		st = bt_graph_run(g);
	while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	return (int)st;
}

int an_read(struct an_ctx *c, char **dirs, size_t n, FILE *err)
{
	struct an_sink s = {.c = c, .cache = an_evcache_new(), .last_vpid = -2};
	bt_graph *g;
	int st, sig, rc = -1;

	/*
	 * babeltrace aborts when called with an error still set on the thread.
	 * Some of its failure paths leave one behind without failing (found by
	 * fz_trace, one input after another): start every graph clean.
	 */
	bt_current_thread_clear_error();
	c->epoch++;
	g = bt_graph_create(0);

	if (!g || !s.cache)
		goto end;
	rc = an_build(g, &s, dirs, n, err);
	if (rc) {
		if (rc < 0)
			an_print_bt_error(err, "cannot set up the trace reader");
		goto end;
	}
	st = an_guard_call(an_run_guarded, g, &sig);
	if (st == AN_GUARD_CRASHED) {
		/* What was read before the crash still makes a partial report. */
		an_reader_crashed(err, s.shown ? s.shown : "a trace", sig);
		an_guard_abandon(g);
		g = NULL;
		c->partial = true;
	} else if (s.runaway) {
		bt_current_thread_clear_error();
		fprintf(err, "hipgrain report: %s: corrupt trace: the reader "
			     "delivered more events than its %" PRIu64
			     " stream bytes can hold; stopped reading\n",
			s.shown ? s.shown : "a trace", s.stream_bytes);
		an_warn(c, "corrupt trace: more events than stream bytes; "
			   "the report is partial");
		c->partial = true;
	} else if (st != BT_GRAPH_RUN_STATUS_OK) {
		/* What was read so far still makes a report: a partial one. */
		an_print_bt_error(err, "reading stopped early");
		c->partial = true;
	}
	hg_map_each(&c->procs, an_mark_discards, &s);
end:
	bt_graph_put_ref(g);
	an_evcache_free(s.cache);
	hg_map_fini(&s.discard_traces);
	free(s.shown);
	return rc;
}
