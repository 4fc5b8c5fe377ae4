/* SPDX-License-Identifier: MIT */
/*
 * The output's classes and objects, each made the first time its input one
 * is seen and found again by a lookup: babeltrace2 gives a filter no way
 * to forward an input object, and most of a trace's classes are never
 * used by one run.
 */
#include "bp_ir.h"

#include <stdlib.h>
#include <string.h>

#include "bp_copy.h"
#include "bp_mip.h"
#include "bp_types.h"

#define KEY(p) ((uint64_t)(uintptr_t)(p))

static bt_trace_class *bp_ir_tc(struct bp_ir *ir, const bt_trace_class *in)
{
	bt_trace_class *tc = hg_map_get(&ir->tcs, KEY(in));

	if (tc)
		return tc;
	tc = bt_trace_class_create(ir->comp);
	if (!tc)
		return NULL;
	/* Stream class ids are the input's: see bp_ir_sc. */
	bt_trace_class_set_assigns_automatic_stream_class_id(tc, BT_FALSE);
	if (hg_map_put(&ir->tcs, KEY(in), tc)) {
		bt_trace_class_put_ref(tc);
		return NULL;
	}
	return tc;
}

bt_clock_class *bp_ir_cc(struct bp_ir *ir, const bt_clock_class *in)
{
	bt_clock_class *cc = hg_map_get(&ir->ccs, KEY(in));
	int64_t s;
	uint64_t cycles;

	if (cc || !(cc = bt_clock_class_create(ir->comp)))
		return cc;
	if (bt_clock_class_get_name(in))
		bt_clock_class_set_name(cc, bt_clock_class_get_name(in));
	if (bt_clock_class_get_description(in))
		bt_clock_class_set_description(cc, bt_clock_class_get_description(in));
	bt_clock_class_set_frequency(cc, bt_clock_class_get_frequency(in));
	bt_clock_class_get_offset(in, &s, &cycles);
	bt_clock_class_set_offset(cc, s, cycles);
	if (bp_mip_clock_class(cc, in) || hg_map_put(&ir->ccs, KEY(in), cc)) {
		bt_clock_class_put_ref(cc);
		return NULL;
	}
	return cc;
}

/* The context classes, copied; 0 or -1. */
static int bp_sc_contexts(bt_trace_class *tc, bt_stream_class *out,
			  const bt_stream_class *in)
{
	const bt_field_class *pc = bt_stream_class_borrow_packet_context_field_class_const(in);
	const bt_field_class *ec = bt_stream_class_borrow_event_common_context_field_class_const(in);
	bt_field_class *c;
	int st = 0;

	if (pc) {
		c = bp_class_copy(tc, pc, NULL);
		st |= !c || bt_stream_class_set_packet_context_field_class(out, c);
		bt_field_class_put_ref(c);
	}
	if (ec) {
		c = bp_class_copy(tc, ec, NULL);
		st |= !c || bt_stream_class_set_event_common_context_field_class(out, c);
		bt_field_class_put_ref(c);
	}
	return st ? -1 : 0;
}

static int bp_sc_props(struct bp_ir *ir, bt_stream_class *out,
		       const bt_stream_class *in)
{
	const bt_clock_class *cc = bt_stream_class_borrow_default_clock_class_const(in);

	if (bt_stream_class_get_name(in))
		bt_stream_class_set_name(out, bt_stream_class_get_name(in));
	if (cc && (!bp_ir_cc(ir, cc) ||
		   bt_stream_class_set_default_clock_class(out, bp_ir_cc(ir, cc))))
		return -1;
	bt_stream_class_set_assigns_automatic_stream_id(out, BT_FALSE);
	bt_stream_class_set_supports_packets(
		out, bt_stream_class_supports_packets(in),
		bt_stream_class_packets_have_beginning_default_clock_snapshot(in),
		bt_stream_class_packets_have_end_default_clock_snapshot(in));
	bt_stream_class_set_supports_discarded_events(
		out, bt_stream_class_supports_discarded_events(in),
		bt_stream_class_discarded_events_have_default_clock_snapshots(in));
	bt_stream_class_set_supports_discarded_packets(
		out, bt_stream_class_supports_discarded_packets(in),
		bt_stream_class_discarded_packets_have_default_clock_snapshots(in));
	return 0;
}

static void bp_sc_free(void *v)
{
	struct bp_sc *sc = v;

	for (int k = 0; k < DEC_KINDS; k++)
		bt_event_class_put_ref(sc->decoded[k]);
	bt_event_class_put_ref(sc->damaged);
	bt_stream_class_put_ref(sc->out);
	free(sc);
}

static struct bp_sc *bp_ir_sc(struct bp_ir *ir, const bt_stream_class *in)
{
	struct bp_sc *sc = hg_map_get(&ir->scs, KEY(in));
	bt_trace_class *tc;

