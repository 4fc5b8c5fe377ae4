/* SPDX-License-Identifier: MIT */
/* Event class → field positions, resolved by name once per class. */
#include <stdlib.h>
#include <string.h>

#include "an_map.h"
#include "an_schema.h"

static const struct {
	const char *name;
	const char *fields[AN_MAX_FIELDS];
} an_ev_desc[AN_EV_COUNT] = {
#define AN_X(k, n, ...) [AN_EV_##k] = {n, {__VA_ARGS__}},
	AN_EVENT_LIST(AN_X)
#undef AN_X
};

struct an_evcache {
	struct an_map map; /* event class pointer → struct an_evclass */
	const bt_event_class *last_key;
	const struct an_evclass *last;
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
	an_map_each(&c->map, an_free_val, NULL);
	an_map_fini(&c->map);
	free(c);
}

bool an_read_reference;

static int16_t an_member_index(const bt_field_class *fc, const char *name)
{
	uint64_t n;

	if (!fc || bt_field_class_get_type(fc) != BT_FIELD_CLASS_TYPE_STRUCTURE)
		return -1;
	n = bt_field_class_structure_get_member_count(fc);
	for (uint64_t i = 0; i < n && i < INT16_MAX; i++) {
		const bt_field_class_structure_member *m =
			bt_field_class_structure_borrow_member_by_index_const(fc, i);

		if (!strcmp(bt_field_class_structure_member_get_name(m), name))
			return (int16_t)i;
	}
	return -1;
}

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

static enum an_read an_read_of_class(const bt_field_class *fc)
{
	bt_field_class_type t = bt_field_class_get_type(fc);

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return AN_READ_SIGNED;
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return AN_READ_UNSIGNED;
	return AN_READ_OTHER;
}

/* How member i of the payload reads: an integer's own kind, an array's
 * elements' kind. */
static uint8_t an_read_of(const bt_field_class *payload, int16_t i)
{
	const bt_field_class *fc;

	if (i < 0)
		return AN_READ_OTHER;
	fc = bt_field_class_structure_member_borrow_field_class_const(
		bt_field_class_structure_borrow_member_by_index_const(
			payload, (uint64_t)i));
	if (!bt_field_class_type_is(bt_field_class_get_type(fc),
				    BT_FIELD_CLASS_TYPE_ARRAY))
		return (uint8_t)an_read_of_class(fc);
	fc = bt_field_class_array_borrow_element_field_class_const(fc);
	return (uint8_t)(AN_READ_ARRAY | an_read_of_class(fc));
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
	for (int i = 0; i < AN_MAX_FIELDS; i++) {
		const char *f = an_ev_desc[d->kind].fields[i];

		d->field[i] = f ? an_member_index(payload, f) : -1;
		d->read[i] = an_read_of(payload, d->field[i]);
	}
	d->ctx_vpid = an_member_index(ctx, "vpid");
	d->ctx_procname = an_member_index(ctx, "procname");
	d->ctx_vtid = an_member_index(ctx, "vtid");
	return d;
}

const struct an_evclass *an_evclass_of(struct an_evcache *c,
				       const bt_event_class *ec)
{
	struct an_evclass *d;

	if (ec == c->last_key)
		return c->last;
	d = an_map_get(&c->map, (uintptr_t)ec);
	if (!d) {
		d = an_describe(ec);
		if (!d || an_map_put(&c->map, (uintptr_t)ec, d)) {
			free(d);
			return NULL;
		}
	}
	c->last_key = ec;
	c->last = d;
	return d;
}

static const bt_field *an_member(const struct an_ev *e, int f)
{
	int16_t i = e->cls->field[f];

	return i < 0 ? NULL
		     : bt_field_structure_borrow_member_field_by_index_const(
			       e->payload, (uint64_t)i);
}

