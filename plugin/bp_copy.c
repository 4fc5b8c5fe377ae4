/* SPDX-License-Identifier: MIT */
/*
 * Copies of what the filter does not decode: babeltrace2 lets a filter send
 * on only objects of its own trace class, so even an event that passes
 * unchanged needs its classes made again, and its values copied into them.
 */
#include "bp_copy.h"

#include "bp_mip.h"
#include "bp_types.h"

static bt_field_class *bp_int_copy(bt_trace_class *tc, const bt_field_class *fc)
{
	bt_field_class_type t = bt_field_class_get_type(fc);
	bool is_signed = bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER);
	bool is_enum = bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ENUMERATION);
	bt_field_class *out =
		is_enum ? (is_signed ? bt_field_class_enumeration_signed_create(tc)
				     : bt_field_class_enumeration_unsigned_create(tc))
			: (is_signed ? bt_field_class_integer_signed_create(tc)
				     : bt_field_class_integer_unsigned_create(tc));
	uint64_t n = is_enum ? bt_field_class_enumeration_get_mapping_count(fc) : 0;

	if (!out)
		return NULL;
	bt_field_class_integer_set_field_value_range(
		out, bt_field_class_integer_get_field_value_range(fc));
	bt_field_class_integer_set_preferred_display_base(
		out, bt_field_class_integer_get_preferred_display_base(fc));
	for (uint64_t i = 0; i < n; i++) {
		int st;

		if (is_signed) {
			const bt_field_class_enumeration_signed_mapping *m =
				bt_field_class_enumeration_signed_borrow_mapping_by_index_const(fc, i);

			st = bt_field_class_enumeration_signed_add_mapping(
				out,
				bt_field_class_enumeration_mapping_get_label(
					bt_field_class_enumeration_signed_mapping_as_mapping_const(m)),
				bt_field_class_enumeration_signed_mapping_borrow_ranges_const(m));
		} else {
			const bt_field_class_enumeration_unsigned_mapping *m =
				bt_field_class_enumeration_unsigned_borrow_mapping_by_index_const(fc, i);

			st = bt_field_class_enumeration_unsigned_add_mapping(
				out,
				bt_field_class_enumeration_mapping_get_label(
					bt_field_class_enumeration_unsigned_mapping_as_mapping_const(m)),
				bt_field_class_enumeration_unsigned_mapping_borrow_ranges_const(m));
		}
		if (st) {
			bt_field_class_put_ref(out);
			return NULL;
		}
	}
	return out;
}

static bt_field_class *bp_struct_copy(bt_trace_class *tc,
				      const bt_field_class *fc,
				      const char *event)
{
	bt_field_class *out = bt_field_class_structure_create(tc);
	uint64_t n = bt_field_class_structure_get_member_count(fc);

	for (uint64_t i = 0; out && i < n; i++) {
		const bt_field_class_structure_member *m =
			bt_field_class_structure_borrow_member_by_index_const(fc, i);
		const char *name = bt_field_class_structure_member_get_name(m);
		const bt_field_class *mfc =
			bt_field_class_structure_member_borrow_field_class_const(m);
		bt_field_class *c = event ? bp_code_class(tc, event, name, mfc)
					  : NULL;

		if (!c)
			c = bp_class_copy(tc, mfc, NULL);
		if (!c || bt_field_class_structure_append_member(out, name, c)) {
			bt_field_class_put_ref(out);
			out = NULL;
		}
		bt_field_class_put_ref(c);
	}
	return out;
}

static bt_field_class *bp_array_copy(bt_trace_class *tc,
				     const bt_field_class *fc)
{
	bt_field_class *el = bp_class_copy(
		tc, bt_field_class_array_borrow_element_field_class_const(fc), NULL);
	bt_field_class *out = NULL;

	/* A dynamic array's length, in CTF a field of its own, is not in
	 * the trace IR the source gives: the copy has none either. */
	if (el)
		out = bt_field_class_get_type(fc) == BT_FIELD_CLASS_TYPE_STATIC_ARRAY
			? bt_field_class_array_static_create(
				  tc, el, bt_field_class_array_static_get_length(fc))
			: bp_mip_dynamic_array(tc, el);
	bt_field_class_put_ref(el);
	return out;
}

static bt_field_class *bp_variant_copy(bt_trace_class *tc,
				       const bt_field_class *fc)
{
	bt_field_class *out = bp_mip_variant(tc);
	uint64_t n = bt_field_class_variant_get_option_count(fc);

	for (uint64_t i = 0; out && i < n; i++) {
		const bt_field_class_variant_option *o =
			bt_field_class_variant_borrow_option_by_index_const(fc, i);
		bt_field_class *c = bp_class_copy(
			tc, bt_field_class_variant_option_borrow_field_class_const(o),
			NULL);

		if (!c || bt_field_class_variant_without_selector_append_option(
				  out, bt_field_class_variant_option_get_name(o), c)) {
			bt_field_class_put_ref(out);
			out = NULL;
		}
		bt_field_class_put_ref(c);
	}
	return out;
}

