/* SPDX-License-Identifier: MIT */
/*
 * Decoding one packed event: the packed forms leave out what the process
 * said before (a free's size, a launch's head, a pointer's block), so the
 * decoder completes them from its process's memory, and tells damaged
 * bytes, which the output says, from memory running out, which fails.
 */
#include "bp_event.h"

#include <stdlib.h>
#include <string.h>

#include "bp_copy.h"
#include "bp_types.h"

/* Not a dec_err: memory ran out, and the event is not damaged for it. */
#define BP_NOMEM (-100)

static int64_t bp_vpid(const struct bp_ec *e, const bt_event *in)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(in);

	if (!ctx || e->vpid < 0)
		return -1;
	return (int64_t)dec_field_int(
		bt_field_structure_borrow_member_field_by_index_const(
			ctx, (uint64_t)e->vpid));
}

static uint64_t bp_member_u64(const bt_field *p, int16_t i)
{
	return i < 0 ? 0
		     : dec_field_int(bt_field_structure_borrow_member_field_by_index_const(
			       p, (uint64_t)i));
}

/* A `head`'s three dimensions (its grid or block). */
static void bp_dim3(const bt_field *p, int16_t i, uint32_t out[3])
{
	const bt_field *a = i < 0 ? NULL
			       : bt_field_structure_borrow_member_field_by_index_const(
					 p, (uint64_t)i);

	if (!a || !bt_field_class_type_is(bt_field_get_class_type(a),
					  BT_FIELD_CLASS_TYPE_ARRAY))
		return;
	for (uint64_t k = 0; k < 3 && k < bt_field_array_get_length(a); k++)
		out[k] = (uint32_t)dec_field_int(
			bt_field_array_borrow_element_field_by_index_const(a, k));
}

static int bp_head(const struct bp_ec *e, const bt_field *p, struct bp_proc *proc)
{
	struct dec_launch h = {
		.head_id = bp_member_u64(p, e->head[BP_HD_ID]),
		.api = (uint8_t)bp_member_u64(p, e->head[BP_HD_API]),
		.handle = bp_member_u64(p, e->head[BP_HD_HANDLE]),
		.stream = bp_member_u64(p, e->head[BP_HD_STREAM]),
		.shmem = (uint32_t)bp_member_u64(p, e->head[BP_HD_SHMEM]),
		.rc = (int32_t)bp_member_u64(p, e->head[BP_HD_RC]),
		.callsite = bp_member_u64(p, e->head[BP_HD_CALLSITE]),
		.device = e->head[BP_HD_DEVICE] < 0
				  ? -1
				  : (int32_t)bp_member_u64(p, e->head[BP_HD_DEVICE]),
	};

	bp_dim3(p, e->head[BP_HD_GRID], h.grid);
	bp_dim3(p, e->head[BP_HD_BLOCK], h.block);
	return bp_proc_head(proc, &h);
}

/* The arguments into d->args; 0, a dec_err when they end damaged, or
 * BP_NOMEM. */
static int bp_args(struct bp_decoded *d, struct dec_args *it)
{
	struct dec_arg a;

	d->nargs = 0;
	while (dec_args_next(it, &a)) {
		if (d->nargs == d->cap) {
			uint64_t cap = d->cap ? d->cap * 2 : 16;
			struct dec_arg *g = realloc(d->args, cap * sizeof(*g));

			if (!g)
				return BP_NOMEM;
			d->args = g, d->cap = cap;
		}
		if (a.elided && d->proc) {
			struct bp_block b;

			/* Freed since, by another thread: a count written late. */
			if (bp_proc_block(d->proc, a.id, &b))
				a.value = b.addr + a.offset;
		}
		d->args[d->nargs++] = a;
	}
	return it->damaged ? DEC_E_DAMAGED : DEC_OK;
}

/* A launch's head from its process, when it refers to one. */
static void bp_launch_head(struct bp_decoded *d)
{
	const struct dec_launch *h =
		d->proc ? hg_map_get(&d->proc->heads, d->launch.head_id) : NULL;
	uint64_t id = d->launch.head_id;
	uint32_t repeat = d->launch.repeat;

	/* Its head event lost: an unknown kernel, which the launch says
	 * rather than pass its zeros for a kernel's. */
	d->head_lost = !h;
	if (!h)
		return;
	d->launch = *h;
	d->launch.head_id = id;
	d->launch.repeat = repeat;
}

static int bp_decode_kind(const struct bp_ec *e, const bt_field *p,
			  struct bp_decoded *d, unsigned *nw)
{
	struct dec_args it;
	int err;

	switch (e->kind) {
	case DEC_ALLOC:
		err = dec_bt_alloc(&e->dec, p, &d->alloc, nw);
		if (!err && !d->alloc.rc && d->alloc.id && d->proc &&
		    bp_proc_alloc(d->proc, d->alloc.id, d->alloc.addr, d->alloc.size))
			return BP_NOMEM;
		return err;
	case DEC_FREE:
		err = dec_bt_free(&e->dec, p, &d->free, nw);
		if (!err && d->free.elided && d->proc) {
			struct bp_block *b = hg_map_get(&d->proc->blocks, d->free.id);

			d->free.addr = b ? b->addr : 0;
			d->free.size = b ? b->size : 0;
		}
		if (!err && !d->free.rc && d->proc)
			bp_proc_free(d->proc, d->free.id);
		return err;
	case DEC_MEMCPY:
		return dec_bt_memcpy(&e->dec, p, &d->memcpy, nw);
	case DEC_MEMSET:
		return dec_bt_memset(&e->dec, p, &d->memset, nw);
	default:
		err = dec_bt_launch(&e->dec, p, &d->launch, &it, nw);
		if (err)
			return err;
		d->launch.device = -1; /* a head's to say */
		if (e->dec.form == DEC_FORM_REF)
			bp_launch_head(d);
		return bp_args(d, &it);
	}
}

bt_event_class *bp_event_decode(struct bp_procs *ps, const struct bp_ec *e,
				const bt_event *in, struct bp_decoded *d)
{
	const bt_field *p = bt_event_borrow_payload_field_const(in);
	unsigned nw = 0;

	d->err = DEC_OK;
	d->proc = NULL;
	d->head_lost = false;
	if (e->kind == BP_COPIED)
		return e->out;
	d->proc = bp_proc_get(ps, bt_stream_borrow_trace_const(bt_event_borrow_stream_const(in)),
			      bp_vpid(e, in));
	if (!d->proc || !p)
		return NULL;
	if (e->kind == BP_HEAD)
		return bp_head(e, p, d->proc) ? NULL : e->out;
	d->err = bp_decode_kind(e, p, d, &nw);
	if (!d->err)
		return e->out;
	if (d->err == BP_NOMEM) {
		d->err = DEC_OK;
		return NULL;
	}
	dec_err_text(d->err, (enum dec_kind)e->kind, nw, d->why, sizeof(d->why));
	return e->damaged;
}
