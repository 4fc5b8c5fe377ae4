/* SPDX-License-Identifier: MIT */
/*
 * Each upstream message made into the one the filter sends on, of the
 * output's classes.  Every failure appends its own cause, where it is
 * known, so the reader's error names what failed and not only that the
 * batch did.
 */
#include "bp_msg.h"

#include <stdarg.h>
#include <stdio.h>

#include "bp_copy.h"
#include "bp_fill.h"

/* NULL, with a cause appended that says what failed. */
static __attribute__((format(printf, 2, 3))) bt_message *
bp_fail(struct bp_iter *it, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	BT_CURRENT_THREAD_ERROR_APPEND_CAUSE_FROM_MESSAGE_ITERATOR(it->self, "%s",
								   what);
	return NULL;
}

static const char *bp_ec_name(const bt_event *in)
{
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(in));

	return name ? name : "(unnamed)";
}

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

	if (!e)
		return bp_fail(it, "event class %s: no output class (out of memory, "
			       "or a class the filter cannot copy)", bp_ec_name(in));
	if (!ec)
		return bp_fail(it, "event %s: cannot decode it (out of memory, or "
			       "no payload)", bp_ec_name(in));
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
	if (!out)
		return bp_fail(it, "event %s: cannot make its message (out of memory)",
			       bp_ec_name(in));
	if (bp_fill_event(e, in, &it->dec, bt_message_event_borrow_event(out))) {
		bt_message_put_ref(out);
		return bp_fail(it, "event %s: cannot fill its fields (out of memory)",
			       bp_ec_name(in));
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
		return bp_fail(it, "no output stream (out of memory)");
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
		return bp_fail(it, "no output packet (out of memory)");
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
		return bp_fail(it, "no output stream (out of memory)");
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
		  : bp_fail(it, "no output clock class (out of memory)");
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
		return bp_fail(it, "a message of a type the filter does not know (%d)",
			       (int)bt_message_get_type(m));
	}
}