uint64_t an_field_int(const bt_field *m)
{
	bt_field_class_type t = bt_field_get_class_type(m);

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return (uint64_t)bt_field_integer_signed_get_value(m);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return bt_field_integer_unsigned_get_value(m);
	return 0;
}

uint64_t an_ev_u64(const struct an_ev *e, int f)
{
	const bt_field *m = an_member(e, f);

	if (!m)
		return 0;
	if (an_read_reference)
		return an_field_int(m);
	switch (e->cls->read[f]) { /* an array reads as 0, as in an_field_int */
	case AN_READ_UNSIGNED:
		return bt_field_integer_unsigned_get_value(m);
	case AN_READ_SIGNED:
		return (uint64_t)bt_field_integer_signed_get_value(m);
	default:
		return 0;
	}
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
		if (!(e->cls->read[f] & AN_READ_ARRAY))
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
	return an_field_int(bt_field_array_borrow_element_field_by_index_const(arr, i));
}

static uint8_t an_byte(const void *arr, uint64_t i)
{
	return (uint8_t)an_arr_u64(arr, i);
}

static uint8_t an_buf_byte(const void *buf, uint64_t i)
{
	return ((const uint8_t *)buf)[i];
}

/* The packed bytes into it->buf, each element read as the class says: two
 * library calls a byte, not five. */
static void an_words_fill(struct an_words *it, uint8_t read)
{
	if (an_read_reference || read != (AN_READ_ARRAY | AN_READ_UNSIGNED) ||
	    it->len > sizeof(it->buf))
		return;
	for (uint64_t i = 0; i < it->len; i++)
		it->buf[i] = (uint8_t)bt_field_integer_unsigned_get_value(
			bt_field_array_borrow_element_field_by_index_const(
				it->arr, i));
	it->bytes = it->buf;
}

bool an_words_open(const struct an_ev *e, int f_words,
		   const struct hg_shape *shape, struct an_words *it)
{
	int f = f_words + 2;

	it->shape = hg_shape_v5(shape);
	it->schema = 5;
	it->i = 0;
	it->bytes = NULL;
	it->arr = an_ev_arr(e, f, &it->len);
	if (!it->arr) {
		it->shape = shape;
		it->schema = 4;
		it->arr = an_ev_arr(e, --f, &it->len);
	}
	if (it->arr) {
		it->u = (struct hg_unpacker)HG_UNPACK_INIT(it->len);
		an_words_fill(it, e->cls->read[f]);
		return true;
	}
	it->shape = NULL;
	it->schema = 3;
	it->arr = an_ev_arr(e, f_words, &it->len);
	return it->arr != NULL;
}

bool an_words_open_as(const struct an_ev *e, int f, const struct hg_shape *shape,
		      unsigned schema, struct an_words *it)
{
	it->shape = shape;
	it->schema = schema;
	it->i = 0;
	it->bytes = NULL;
	it->arr = an_ev_arr(e, f, &it->len);
	if (!it->arr)
		return false;
	it->u = (struct hg_unpacker)HG_UNPACK_INIT(it->len);
	an_words_fill(it, e->cls->read[f]);
	return true;
}

bool an_words_next(struct an_words *it, uint64_t *w)
{
	if (it->shape && it->bytes)
		return hg_unpack_word(it->shape, &it->u, an_buf_byte, it->bytes,
				      w);
	if (it->shape)
		return hg_unpack_word(it->shape, &it->u, an_byte, it->arr, w);
	if (it->i >= it->len)
		return false;
	*w = an_arr_u64(it->arr, it->i++);
	return true;
}

unsigned an_ev_words(const struct an_ev *e, int f_words,
		     const struct hg_shape *shape, uint64_t *w, uint64_t n)
{
	struct an_words it;

	if (!an_words_open(e, f_words, shape, &it))
		return 0;
	for (uint64_t i = 0; i < n; i++)
		if (!an_words_next(&it, &w[i]))
			return 0;
	return it.schema;
}
