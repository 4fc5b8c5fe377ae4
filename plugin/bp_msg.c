/* SPDX-License-Identifier: MIT */
#include "bp_msg.h"

#include "bp_copy.h"
#include "bp_fill.h"

/* The raw value of a clock snapshot, or of none (0). */
static uint64_t bp_cs(const bt_clock_snapshot *cs)
{
	return cs ? bt_clock_snapshot_get_value(cs) : 0;
}

static bool bp_has_clock(const bt_stream *s)
{
	return bt_stream_class_borrow_default_clock_class_const(
		       bt_stream_borrow_class_const(s)) != NULL;
}

static bt_message *bp_event_msg(struct bp_iter *it, const bt_message *m)
{
	const bt_event *in = bt_message_event_borrow_event_const(m);
	const bt_packet *ip = bt_event_borrow_packet_const(in);
	const bt_stream *is = bt_event_borrow_stream_const(in);
	struct bp_ec *e = bp_ir_ec(&it->ir, bt_event_borrow_class_const(in));
	bt_event_class *ec = e ? bp_event_decode(&it->procs, e, in, &it->dec) : NULL;
	uint64_t cs = bp_has_clock(is)
		? bp_cs(bt_message_event_borrow_default_clock_snapshot_const(m)) : 0;
	bt_message *out = NULL;

	if (!ec)
		return NULL;
	if (ip) {
		bt_packet *p = bp_ir_packet(&it->ir, ip);

		if (p)
			out = bp_has_clock(is)
				? bt_message_event_create_with_packet_and_default_clock_snapshot(
					  it->self, ec, p, cs)
				: bt_message_event_create_with_packet(it->self, ec, p);
	} else {
		bt_stream *s = bp_ir_stream(&it->ir, is);

		if (s)
			out = bp_has_clock(is)
				? bt_message_event_create_with_default_clock_snapshot(
					  it->self, ec, s, cs)
				: bt_message_event_create(it->self, ec, s);
	}
	if (out && bp_fill_event(e, in, &it->dec, bt_message_event_borrow_event(out))) {
		bt_message_put_ref(out);
		out = NULL;
	}
	return out;
}

static bt_message *bp_stream_msg(struct bp_iter *it, const bt_message *m,
				 bool begin)
{
	const bt_stream *in = begin ? bt_message_stream_beginning_borrow_stream_const(m)
				    : bt_message_stream_end_borrow_stream_const(m);
	bt_stream *s = bp_ir_stream(&it->ir, in);
	const bt_clock_snapshot *cs = NULL;
	bt_message *out;

	if (!s)
		return NULL;
	out = begin ? bt_message_stream_beginning_create(it->self, s)
		    : bt_message_stream_end_create(it->self, s);
	if (out && bp_has_clock(in) &&
	    (begin ? bt_message_stream_beginning_borrow_default_clock_snapshot_const(m, &cs)
		   : bt_message_stream_end_borrow_default_clock_snapshot_const(m, &cs)) ==
		    BT_MESSAGE_STREAM_CLOCK_SNAPSHOT_STATE_KNOWN) {
		if (begin)
			bt_message_stream_beginning_set_default_clock_snapshot(out, bp_cs(cs));
		else
			bt_message_stream_end_set_default_clock_snapshot(out, bp_cs(cs));
	}
	if (!begin)
		bp_ir_stream_end(&it->ir, in);
	return out;
}

static bt_message *bp_packet_msg(struct bp_iter *it, const bt_message *m,
				 bool begin)
{
	const bt_packet *in = begin ? bt_message_packet_beginning_borrow_packet_const(m)
				    : bt_message_packet_end_borrow_packet_const(m);
	const bt_stream_class *sc =
		bt_stream_borrow_class_const(bt_packet_borrow_stream_const(in));
	bt_packet *p = bp_ir_packet(&it->ir, in);
	bool cs = begin ? bt_stream_class_packets_have_beginning_default_clock_snapshot(sc)
			: bt_stream_class_packets_have_end_default_clock_snapshot(sc);
	bt_message *out;

	if (!p)
		return NULL;
	if (begin)
		out = cs ? bt_message_packet_beginning_create_with_default_clock_snapshot(
				   it->self, p,
				   bp_cs(bt_message_packet_beginning_borrow_default_clock_snapshot_const(m)))
			 : bt_message_packet_beginning_create(it->self, p);
	else
		out = cs ? bt_message_packet_end_create_with_default_clock_snapshot(
				   it->self, p,
				   bp_cs(bt_message_packet_end_borrow_default_clock_snapshot_const(m)))
			 : bt_message_packet_end_create(it->self, p);
	if (!begin)
		bp_ir_packet_end(&it->ir, in);
	return out;
}

static bt_message *bp_discarded_msg(struct bp_iter *it, const bt_message *m,
				    bool events)
{
	const bt_stream *in = events ? bt_message_discarded_events_borrow_stream_const(m)
				     : bt_message_discarded_packets_borrow_stream_const(m);
	const bt_stream_class *sc = bt_stream_borrow_class_const(in);
	bt_stream *s = bp_ir_stream(&it->ir, in);
	bool cs = events ? bt_stream_class_discarded_events_have_default_clock_snapshots(sc)
			 : bt_stream_class_discarded_packets_have_default_clock_snapshots(sc);
	bt_message *out;
	uint64_t n;

	if (!s)
		return NULL;
	if (events)
		out = cs ? bt_message_discarded_events_create_with_default_clock_snapshots(
				   it->self, s,
				   bp_cs(bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(m)),
				   bp_cs(bt_message_discarded_events_borrow_end_default_clock_snapshot_const(m)))
			 : bt_message_discarded_events_create(it->self, s);
	else
		out = cs ? bt_message_discarded_packets_create_with_default_clock_snapshots(
				   it->self, s,
				   bp_cs(bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(m)),
				   bp_cs(bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(m)))
			 : bt_message_discarded_packets_create(it->self, s);
	if (out && events &&
	    bt_message_discarded_events_get_count(m, &n) == BT_PROPERTY_AVAILABILITY_AVAILABLE)
		bt_message_discarded_events_set_count(out, n);
	if (out && !events &&
	    bt_message_discarded_packets_get_count(m, &n) == BT_PROPERTY_AVAILABILITY_AVAILABLE)
		bt_message_discarded_packets_set_count(out, n);
	return out;
}

static bt_message *bp_inactivity_msg(struct bp_iter *it, const bt_message *m)
{
	const bt_clock_snapshot *cs =
		bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(m);
	bt_clock_class *cc = bp_ir_cc(&it->ir, bt_clock_snapshot_borrow_clock_class_const(cs));

	return cc ? bt_message_message_iterator_inactivity_create(it->self, cc, bp_cs(cs))
		  : NULL;
}

bt_message *bp_msg(struct bp_iter *it, const bt_message *m)
{
	switch (bt_message_get_type(m)) {
	case BT_MESSAGE_TYPE_EVENT:
		return bp_event_msg(it, m);
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
	case BT_MESSAGE_TYPE_STREAM_END:
		return bp_stream_msg(it, m, bt_message_get_type(m) ==
						    BT_MESSAGE_TYPE_STREAM_BEGINNING);
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
	case BT_MESSAGE_TYPE_PACKET_END:
		return bp_packet_msg(it, m, bt_message_get_type(m) ==
						    BT_MESSAGE_TYPE_PACKET_BEGINNING);
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return bp_discarded_msg(it, m, bt_message_get_type(m) ==
						       BT_MESSAGE_TYPE_DISCARDED_EVENTS);
	case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
		return bp_inactivity_msg(it, m);
	default:
		return NULL;
	}
}
