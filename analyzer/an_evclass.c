/* SPDX-License-Identifier: MIT */
/* Event class → field positions, resolved by name once per class. */
#include <stdlib.h>
#include <string.h>

#include "hg_map.h"
#include "an_schema.h"

static const struct {
	const char *name;
	const char *fields[AN_MAX_FIELDS];
} an_ev_desc[AN_EV_COUNT] = {
#define AN_X(k, n, ...) [AN_EV_##k] = {n, {__VA_ARGS__}},
	AN_EVENT_LIST(AN_X)
#undef AN_X
};

/* The events whose values decode/ reads, whatever their schema; -1 for
 * the others. */
static int an_dec_kind(enum an_ev_kind k)
{
	switch (k) {
	case AN_EV_ALLOC: return DEC_ALLOC;
	case AN_EV_FREE: return DEC_FREE;
	case AN_EV_LAUNCH: return DEC_LAUNCH;
	case AN_EV_MEMCPY: return DEC_MEMCPY;
	case AN_EV_MEMSET: return DEC_MEMSET;
	default: return -1;
	}
}

#define AN_EVCACHE_HOT 64

struct an_evcache {
	struct hg_map map; /* event class pointer → struct an_evclass */
	/* A stream's events take turns among a few classes (alloc, launch,
	 * free): those are found here without the map, by their number in
	 * their stream class, distinct within a trace. */
	struct {
		const bt_event_class *key;
		const struct an_evclass *cls;
	} hot[AN_EVCACHE_HOT];
};

struct an_evcache *an_evcache_new(void)
{
	return calloc(1, sizeof(struct an_evcache));
}

static void an_free_val(void *val, void *arg)
{
	free(val);
}

void an_evcache_free(struct an_evcache *c)
{
	if (!c)
		return;
	hg_map_each(&c->map, an_free_val, NULL);
	hg_map_fini(&c->map);
	free(c);
}

bool an_read_reference;

/* The event `want`, or one of its sizes (launch24 is a launch written as
 * 24 bytes, hg_tp.h). */
static bool an_name_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	if (strncmp(name, want, n))
		return false;
	name += n;
	while (*name >= '0' && *name <= '9')
		name++;
	return !*name;
}

static struct an_evclass *an_describe(const bt_event_class *ec)
{
	struct an_evclass *d = calloc(1, sizeof(*d));
	const char *name = bt_event_class_get_name(ec);
	const bt_stream_class *sc = bt_event_class_borrow_stream_class_const(ec);
	const bt_field_class *payload =
		bt_event_class_borrow_payload_field_class_const(ec);
	const bt_field_class *ctx =
		bt_stream_class_borrow_event_common_context_field_class_const(sc);

	if (!d)
		return NULL;
	for (int k = 1; k < AN_EV_COUNT && name; k++)
		if (an_name_is(name, an_ev_desc[k].name))
			d->kind = (enum an_ev_kind)k;
	if (an_dec_kind(d->kind) >= 0)
		dec_class_init(&d->dec, (enum dec_kind)an_dec_kind(d->kind),
			       payload);
	for (int i = 0; i < AN_MAX_FIELDS; i++) {
		const char *f = an_ev_desc[d->kind].fields[i];

		d->field[i] = f ? dec_member_index(payload, f) : -1;
		d->read[i] = dec_member_read(payload, d->field[i]);
	}
	d->ctx_vpid = dec_member_index(ctx, "vpid");
	d->ctx_procname = dec_member_index(ctx, "procname");
	d->ctx_vtid = dec_member_index(ctx, "vtid");
	d->ctx_vpid_read = dec_member_read(ctx, d->ctx_vpid);
	d->ctx_vtid_read = dec_member_read(ctx, d->ctx_vtid);
	return d;
}

const struct an_evclass *an_evclass_of(struct an_evcache *c,
				       const bt_event_class *ec)
{
	size_t h = (size_t)(bt_event_class_get_id(ec) % AN_EVCACHE_HOT);
	struct an_evclass *d;

	if (c->hot[h].key == ec)
		return c->hot[h].cls;
	d = hg_map_get(&c->map, (uintptr_t)ec);
	if (!d) {
		d = an_describe(ec);
		if (!d || hg_map_put(&c->map, (uintptr_t)ec, d)) {
			free(d);
			return NULL;
		}
	}
	c->hot[h].key = ec;
	c->hot[h].cls = d;
	return d;
}

static const bt_field *an_member(const struct an_ev *e, int f)
{
	int16_t i = e->cls->field[f];

	return i < 0 ? NULL
		     : bt_field_structure_borrow_member_field_by_index_const(
			       e->payload, (uint64_t)i);
}

uint64_t an_field_int(const bt_field *f, uint8_t read)
{
	if (an_read_reference)
		return dec_field_int(f);
	switch (read) { /* an array reads as 0, as in dec_field_int */
	case DEC_READ_UNSIGNED:
		return bt_field_integer_unsigned_get_value(f);
	case DEC_READ_SIGNED:
		return (uint64_t)bt_field_integer_signed_get_value(f);
	default:
		return 0;
	}
}

uint64_t an_ev_u64(const struct an_ev *e, int f)
{
	const bt_field *m = an_member(e, f);

	return m ? an_field_int(m, e->cls->read[f]) : 0;
}

int64_t an_ev_i64(const struct an_ev *e, int f)
{
	return (int64_t)an_ev_u64(e, f);
}

const char *an_ev_str(const struct an_ev *e, int f)
{
	const bt_field *m = an_member(e, f);

	if (!m || bt_field_get_class_type(m) != BT_FIELD_CLASS_TYPE_STRING)
		return "";
	return bt_field_string_get_value(m);
}

const bt_field *an_ev_arr(const struct an_ev *e, int f, uint64_t *len)
{
	const bt_field *m = an_member(e, f);

	*len = 0;
	if (m && !an_read_reference) {
		if (!(e->cls->read[f] & DEC_READ_ARRAY))
			return NULL;
		*len = bt_field_array_get_length(m);
		return m;
	}
	if (!m || !bt_field_class_type_is(bt_field_get_class_type(m),
					  BT_FIELD_CLASS_TYPE_ARRAY))
		return NULL;
	*len = bt_field_array_get_length(m);
	return m;
}

uint64_t an_arr_u64(const bt_field *arr, uint64_t i)
{
	return dec_field_int(bt_field_array_borrow_element_field_by_index_const(arr, i));
}