	if (sc)
		return sc;
	tc = bp_ir_tc(ir, bt_stream_class_borrow_trace_class_const(in));
	if (!tc || !(sc = calloc(1, sizeof(*sc))))
		return NULL;
	sc->out = bt_stream_class_create_with_id(tc, bt_stream_class_get_id(in));
	if (!sc->out || bp_sc_props(ir, sc->out, in) ||
	    bp_sc_contexts(tc, sc->out, in) || hg_map_put(&ir->scs, KEY(in), sc)) {
		bp_sc_free(sc);
		return NULL;
	}
	return sc;
}

/* A class of `name` in sc with `payload` (a reference taken over). */
static bt_event_class *bp_ec_new(bt_stream_class *sc, const char *name,
				 bt_field_class *payload)
{
	bt_event_class *ec = payload ? bt_event_class_create(sc) : NULL;

	if (ec && (bt_event_class_set_name(ec, name) ||
		   bt_event_class_set_payload_field_class(ec, payload))) {
		bt_event_class_put_ref(ec);
		ec = NULL;
	}
	bt_field_class_put_ref(payload);
	return ec;
}

/* The input class copied: name, log level, EMF URI, context, payload. */
static bt_event_class *bp_ec_copy(bt_stream_class *sc, const bt_event_class *in)
{
	bt_trace_class *tc = bt_stream_class_borrow_trace_class(sc);
	const char *name = bt_event_class_get_name(in);
	const bt_field_class *p = bt_event_class_borrow_payload_field_class_const(in);
	const bt_field_class *ctx =
		bt_event_class_borrow_specific_context_field_class_const(in);
	bool ours = name && !strncmp(name, "hipgrain:", 9);
	bt_event_class *ec = bt_event_class_create(sc);
	bt_event_class_log_level lvl;
	bt_field_class *c;
	int st = !ec;

	if (!st && name)
		st |= bt_event_class_set_name(ec, name);
	if (!st && bt_event_class_get_log_level(in, &lvl) ==
			   BT_PROPERTY_AVAILABILITY_AVAILABLE)
		bt_event_class_set_log_level(ec, lvl);
	if (!st && bt_event_class_get_emf_uri(in))
		st |= bt_event_class_set_emf_uri(ec, bt_event_class_get_emf_uri(in));
	if (!st && ctx) {
		c = bp_class_copy(tc, ctx, NULL);
		st |= !c || bt_event_class_set_specific_context_field_class(ec, c);
		bt_field_class_put_ref(c);
	}
	if (!st && p) {
		c = bp_class_copy(tc, p, ours ? name : NULL);
		st |= !c || bt_event_class_set_payload_field_class(ec, c);
		bt_field_class_put_ref(c);
	}
	if (st) {
		bt_event_class_put_ref(ec);
		return NULL;
	}
	return ec;
}

static const char *const bp_decoded_names[DEC_KINDS] = {
	"hipgrain:alloc", "hipgrain:free", "hipgrain:launch", "hipgrain:memcpy",
	"hipgrain:memset"};

/* The decoded class of kind in sc, and the damaged one, made once. */
static int bp_ec_decoded(struct bp_sc *sc, int kind, struct bp_ec *e)
{
	bt_trace_class *tc = bt_stream_class_borrow_trace_class(sc->out);

	if (!sc->decoded[kind])
		sc->decoded[kind] = bp_ec_new(sc->out, bp_decoded_names[kind],
					      bp_decoded_class(tc, kind));
	if (!sc->damaged)
		sc->damaged = bp_ec_new(sc->out, "hipgrain:damaged",
					bp_damaged_class(tc));
	if (!sc->decoded[kind] || !sc->damaged)
		return -1;
	e->out = sc->decoded[kind];
	bt_event_class_get_ref(e->out);
	e->damaged = sc->damaged;
	return 0;
}

static void bp_ec_info(struct bp_ec *e, const bt_event_class *in)
{
	static const char *const head[BP_HD_FIELDS] = {
		"id", "api", "handle", "stream", "grid", "block", "shmem", "rc",
		"callsite", "device"};
	const bt_field_class *p = bt_event_class_borrow_payload_field_class_const(in);
	const bt_field_class *ctx = bt_stream_class_borrow_event_common_context_field_class_const(
		bt_event_class_borrow_stream_class_const(in));

	e->vpid = dec_member_index(ctx, "vpid");
	if (e->kind == BP_HEAD)
		for (int i = 0; i < BP_HD_FIELDS; i++)
			e->head[i] = dec_member_index(p, head[i]);
	else if (e->kind != BP_COPIED)
		dec_class_init(&e->dec, (enum dec_kind)e->kind, p);
}

static void bp_ec_free(void *v)
{
	struct bp_ec *e = v;

	bt_event_class_put_ref(e->out);
	free(e);
}

struct bp_ec *bp_ir_ec(struct bp_ir *ir, const bt_event_class *in)
{
	struct bp_ec *e = hg_map_get(&ir->ecs, KEY(in));
	struct bp_sc *sc;
	const char *name = bt_event_class_get_name(in);

