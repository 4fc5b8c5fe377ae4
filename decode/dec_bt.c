/* SPDX-License-Identifier: MIT */
#include "dec_bt.h"

#include <string.h>

#include "hg_text.h"

int16_t dec_member_index(const bt_field_class *fc, const char *name)
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

uint64_t dec_field_int(const bt_field *f)
{
	bt_field_class_type t = bt_field_get_class_type(f);

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return (uint64_t)bt_field_integer_signed_get_value(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return bt_field_integer_unsigned_get_value(f);
	return 0;
}

static enum dec_read dec_read_of(const bt_field_class *fc)
{
	bt_field_class_type t = bt_field_class_get_type(fc);

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return DEC_READ_SIGNED;
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return DEC_READ_UNSIGNED;
	return DEC_READ_OTHER;
}

uint8_t dec_member_read(const bt_field_class *fc, int16_t i)
{
	const bt_field_class *m;

	if (i < 0)
		return DEC_READ_OTHER;
	m = bt_field_class_structure_member_borrow_field_class_const(
		bt_field_class_structure_borrow_member_by_index_const(
			fc, (uint64_t)i));
	if (!bt_field_class_type_is(bt_field_class_get_type(m),
				    BT_FIELD_CLASS_TYPE_ARRAY))
		return (uint8_t)dec_read_of(m);
	m = bt_field_class_array_borrow_element_field_class_const(m);
	return (uint8_t)(DEC_READ_ARRAY | dec_read_of(m));
}

/* The width of the elements of array member i of structure class fc. */
static uint64_t dec_elem_bits(const bt_field_class *fc, int16_t i)
{
	const bt_field_class *m =
		bt_field_class_structure_member_borrow_field_class_const(
			bt_field_class_structure_borrow_member_by_index_const(
				fc, (uint64_t)i));

	m = bt_field_class_array_borrow_element_field_class_const(m);
	return bt_field_class_integer_get_field_value_range(m);
}

/* Whether member i, read as rd, is a packed form's field: a string for
 * text, else an array of integers. */
static bool dec_packed_class(const bt_field_class *payload, int16_t i,
			     const struct dec_layout *l, enum dec_kind kind,
			     uint8_t rd)
{
	const bt_field_class *m;

	if (l->kind[kind].form == DEC_FORM_NAMED)
		return true;
	if (!l->text)
		return (rd & DEC_READ_ARRAY) && (rd & DEC_READ_KIND);
	m = bt_field_class_structure_member_borrow_field_class_const(
		bt_field_class_structure_borrow_member_by_index_const(
			payload, (uint64_t)i));
	return bt_field_class_get_type(m) == BT_FIELD_CLASS_TYPE_STRING;
}

void dec_class_init(struct dec_class *dc, enum dec_kind kind,
		    const bt_field_class *payload)
{
	*dc = (struct dec_class){.kind = kind, .field = -1};
	for (int i = 0; i < DEC_NAMED_MAX; i++) {
		const char *n = dec_named[kind][i];

		dc->named[i] = n ? dec_member_index(payload, n) : -1;
	}
	/* Newest first: a class that has a newer form's field is that form. */
	for (unsigned r = dec_nlayouts; r-- > 0;) {
		const struct dec_layout *l = &dec_layouts[r];
		int16_t i = dec_member_index(payload, l->kind[kind].field);
		uint8_t rd = dec_member_read(payload, i);

		if (i < 0 || !dec_packed_class(payload, i, l, kind, rd))
			continue;
		if (!l->text && l->elem_bits &&
		    ((rd & DEC_READ_KIND) != DEC_READ_UNSIGNED ||
		     dec_elem_bits(payload, i) != l->elem_bits))
			continue;
		dc->form = l->kind[kind].form;
		dc->schema = l->schema;
		dc->field = i;
		dc->signed_elems = !l->text &&
				   (rd & DEC_READ_KIND) != DEC_READ_UNSIGNED;
		dc->quad_elems = l->elem_bits == 32;
		dc->text = l->text;
		return;
	}
}

static const bt_field *dec_member(const bt_field *payload, int16_t i)
{
	return i < 0 ? NULL
		     : bt_field_structure_borrow_member_field_by_index_const(
			       payload, (uint64_t)i);
}

static uint64_t dec_elem_u(const void *ctx, uint64_t i)
{
	return bt_field_integer_unsigned_get_value(
		bt_field_array_borrow_element_field_by_index_const(ctx, i));
}

static inline uint8_t dec_byte_u(const void *ctx, uint64_t i)
{
	return (uint8_t)bt_field_integer_unsigned_get_value(
		bt_field_array_borrow_element_field_by_index_const(ctx, i));
}

/* The unsigned bytes of a packed form, copied out in one loop, four at a
 * time: the two calls an element are all the element costs. */
static void dec_bytes_u(const void *ctx, uint64_t i, uint64_t n, uint8_t *out)
{
	for (; n >= 4; n -= 4, i += 4, out += 4) {
		out[0] = dec_byte_u(ctx, i);
		out[1] = dec_byte_u(ctx, i + 1);
		out[2] = dec_byte_u(ctx, i + 2);
		out[3] = dec_byte_u(ctx, i + 3);
	}
	for (; n; n--)
		*out++ = dec_byte_u(ctx, i++);
}

/* Schema 7's bytes, four an element, in the order of their little-endian
 * load (hg_pack.h): byte i of the record, and n of them from i. */
static uint64_t dec_elem_q(const void *ctx, uint64_t i)
{
	return (uint8_t)(dec_elem_u(ctx, i >> 2) >> (i & 3) * 8);
}

static void dec_bytes_q(const void *ctx, uint64_t i, uint64_t n, uint8_t *out)
{
	for (; n && (i & 3); n--)
		*out++ = (uint8_t)dec_elem_q(ctx, i++);
	for (; n >= 4; n -= 4, i += 4, out += 4) {
		uint32_t v = (uint32_t)dec_elem_u(ctx, i >> 2);

		memcpy(out, &v, 4);
	}
	for (; n; n--)
		*out++ = (uint8_t)dec_elem_q(ctx, i++);
}

static uint64_t dec_elem_any(const void *ctx, uint64_t i)
{
	return dec_field_int(
		bt_field_array_borrow_element_field_by_index_const(ctx, i));
}

/* An array member as a source; empty if absent or not an array. */
static struct dec_src dec_array(const bt_field *payload, int16_t i, bool uns)
{
	const bt_field *f = dec_member(payload, i);

	if (!f || !bt_field_class_type_is(bt_field_get_class_type(f),
					  BT_FIELD_CLASS_TYPE_ARRAY))
		return (struct dec_src){dec_elem_any, NULL, NULL, 0};
	return (struct dec_src){uns ? dec_elem_u : dec_elem_any,
				uns ? dec_bytes_u : NULL, f,
				bt_field_array_get_length(f)};
}

/* Schema 9's bytes from their text, checked whole first (dec_text); the
 * text ends at its NUL. */
static void dec_bytes_t(const void *ctx, uint64_t i, uint64_t n, uint8_t *out)
{
	hg_text_decode_at(ctx, strlen(ctx), i, n, out);
}

static uint64_t dec_elem_t(const void *ctx, uint64_t i)
{
	uint8_t b;

	dec_bytes_t(ctx, i, 1, &b);
	return b;
}

/* A text's bytes decoded whole, DEC_WINDOW at most, as a source. */
static uint64_t dec_elem_b(const void *ctx, uint64_t i)
{
	return ((const uint8_t *)ctx)[i];
}

static void dec_bytes_b(const void *ctx, uint64_t i, uint64_t n, uint8_t *out)
{
	memcpy(out, (const uint8_t *)ctx + i, n);
}

/*
 * The packed member as text: a source of its bytes, or DEC_E_TEXT with *at
 * the character where it goes wrong (and an empty source).  Bytes that
 * fit buf (DEC_WINDOW, the usual record) are decoded into it, checked as
 * they are; longer ones are checked first and decoded as they are read.
 */
static int dec_text(const bt_field *f, uint8_t *buf, struct dec_src *s,
		    unsigned *at)
{
	const char *t = bt_field_string_get_value(f);
	uint64_t tlen = bt_field_string_get_length(f);
	ptrdiff_t n = hg_text_size(tlen);
	size_t bad;

	*s = (struct dec_src){dec_elem_t, dec_bytes_t, t, 0};
	if (n >= 0 && n <= DEC_WINDOW && hg_text_decode(t, tlen, buf) == n) {
		*s = (struct dec_src){dec_elem_b, dec_bytes_b, buf, (uint64_t)n};
		return DEC_OK;
	}
	if (hg_text_check(t, tlen, &bad)) {
		*at = (unsigned)bad;
		return DEC_E_TEXT;
	}
	s->len = (uint64_t)n;
	return DEC_OK;
}

/* The packed member is an array, its class checked once
 * (dec_class_init). */
static struct dec_src dec_packed(const struct dec_class *dc,
				 const bt_field *payload)
{
	const bt_field *f = dec_member(payload, dc->field);
	bool uns = !dc->signed_elems;

	if (dc->quad_elems)
		return (struct dec_src){dec_elem_q, dec_bytes_q, f,
					4 * bt_field_array_get_length(f)};
	return (struct dec_src){uns ? dec_elem_u : dec_elem_any,
				uns ? dec_bytes_u : NULL, f,
				bt_field_array_get_length(f)};
}

/* The packed member as a source: its text's bytes (in buf, DEC_WINDOW,
 * when they fit), or its elements.  A text that is no record's is an
 * empty source, which unpacks as a record of zeros and a launch of no
 * argument, and DEC_E_TEXT with *at. */
static int dec_source(const struct dec_class *dc, const bt_field *payload,
		      uint8_t *buf, struct dec_src *s, unsigned *at)
{
	if (dc->text)
		return dec_text(dec_member(payload, dc->field), buf, s, at);
	*s = dec_packed(dc, payload);
	return DEC_OK;
}

/* A text's fault, and where it is, in place of the empty source's. */
static int dec_text_fault(unsigned *nwords, unsigned at)
{
	if (nwords)
		*nwords = at;
	return DEC_E_TEXT;
}

static uint64_t dec_named_u64(const struct dec_class *dc,
			      const bt_field *payload, int n)
{
	const bt_field *f = dec_member(payload, dc->named[n]);

	return f ? dec_field_int(f) : 0;
}

#define DEC_N(n) dec_named_u64(dc, payload, n)

/* A packed form's record of a fixed size (alloc, free, memcpy, memset)
 * into out, of the kind's dec_pack.h record type. */
static int dec_bt_record(const struct dec_class *dc, const bt_field *payload,
			 enum dec_kind kind, void *out, unsigned *nwords)
{
	struct dec_src s;
	uint8_t buf[DEC_WINDOW];
	unsigned at = 0;
	int bad = dec_source(dc, payload, buf, &s, &at);
	int rc = kind == DEC_ALLOC    ? dec_alloc_unpack(&s, dc->form, out, nwords)
		 : kind == DEC_FREE   ? dec_free_unpack(&s, dc->form, out, nwords)
		 : kind == DEC_MEMCPY ? dec_memcpy_unpack(&s, dc->form, out, nwords)
				      : dec_memset_unpack(&s, dc->form, out, nwords);

	return bad ? dec_text_fault(nwords, at) : rc;
}

int dec_bt_alloc(const struct dec_class *dc, const bt_field *payload,
		 struct dec_alloc *a, unsigned *nwords)
{
	if (dc->form >= DEC_FORM_WORDS)
		return dec_bt_record(dc, payload, DEC_ALLOC, a, nwords);
	*a = (struct dec_alloc){
		.id = DEC_N(DEC_NA_ID), .addr = DEC_N(DEC_NA_ADDR),
		.size = DEC_N(DEC_NA_SIZE), .extra = DEC_N(DEC_NA_EXTRA),
		.callsite = DEC_N(DEC_NA_CALLSITE),
		.flags = (uint32_t)DEC_N(DEC_NA_FLAGS),
		.rc = (int32_t)DEC_N(DEC_NA_RC),
		.device = (int32_t)DEC_N(DEC_NA_DEVICE),
		.api = (uint8_t)DEC_N(DEC_NA_API),
		.mem = (uint8_t)DEC_N(DEC_NA_MEM),
		.gran = (uint8_t)DEC_N(DEC_NA_GRAN),
		.lazy = (uint8_t)DEC_N(DEC_NA_LAZY),
	};
	return DEC_OK;
}

int dec_bt_free(const struct dec_class *dc, const bt_field *payload,
		struct dec_free *f, unsigned *nwords)
{
	if (dc->form >= DEC_FORM_WORDS)
		return dec_bt_record(dc, payload, DEC_FREE, f, nwords);
	*f = (struct dec_free){
		.id = DEC_N(DEC_NF_ID), .addr = DEC_N(DEC_NF_ADDR),
		.size = DEC_N(DEC_NF_SIZE), .callsite = DEC_N(DEC_NF_CALLSITE),
		.rc = (int32_t)DEC_N(DEC_NF_RC),
		.api = (uint8_t)DEC_N(DEC_NF_API),
		.alloc_api = (uint8_t)DEC_N(DEC_NF_ALLOC_API),
	};
	return DEC_OK;
}

int dec_bt_memcpy(const struct dec_class *dc, const bt_field *payload,
		  struct dec_memcpy *m, unsigned *nwords)
{
	if (dc->form >= DEC_FORM_WORDS)
		return dec_bt_record(dc, payload, DEC_MEMCPY, m, nwords);
	*m = (struct dec_memcpy){
		.dst = DEC_N(DEC_NM_DST), .src = DEC_N(DEC_NM_SRC),
		.size = DEC_N(DEC_NM_SIZE), .dst_id = DEC_N(DEC_NM_DST_ID),
		.src_id = DEC_N(DEC_NM_SRC_ID), .stream = DEC_N(DEC_NM_STREAM),
		.callsite = DEC_N(DEC_NM_CALLSITE),
		.kind = (int32_t)DEC_N(DEC_NM_KIND),
		.rc = (int32_t)DEC_N(DEC_NM_RC),
		.api = (uint8_t)DEC_N(DEC_NM_API),
		.dst_mem = (uint8_t)DEC_N(DEC_NM_DST_MEM),
		.src_mem = (uint8_t)DEC_N(DEC_NM_SRC_MEM),
		.async = (uint8_t)DEC_N(DEC_NM_ASYNC),
	};
	return DEC_OK;
}

int dec_bt_memset(const struct dec_class *dc, const bt_field *payload,
		  struct dec_memset *m, unsigned *nwords)
{
	if (dc->form >= DEC_FORM_WORDS)
		return dec_bt_record(dc, payload, DEC_MEMSET, m, nwords);
	*m = (struct dec_memset){
		.dst = DEC_N(DEC_NS_DST), .size = DEC_N(DEC_NS_SIZE),
		.dst_id = DEC_N(DEC_NS_DST_ID), .stream = DEC_N(DEC_NS_STREAM),
		.callsite = DEC_N(DEC_NS_CALLSITE),
		.value = (int32_t)DEC_N(DEC_NS_VALUE),
		.rc = (int32_t)DEC_N(DEC_NS_RC),
		.api = (uint8_t)DEC_N(DEC_NS_API),
		.dst_mem = (uint8_t)DEC_N(DEC_NS_DST_MEM),
	};
	return DEC_OK;
}

/* Three elements of a named array (grid, block), as many as it has. */
static void dec_dim3(const struct dec_class *dc, const bt_field *payload,
		     int n, uint32_t out[3])
{
	struct dec_src s = dec_array(payload, dc->named[n], false);

	for (uint64_t i = 0; i < 3 && i < s.len; i++)
		out[i] = (uint32_t)s.elem(s.ctx, i);
}

int dec_bt_launch(const struct dec_class *dc, const bt_field *payload,
		  struct dec_launch *l, struct dec_args *args,
		  unsigned *nwords)
{
	if (dc->form >= DEC_FORM_WORDS) {
		struct dec_src s;
		unsigned at = 0;
		int bad = dec_source(dc, payload, args->text, &s, &at);
		int rc = dec_launch_unpack(&s, dc->form, l, args, nwords);

		return bad ? dec_text_fault(nwords, at) : rc;
	}
	*l = (struct dec_launch){
		.handle = DEC_N(DEC_NL_HANDLE), .stream = DEC_N(DEC_NL_STREAM),
		.shmem = (uint32_t)DEC_N(DEC_NL_SHMEM),
		.repeat = (uint32_t)DEC_N(DEC_NL_REPEAT),
		.rc = (int32_t)DEC_N(DEC_NL_RC),
		.api = (uint8_t)DEC_N(DEC_NL_API),
	};
	dec_dim3(dc, payload, DEC_NL_GRID, l->grid);
	dec_dim3(dc, payload, DEC_NL_BLOCK, l->block);
	if (dc->form == DEC_FORM_ARGS) {
		struct dec_src s = dec_array(payload, dc->field, false);

		dec_args_open_words(args, &s);
	} else {
		struct dec_src seq[6];

		for (int i = 0; i < 6; i++)
			seq[i] = dec_array(payload,
					   dc->named[DEC_NL_ARG_INDEX + i],
					   false);
		dec_args_open_seqs(args, seq);
	}
	return DEC_OK;
}
