/* SPDX-License-Identifier: MIT */
/*
 * The two message interchange protocols in one place, so the rest of the
 * filter makes its classes one way and stays buildable against
 * babeltrace2 2.0's headers.
 */
#include "bp_mip.h"

#include <string.h>

uint64_t bp_mip_max(void)
{
#ifdef HG_BT2_MIP1
	return 1;
#else
	return 0;
#endif
}

uint64_t bp_mip_of(const bt_trace_class *tc)
{
#ifdef HG_BT2_MIP1
	return bt_trace_class_get_graph_mip_version(tc);
#else
	return 0;
#endif
}

bt_field_class *bp_mip_dynamic_array(bt_trace_class *tc, bt_field_class *el)
{
#ifdef HG_BT2_MIP1
	if (bp_mip_of(tc) >= 1)
		return bt_field_class_array_dynamic_without_length_field_location_create(
			tc, el);
#endif
	return bt_field_class_array_dynamic_create(tc, el, NULL);
}

bt_field_class *bp_mip_option(bt_trace_class *tc, bt_field_class *c)
{
#ifdef HG_BT2_MIP1
	if (bp_mip_of(tc) >= 1)
		return bt_field_class_option_without_selector_field_location_create(
			tc, c);
#endif
	return bt_field_class_option_without_selector_create(tc, c);
}

bt_field_class *bp_mip_variant(bt_trace_class *tc)
{
#ifdef HG_BT2_MIP1
	if (bp_mip_of(tc) >= 1)
		return bt_field_class_variant_without_selector_field_location_create(tc);
#endif
	return bt_field_class_variant_create(tc, NULL);
}

bt_field_class *bp_mip_class_copy(bt_trace_class *tc, const bt_field_class *in)
{
#ifdef HG_BT2_MIP1
	bt_field_class_type t = bt_field_class_get_type(in);
	bt_field_class *out;

	if (!bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_BLOB))
		return NULL;
	out = t == BT_FIELD_CLASS_TYPE_STATIC_BLOB
		? bt_field_class_blob_static_create(
			  tc, bt_field_class_blob_static_get_length(in))
		: bt_field_class_blob_dynamic_without_length_field_location_create(tc);
	if (out && bt_field_class_blob_get_media_type(in) &&
	    bt_field_class_blob_set_media_type(out, bt_field_class_blob_get_media_type(in))) {
		bt_field_class_put_ref(out);
		out = NULL;
	}
	return out;
#else
	return NULL;
#endif
}

int bp_mip_bit_array_flags(bt_field_class *out, const bt_field_class *in)
{
#ifdef HG_BT2_MIP1
	uint64_t n = bt_field_class_get_graph_mip_version(in) >= 1
		? bt_field_class_bit_array_get_flag_count(in) : 0;

	for (uint64_t i = 0; i < n; i++) {
		const bt_field_class_bit_array_flag *f =
			bt_field_class_bit_array_borrow_flag_by_index_const(in, i);

		if (bt_field_class_bit_array_add_flag(
			    out, bt_field_class_bit_array_flag_get_label(f),
			    bt_field_class_bit_array_flag_borrow_index_ranges_const(f)))
			return -1;
	}
#endif
	return 0;
}

int bp_mip_field_copy(const bt_field *in, bt_field *out)
{
#ifdef HG_BT2_MIP1
	bt_field_class_type t = bt_field_get_class_type(in);
	uint64_t n;

	if (!bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_BLOB))
		return 1;
	n = bt_field_blob_get_length(in);
	if (t != BT_FIELD_CLASS_TYPE_STATIC_BLOB &&
	    bt_field_blob_dynamic_set_length(out, n))
		return -1;
	if (n)
		memcpy(bt_field_blob_get_data(out), bt_field_blob_get_data_const(in), n);
	return 0;
#else
	return 1;
#endif
}

int bp_mip_clock_class(bt_clock_class *out, const bt_clock_class *in)
{
#ifdef HG_BT2_MIP1
	if (bt_clock_class_get_graph_mip_version(in) >= 1) {
		uint64_t v;
		const char *s;

		if (bt_clock_class_get_opt_precision(in, &v) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE)
			bt_clock_class_set_precision(out, v);
		if (bt_clock_class_get_accuracy(in, &v) ==
		    BT_PROPERTY_AVAILABILITY_AVAILABLE)
			bt_clock_class_set_accuracy(out, v);
		if (!bt_clock_class_origin_is_known(in))
			bt_clock_class_set_origin_unknown(out);
		else if (bt_clock_class_origin_is_unix_epoch(in))
			bt_clock_class_set_origin_unix_epoch(out);
		else if (bt_clock_class_set_origin(
				 out, bt_clock_class_get_origin_namespace(in),
				 bt_clock_class_get_origin_name(in),
				 bt_clock_class_get_origin_uid(in)))
			return -1;
		if ((s = bt_clock_class_get_namespace(in)) &&
		    bt_clock_class_set_namespace(out, s))
			return -1;
		if ((s = bt_clock_class_get_uid(in)) && bt_clock_class_set_uid(out, s))
			return -1;
		return 0;
	}
#endif
	bt_clock_class_set_precision(out, bt_clock_class_get_precision(in));
	bt_clock_class_set_origin_is_unix_epoch(
		out, bt_clock_class_origin_is_unix_epoch(in));
	if (bt_clock_class_get_uuid(in))
		bt_clock_class_set_uuid(out, bt_clock_class_get_uuid(in));
	return 0;
}

int bp_mip_trace_identity(bt_trace *out, const bt_trace *in)
{
#ifdef HG_BT2_MIP1
	if (bp_mip_of(bt_trace_borrow_class_const(in)) >= 1) {
		const char *s;

		if ((s = bt_trace_get_namespace(in)) && bt_trace_set_namespace(out, s))
			return -1;
		if ((s = bt_trace_get_uid(in)) && bt_trace_set_uid(out, s))
			return -1;
		return 0;
	}
#endif
	if (bt_trace_get_uuid(in))
		bt_trace_set_uuid(out, bt_trace_get_uuid(in));
	return 0;
}
