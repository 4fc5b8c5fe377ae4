/* SPDX-License-Identifier: MIT */
/* The output event's fields, in the order bp_types.c declares its
 * members. */
#include "bp_fill.h"

#include <stdlib.h>

#include "bp_copy.h"
#include "bp_types.h"

/* Member i of s, set to v (signed members take v's two's complement). */
static void bp_set(bt_field *s, uint64_t i, uint64_t v)
{
	bt_field *f = bt_field_structure_borrow_member_field_by_index(s, i);

	if (bt_field_class_type_is(bt_field_get_class_type(f),
				   BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		bt_field_integer_signed_set_value(f, (int64_t)v);
	else
		bt_field_integer_unsigned_set_value(f, v);
}

static void bp_set_all(bt_field *s, const uint64_t *v, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		bp_set(s, i, v[i]);
}

static void bp_fill_alloc(bt_field *s, const struct dec_alloc *a)
{
	const uint64_t v[] = {a->id, a->api, a->addr, a->size, a->flags,
			      a->mem, a->gran, (uint64_t)(int64_t)a->rc,
			      a->callsite, (uint64_t)(int64_t)a->device,
			      a->extra, a->lazy};

	bp_set_all(s, v, sizeof(v) / sizeof(v[0]));
}

static void bp_fill_free(bt_field *s, const struct dec_free *f)
{
	const uint64_t v[] = {f->id, f->api, f->addr, f->size,
			      (uint64_t)(int64_t)f->rc, f->alloc_api,
			      f->callsite};

	bp_set_all(s, v, sizeof(v) / sizeof(v[0]));
}

static void bp_fill_memcpy(bt_field *s, const struct dec_memcpy *m)
{
	const uint64_t v[] = {m->api, m->dst, m->src, m->size,
			      (uint64_t)(int64_t)m->kind, m->async, m->stream,
			      (uint64_t)(int64_t)m->rc, m->dst_id, m->src_id,
			      m->dst_mem, m->src_mem, m->callsite};

	bp_set_all(s, v, sizeof(v) / sizeof(v[0]));
}

static void bp_fill_memset(bt_field *s, const struct dec_memset *m)
{
	const uint64_t v[] = {m->api, m->dst, (uint64_t)(int64_t)m->value,
			      m->size, m->stream, (uint64_t)(int64_t)m->rc,
			      m->dst_id, m->dst_mem, m->callsite};

	bp_set_all(s, v, sizeof(v) / sizeof(v[0]));
}

static void bp_fill_dim3(bt_field *s, uint64_t i, const uint32_t d[3])
{
	bt_field *a = bt_field_structure_borrow_member_field_by_index(s, i);

	for (uint64_t k = 0; k < 3; k++)
		bt_field_integer_unsigned_set_value(
			bt_field_array_borrow_element_field_by_index(a, k), d[k]);
}

static int bp_fill_launch(bt_field *s, const struct bp_decoded *d)
{
	const struct dec_launch *l = &d->launch;
	bt_field *args;

	bp_set(s, 0, l->head_id);
	bp_set(s, 1, d->head_lost);
	bp_set(s, 2, l->api);
	bp_set(s, 3, l->handle);
	bp_set(s, 4, l->stream);
	bp_fill_dim3(s, 5, l->grid);
	bp_fill_dim3(s, 6, l->block);
	bp_set(s, 7, l->shmem);
	bp_set(s, 8, (uint64_t)(int64_t)l->rc);
	bp_set(s, 9, l->repeat);
	bp_set(s, 10, l->callsite);
	bp_set(s, 11, (uint64_t)(int64_t)l->device);
	args = bt_field_structure_borrow_member_field_by_index(s, 12);
	if (bt_field_array_dynamic_set_length(args, d->nargs))
		return -1;
	for (uint64_t i = 0; i < d->nargs; i++) {
		const struct dec_arg *a = &d->args[i];
		const uint64_t v[] = {a->index, a->value, a->id, a->offset,
				      a->mem, a->gran};

		bp_set_all(bt_field_array_borrow_element_field_by_index(args, i),
			   v, sizeof(v) / sizeof(v[0]));
	}
	return 0;
}

/* The packed field's bytes as damaged ones show them: a text's
 * characters, an array's elements cut to a byte each. */
static int bp_fill_raw(const struct bp_ec *e, const bt_field *b,
		       bt_field *out)
{
	const char *t = b && e->dec.text ? bt_field_string_get_value(b) : NULL;
	uint64_t n = t ? bt_field_string_get_length(b)
		     : b ? bt_field_array_get_length(b) : 0;

	if (bt_field_array_dynamic_set_length(out, n))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		bt_field_integer_unsigned_set_value(
			bt_field_array_borrow_element_field_by_index(out, i),
			t ? (uint8_t)t[i]
			  : (uint8_t)dec_field_int(
				    bt_field_array_borrow_element_field_by_index_const(
					    b, i)));
	return 0;
}

/* The damaged event: its class's name, why, and its packed bytes. */
static int bp_fill_damaged(const struct bp_ec *e, const bt_event *in,
			   const struct bp_decoded *d, bt_field *s)
{
	const bt_field *p = bt_event_borrow_payload_field_const(in);
	const bt_field *b = e->dec.field < 0 ? NULL
			    : bt_field_structure_borrow_member_field_by_index_const(
				      p, (uint64_t)e->dec.field);

	if (bt_field_string_set_value(bt_field_structure_borrow_member_field_by_index(s, 0),
				      e->name ? e->name : "") ||
	    bt_field_string_set_value(bt_field_structure_borrow_member_field_by_index(s, 1),
				      d->why))
		return -1;
	return bp_fill_raw(e, b, bt_field_structure_borrow_member_field_by_index(s, 2));
}

int bp_fill_event(const struct bp_ec *e, const bt_event *in,
		  const struct bp_decoded *d, bt_event *out)
{
	const bt_field *cc = bt_event_borrow_common_context_field_const(in);
	const bt_field *sc = bt_event_borrow_specific_context_field_const(in);
	const bt_field *p = bt_event_borrow_payload_field_const(in);
	bt_field *op = bt_event_borrow_payload_field(out);

	if (cc && bp_field_copy(cc, bt_event_borrow_common_context_field(out)))
		return -1;
	if (e->kind == BP_COPIED || e->kind == BP_HEAD)
		return (sc && bp_field_copy(sc, bt_event_borrow_specific_context_field(out))) ||
		       (p && bp_field_copy(p, op)) ? -1 : 0;
	if (d->err)
		return bp_fill_damaged(e, in, d, op);
	if (e->kind == DEC_ALLOC)
		bp_fill_alloc(op, &d->alloc);
	else if (e->kind == DEC_FREE)
		bp_fill_free(op, &d->free);
	else if (e->kind == DEC_MEMCPY)
		bp_fill_memcpy(op, &d->memcpy);
	else if (e->kind == DEC_MEMSET)
		bp_fill_memset(op, &d->memset);
	else
		return bp_fill_launch(op, d);
	return 0;
}