bt_field_class *bp_class_copy(bt_trace_class *tc, const bt_field_class *fc,
			      const char *event)
{
	bt_field_class_type t = bt_field_class_get_type(fc);
	bt_field_class *c, *out;

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_INTEGER))
		return bp_int_copy(tc, fc);
	if (t == BT_FIELD_CLASS_TYPE_STRUCTURE)
		return bp_struct_copy(tc, fc, event);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY))
		return bp_array_copy(tc, fc);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_VARIANT))
		return bp_variant_copy(tc, fc);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_OPTION)) {
		c = bp_class_copy(tc, bt_field_class_option_borrow_field_class_const(fc),
				  NULL);
		out = c ? bp_mip_option(tc, c) : NULL;
		bt_field_class_put_ref(c);
		return out;
	}
	switch (t) {
	case BT_FIELD_CLASS_TYPE_STRING:
		return bt_field_class_string_create(tc);
	case BT_FIELD_CLASS_TYPE_BOOL:
		return bt_field_class_bool_create(tc);
	case BT_FIELD_CLASS_TYPE_BIT_ARRAY:
		out = bt_field_class_bit_array_create(
			tc, bt_field_class_bit_array_get_length(fc));
		if (out && bp_mip_bit_array_flags(out, fc)) {
			bt_field_class_put_ref(out);
			out = NULL;
		}
		return out;
	case BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL:
		return bt_field_class_real_single_precision_create(tc);
	case BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL:
		return bt_field_class_real_double_precision_create(tc);
	default:
		return bp_mip_class_copy(tc, fc);
	}
}

static int bp_compound_copy(const bt_field *in, bt_field *out,
			    bt_field_class_type t)
{
	uint64_t n;

	if (t == BT_FIELD_CLASS_TYPE_STRUCTURE) {
		n = bt_field_class_structure_get_member_count(
			bt_field_borrow_class_const(in));
		for (uint64_t i = 0; i < n; i++)
			if (bp_field_copy(
				    bt_field_structure_borrow_member_field_by_index_const(in, i),
				    bt_field_structure_borrow_member_field_by_index(out, i)))
				return -1;
		return 0;
	}
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
		n = bt_field_array_get_length(in);
		if (t != BT_FIELD_CLASS_TYPE_STATIC_ARRAY &&
		    bt_field_array_dynamic_set_length(out, n))
			return -1;
		for (uint64_t i = 0; i < n; i++)
			if (bp_field_copy(
				    bt_field_array_borrow_element_field_by_index_const(in, i),
				    bt_field_array_borrow_element_field_by_index(out, i)))
				return -1;
		return 0;
	}
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_VARIANT))
		return bt_field_variant_select_option_by_index(
			       out, bt_field_variant_get_selected_option_index(in)) ||
		       bp_field_copy(bt_field_variant_borrow_selected_option_field_const(in),
				     bt_field_variant_borrow_selected_option_field(out));
	/* an option */
	bt_field_option_set_has_field(out, bt_field_option_borrow_field_const(in) != NULL);
	return bt_field_option_borrow_field_const(in)
		       ? bp_field_copy(bt_field_option_borrow_field_const(in),
				       bt_field_option_borrow_field(out))
		       : 0;
}

int bp_field_copy(const bt_field *in, bt_field *out)
{
	bt_field_class_type t = bt_field_get_class_type(in);
	int st = bp_mip_field_copy(in, out);

	if (st <= 0)
		return st;
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		bt_field_integer_unsigned_set_value(
			out, bt_field_integer_unsigned_get_value(in));
	else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		bt_field_integer_signed_set_value(
			out, bt_field_integer_signed_get_value(in));
	else if (t == BT_FIELD_CLASS_TYPE_STRING)
		return bt_field_string_set_value(out, bt_field_string_get_value(in))
			       ? -1 : 0;
	else if (t == BT_FIELD_CLASS_TYPE_BOOL)
		bt_field_bool_set_value(out, bt_field_bool_get_value(in));
	else if (t == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
		bt_field_bit_array_set_value_as_integer(
			out, bt_field_bit_array_get_value_as_integer(in));
	else if (t == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)
		bt_field_real_single_precision_set_value(
			out, bt_field_real_single_precision_get_value(in));
	else if (t == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)
		bt_field_real_double_precision_set_value(
			out, bt_field_real_double_precision_get_value(in));
	else
		return bp_compound_copy(in, out, t);
	return 0;
}