	if (e)
		return e;
	sc = bp_ir_sc(ir, bt_event_class_borrow_stream_class_const(in));
	if (!sc || !(e = calloc(1, sizeof(*e))))
		return NULL;
	e->kind = dec_kind_of(name); /* BP_COPIED for any other */
	e->name = name;
	if (name && !strcmp(name, "hipgrain:head"))
		e->kind = BP_HEAD;
	bp_ec_info(e, in);
	/* A class of no form (no field this decoder knows) passes through. */
	if (e->kind >= 0 && e->kind < DEC_KINDS && e->dec.form == DEC_FORM_NONE)
		e->kind = BP_COPIED;
	if ((e->kind >= 0 && e->kind < DEC_KINDS) ? bp_ec_decoded(sc, e->kind, e)
						  : !(e->out = bp_ec_copy(sc->out, in))) {
		bp_ec_free(e);
		return NULL;
	}
	if (hg_map_put(&ir->ecs, KEY(in), e)) {
		bp_ec_free(e);
		return NULL;
	}
	return e;
}

static int bp_trace_env(bt_trace *out, const bt_trace *in)
{
	uint64_t n = bt_trace_get_environment_entry_count(in);

	for (uint64_t i = 0; i < n; i++) {
		const char *name;
		const bt_value *v;
		int st = 0;

		bt_trace_borrow_environment_entry_by_index_const(in, i, &name, &v);
		if (bt_value_is_signed_integer(v))
			st = bt_trace_set_environment_entry_integer(
				out, name, bt_value_integer_signed_get(v));
		else if (bt_value_is_string(v))
			st = bt_trace_set_environment_entry_string(
				out, name, bt_value_string_get(v));
		if (st)
			return -1;
	}
	return 0;
}

static bt_trace *bp_ir_trace(struct bp_ir *ir, const bt_trace *in)
{
	bt_trace *t = hg_map_get(&ir->traces, KEY(in));
	bt_trace_class *tc;

	if (t)
		return t;
	tc = bp_ir_tc(ir, bt_trace_borrow_class_const(in));
	if (!tc || !(t = bt_trace_create(tc)))
		return NULL;
	if ((bt_trace_get_name(in) && bt_trace_set_name(t, bt_trace_get_name(in))) ||
	    bp_trace_env(t, in) || bp_mip_trace_identity(t, in) ||
	    hg_map_put(&ir->traces, KEY(in), t)) {
		bt_trace_put_ref(t);
		return NULL;
	}
	return t;
}

bt_stream *bp_ir_stream(struct bp_ir *ir, const bt_stream *in)
{
	bt_stream *s = hg_map_get(&ir->streams, KEY(in));
	struct bp_sc *sc;
	bt_trace *t;

	if (s)
		return s;
	sc = bp_ir_sc(ir, bt_stream_borrow_class_const(in));
	t = bp_ir_trace(ir, bt_stream_borrow_trace_const(in));
	if (!sc || !t ||
	    !(s = bt_stream_create_with_id(sc->out, t, bt_stream_get_id(in))))
		return NULL;
	if ((bt_stream_get_name(in) && bt_stream_set_name(s, bt_stream_get_name(in))) ||
	    hg_map_put(&ir->streams, KEY(in), s)) {
		bt_stream_put_ref(s);
		return NULL;
	}
	return s;
}

void bp_ir_stream_end(struct bp_ir *ir, const bt_stream *in)
{
	bt_stream_put_ref(hg_map_del(&ir->streams, KEY(in)));
}

bt_packet *bp_ir_packet(struct bp_ir *ir, const bt_packet *in)
{
	bt_packet *p = hg_map_get(&ir->packets, KEY(in));
	bt_stream *s;
	const bt_field *ctx;

	if (p)
		return p;
	s = bp_ir_stream(ir, bt_packet_borrow_stream_const(in));
	if (!s || !(p = bt_packet_create(s)))
		return NULL;
	ctx = bt_packet_borrow_context_field_const(in);
	if ((ctx && bp_field_copy(ctx, bt_packet_borrow_context_field(p))) ||
	    hg_map_put(&ir->packets, KEY(in), p)) {
		bt_packet_put_ref(p);
		return NULL;
	}
	return p;
}

void bp_ir_packet_end(struct bp_ir *ir, const bt_packet *in)
{
	bt_packet_put_ref(hg_map_del(&ir->packets, KEY(in)));
}

static void bp_put_packet(void *v) { bt_packet_put_ref(v); }
static void bp_put_stream(void *v) { bt_stream_put_ref(v); }
static void bp_put_trace(void *v) { bt_trace_put_ref(v); }
static void bp_put_cc(void *v) { bt_clock_class_put_ref(v); }
static void bp_put_tc(void *v) { bt_trace_class_put_ref(v); }

void bp_ir_fini(struct bp_ir *ir)
{
	hg_map_clear(&ir->packets, bp_put_packet);
	hg_map_clear(&ir->streams, bp_put_stream);
	hg_map_clear(&ir->traces, bp_put_trace);
	hg_map_clear(&ir->ecs, bp_ec_free);
	hg_map_clear(&ir->scs, bp_sc_free);
	hg_map_clear(&ir->ccs, bp_put_cc);
	hg_map_clear(&ir->tcs, bp_put_tc);
}
