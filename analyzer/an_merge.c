/* SPDX-License-Identifier: MIT */
#include "an_merge.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "an_guard.h"

/* Messages handed on per consume call: one guard bracket and one return
 * to the graph for many. */
#define AN_MERGE_BATCH 256

/* One input: its iterator's current batch, and when its head happened. */
struct an_up {
	bt_message_iterator *it;
	bt_message_array_const msgs;
	uint64_t n, i; /* msgs[i] is the head; none when i == n */
	int64_t ns;    /* the head's time, or the time handed on last */
	uint32_t port;
	bool timeless; /* the head has no time of its own */
};

struct an_merge {
	bt_self_component *self;
	an_merge_fn fn;
	void *arg;
	uint64_t nup, nheap, nfill;
	struct an_up *ups;
	struct an_up **heap; /* the inputs with a head, earliest on top */
	struct an_up **fill; /* the inputs whose next batch is still to get */
	int64_t last;	     /* the time of the message handed on last */
	const bt_message *out[AN_MERGE_BATCH];
};

struct an_merge_cfg {
	uint64_t ninputs;
	an_merge_fn fn;
	void *arg;
};

static bool an_before(const struct an_up *a, const struct an_up *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->port < b->port);
}

static void an_sift_down(struct an_merge *m, uint64_t i)
{
	struct an_up *u = m->heap[i];

	for (;;) {
		uint64_t c = 2 * i + 1;

		if (c >= m->nheap)
			break;
		if (c + 1 < m->nheap && an_before(m->heap[c + 1], m->heap[c]))
			c++;
		if (!an_before(m->heap[c], u))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	m->heap[i] = u;
}

static void an_push(struct an_merge *m, struct an_up *u)
{
	uint64_t i = m->nheap++;

	while (i && an_before(u, m->heap[(i - 1) / 2])) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = u;
}

/* an_snapshot() of a message that is not an event. */
static __attribute__((noinline)) const bt_clock_snapshot *
an_snapshot_other(const bt_message *m, bt_message_type t)
{
	const bt_clock_snapshot *cs = NULL;
	const bt_stream_class *sc;

	switch (t) {
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		sc = bt_stream_borrow_class_const(bt_packet_borrow_stream_const(
			bt_message_packet_beginning_borrow_packet_const(m)));
		return bt_stream_class_packets_have_beginning_default_clock_snapshot(sc)
			       ? bt_message_packet_beginning_borrow_default_clock_snapshot_const(m)
			       : NULL;
	case BT_MESSAGE_TYPE_PACKET_END:
		sc = bt_stream_borrow_class_const(bt_packet_borrow_stream_const(
			bt_message_packet_end_borrow_packet_const(m)));
		return bt_stream_class_packets_have_end_default_clock_snapshot(sc)
			       ? bt_message_packet_end_borrow_default_clock_snapshot_const(m)
			       : NULL;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		sc = bt_stream_borrow_class_const(
			bt_message_discarded_events_borrow_stream_const(m));
		return bt_stream_class_discarded_events_have_default_clock_snapshots(sc)
			       ? bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(m)
			       : NULL;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		sc = bt_stream_borrow_class_const(
			bt_message_discarded_packets_borrow_stream_const(m));
		return bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)
			       ? bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(m)
			       : NULL;
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
		if (bt_message_stream_beginning_borrow_stream_class_default_clock_class_const(m) &&
		    bt_message_stream_beginning_borrow_default_clock_snapshot_const(m, &cs) !=
			    BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_KNOWN)
			cs = NULL;
		return cs;
	case BT_MESSAGE_TYPE_STREAM_END:
		if (bt_message_stream_end_borrow_stream_class_default_clock_class_const(m) &&
		    bt_message_stream_end_borrow_default_clock_snapshot_const(m, &cs) !=
			    BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_KNOWN)
			cs = NULL;
		return cs;
	case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
		return bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(m);
	default:
		return NULL;
	}
}

/* The default clock snapshot that places m, as utils.muxer reads it: NULL
 * for a message without one, which goes out as soon as it is a head.
 * Nearly every message is an event: those take the short way, inline. */
static inline __attribute__((always_inline)) const bt_clock_snapshot *
an_snapshot(const bt_message *m)
{
	bt_message_type t = bt_message_get_type(m);

	if (t != BT_MESSAGE_TYPE_EVENT)
		return an_snapshot_other(m, t);
	return bt_message_event_borrow_stream_class_default_clock_class_const(m)
		       ? bt_message_event_borrow_default_clock_snapshot_const(m)
		       : NULL;
}

/* Places u's head.  Inline: it runs once per message. */
static inline __attribute__((always_inline)) void
an_place(struct an_merge *m, struct an_up *u)
{
	const bt_clock_snapshot *cs = an_snapshot(u->msgs[u->i]);
	int64_t ns;

	u->timeless = !cs || bt_clock_snapshot_get_ns_from_origin(cs, &ns) !=
				     BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK;
	u->ns = u->timeless ? m->last : ns;
}

static bt_component_class_sink_consume_method_status
an_status(bt_message_iterator_next_status st)
{
	switch (st) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_MEMORY_ERROR;
	default:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
	}
}

/* Gets the next batch of every input that needs one, placing the inputs
 * that have one: OK, or why not (an input that says AGAIN stays to fill,
 * as nothing can go out before its head is known). */
static bt_component_class_sink_consume_method_status
an_refill(struct an_merge *m)
{
	while (m->nfill) {
		struct an_up *u = m->fill[m->nfill - 1];
		bt_message_iterator_next_status st =
			bt_message_iterator_next(u->it, &u->msgs, &u->n);

		if (st != BT_MESSAGE_ITERATOR_NEXT_STATUS_OK &&
		    st != BT_MESSAGE_ITERATOR_NEXT_STATUS_END)
			return an_status(st);
		m->nfill--;
		u->i = 0;
		if (st == BT_MESSAGE_ITERATOR_NEXT_STATUS_END) {
			u->n = 0;
			continue;
		}
		if (u->n) {
			an_place(m, u);
			an_push(m, u);
		}
	}
	return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

/* The input whose head goes out after the top's: the earlier child. */
static const struct an_up *an_runner_up(const struct an_merge *m)
{
	if (m->nheap < 2)
		return NULL;
	if (m->nheap > 2 && an_before(m->heap[2], m->heap[1]))
		return m->heap[2];
	return m->heap[1];
}

/*
 * Takes heads from the top input into m->out from *n on, for as long as
 * they stay before the runner-up's head: a stream's messages mostly come
 * in runs, and within one the heap need not be touched.  Then puts the
 * heap right.  ERROR when a head's time is before the last one's.
 */
static bt_component_class_sink_consume_method_status
an_take_run(struct an_merge *m, uint64_t *n)
{
	struct an_up *u = m->heap[0];
	const struct an_up *next = an_runner_up(m);

	do {
		if (!u->timeless && u->ns < m->last) {
			bt_current_thread_error_append_cause_from_component(
				m->self, __FILE__, __LINE__,
				"time goes backwards across streams: a message at %" PRId64
				" ns from origin after one at %" PRId64 " ns",
				u->ns, m->last);
			return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
		}
		m->out[(*n)++] = u->msgs[u->i++];
		m->last = u->ns;
		if (u->i == u->n) {
			m->heap[0] = m->heap[--m->nheap];
			m->fill[m->nfill++] = u;
			break;
		}
		an_place(m, u);
	} while (*n < AN_MERGE_BATCH && (!next || an_before(u, next)));
	if (m->nheap)
		an_sift_down(m, 0);
	return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

static bt_component_class_sink_consume_method_status
an_merge_consume(bt_self_component_sink *self)
{
	struct an_merge *m = bt_self_component_get_data(
		bt_self_component_sink_as_self_component(self));
	bt_component_class_sink_consume_method_status st;
	uint64_t n = 0, i;

	for (;;) {
		st = an_refill(m);
		if (st != BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK)
			break;
		if (!m->nheap) {
			st = BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
			break;
		}
		if (n == AN_MERGE_BATCH)
			break;
		st = an_take_run(m, &n);
		if (st != BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK)
			break;
	}
	an_guard_ours(true);
	for (i = 0; i < n && m->fn(m->arg, m->out[i]); i++)
		bt_message_put_ref(m->out[i]);
	an_guard_ours(false);
	if (i < n) {
		for (; i < n; i++)
			bt_message_put_ref(m->out[i]);
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
	}
	return st;
}

static bt_component_class_initialize_method_status
an_merge_init(bt_self_component_sink *self,
	      bt_self_component_sink_configuration *conf,
	      const bt_value *params, void *data)
{
	const struct an_merge_cfg *cfg = data;
	struct an_merge *m = calloc(1, sizeof(*m));
	char name[32];

	(void)conf;
	(void)params;
	if (!m)
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	*m = (struct an_merge){
		.self = bt_self_component_sink_as_self_component(self),
		.fn = cfg->fn, .arg = cfg->arg, .nup = cfg->ninputs,
		.ups = calloc(cfg->ninputs, sizeof(*m->ups)),
		.heap = calloc(cfg->ninputs, sizeof(*m->heap)),
		.fill = calloc(cfg->ninputs, sizeof(*m->fill)),
		.last = INT64_MIN,
	};
	bt_self_component_set_data(m->self, m);
	if (!m->ups || !m->heap || !m->fill)
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	for (uint64_t i = 0; i < m->nup; i++) {
		snprintf(name, sizeof(name), "in%" PRIu64, i);
		if (bt_self_component_sink_add_input_port(self, name, NULL, NULL))
			return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
	}
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static bt_component_class_sink_graph_is_configured_method_status
an_merge_configured(bt_self_component_sink *self)
{
	struct an_merge *m = bt_self_component_get_data(
		bt_self_component_sink_as_self_component(self));

	for (uint64_t i = 0; i < m->nup; i++) {
		struct an_up *u = &m->ups[i];

		if (bt_message_iterator_create_from_sink_component(
			    self, bt_self_component_sink_borrow_input_port_by_index(self, i),
			    &u->it))
			return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
		u->port = (uint32_t)i;
		m->fill[m->nfill++] = u;
	}
	return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

static void an_merge_fini(bt_self_component_sink *self)
{
	struct an_merge *m = bt_self_component_get_data(
		bt_self_component_sink_as_self_component(self));

	if (!m)
		return;
	for (uint64_t i = 0; m->ups && i < m->nup; i++) {
		struct an_up *u = &m->ups[i];

		for (; u->i < u->n; u->i++)
			bt_message_put_ref(u->msgs[u->i]);
		bt_message_iterator_put_ref(u->it);
	}
	free(m->ups);
	free(m->heap);
	free(m->fill);
	free(m);
}

const bt_component_sink *an_merge_add(bt_graph *g, uint64_t ninputs,
				      an_merge_fn fn, void *arg)
{
	struct an_merge_cfg cfg = {ninputs, fn, arg};
	bt_component_class_sink *cls =
		bt_component_class_sink_create("hipgrain", an_merge_consume);
	const bt_component_sink *sink = NULL;

	if (cls &&
	    (bt_component_class_sink_set_initialize_method(cls, an_merge_init) ||
	     bt_component_class_sink_set_graph_is_configured_method(
		     cls, an_merge_configured) ||
	     bt_component_class_sink_set_finalize_method(cls, an_merge_fini) ||
	     bt_graph_add_sink_component_with_initialize_method_data(
		     g, cls, "hipgrain", NULL, &cfg, BT_LOGGING_LEVEL_NONE, &sink)))
		sink = NULL;
	bt_component_class_sink_put_ref(cls);
	return sink;
}
