/* SPDX-License-Identifier: MIT */
/*
 * The decoded events' field classes: the codes hipgrain writes become
 * enumerations, so they read as names in any babeltrace2 tool, without
 * hipgrain's tables.
 */
#include "bp_types.h"

#include <string.h>

#include "bp_mip.h"
#include "hg_events.h"
#include "hg_hiperr.h"

struct bp_label {
	int64_t v;
	const char *name;
};

static const struct bp_label bp_apis[] = {
#define HG_X(v, id, name, cls) {v, name},
	HG_API_LIST(HG_X)
#undef HG_X
	{-1, NULL}};
static const struct bp_label bp_mems[] = {
#define HG_X(v, id, name) {v, name},
	HG_MEM_LIST(HG_X)
#undef HG_X
	{-1, NULL}};
static const struct bp_label bp_grans[] = {
#define HG_X(v, id, name) {v, name},
	HG_GRAN_LIST(HG_X)
#undef HG_X
	{-1, NULL}};
static const struct bp_label bp_status[] = {
#define HG_X(v, name) {v, name},
	HG_HIP_ERRORS(HG_X)
#undef HG_X
	{-1, NULL}};

/* HIP's own names for the codes its calls take (hipMemcpyKind,
 * hipMemoryAdvise), and hipgrain's for where a granularity came from
 * (enum hg_gran_source). */
static const struct bp_label bp_copy_kinds[] = {
	{0, "hipMemcpyHostToHost"}, {1, "hipMemcpyHostToDevice"},
	{2, "hipMemcpyDeviceToHost"}, {3, "hipMemcpyDeviceToDevice"},
	{4, "hipMemcpyDefault"}, {-1, NULL}};
static const struct bp_label bp_advice[] = {
	{1, "hipMemAdviseSetReadMostly"}, {2, "hipMemAdviseUnsetReadMostly"},
	{3, "hipMemAdviseSetPreferredLocation"},
	{4, "hipMemAdviseUnsetPreferredLocation"},
	{5, "hipMemAdviseSetAccessedBy"}, {6, "hipMemAdviseUnsetAccessedBy"},
	{100, "hipMemAdviseSetCoarseGrain"},
	{101, "hipMemAdviseUnsetCoarseGrain"}, {-1, NULL}};
static const struct bp_label bp_gran_sources[] = {
	{HG_GRAN_SRC_MODEL, "model"}, {HG_GRAN_SRC_ADVISE, "advise"},
	{HG_GRAN_SRC_QUERY, "query"}, {HG_GRAN_SRC_OMP_MAP, "omp_map"},
	{HG_GRAN_SRC_RUNTIME, "runtime"}, {HG_GRAN_SRC_HSA_CALL, "hsa_call"},
	{-1, NULL}};

/* An enumeration of `bits`, each label a single value. */
static bt_field_class *bp_enum(bt_trace_class *tc, const struct bp_label *l,
			       uint64_t bits, bool is_signed)
{
	bt_field_class *fc = is_signed
		? bt_field_class_enumeration_signed_create(tc)
		: bt_field_class_enumeration_unsigned_create(tc);

	if (!fc)
		return NULL;
	bt_field_class_integer_set_field_value_range(fc, bits);
	for (; l->name; l++) {
		int st;

		if (is_signed) {
			bt_integer_range_set_signed *r =
				bt_integer_range_set_signed_create();

			st = !r || bt_integer_range_set_signed_add_range(r, l->v, l->v) ||
			     bt_field_class_enumeration_signed_add_mapping(
				     fc, l->name, r);
			bt_integer_range_set_signed_put_ref(r);
		} else {
			bt_integer_range_set_unsigned *r =
				bt_integer_range_set_unsigned_create();

			st = !r || bt_integer_range_set_unsigned_add_range(
					   r, (uint64_t)l->v, (uint64_t)l->v) ||
			     bt_field_class_enumeration_unsigned_add_mapping(
				     fc, l->name, r);
			bt_integer_range_set_unsigned_put_ref(r);
		}
		if (st) {
			bt_field_class_put_ref(fc);
			return NULL;
		}
	}
	return fc;
}

bt_field_class *bp_code_class(bt_trace_class *tc, const char *event,
			      const char *member, const bt_field_class *in)
{
	bt_field_class_type t = bt_field_class_get_type(in);
	uint64_t bits;
	bool uns = t == BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER;

	if (!uns && t != BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)
		return NULL;
	bits = bt_field_class_integer_get_field_value_range(in);
	if (uns && (!strcmp(member, "api") || !strcmp(member, "alloc_api")))
		return bp_enum(tc, bp_apis, bits, false);
	if (uns && (!strcmp(member, "mem") || !strcmp(member, "dst_mem") ||
		    !strcmp(member, "src_mem") || !strcmp(member, "arg_mem")))
		return bp_enum(tc, bp_mems, bits, false);
	if (uns && (!strcmp(member, "gran") || !strcmp(member, "arg_gran")))
		return bp_enum(tc, bp_grans, bits, false);
	if (!uns && !strcmp(member, "kind") && !strcmp(event, "hipgrain:memcpy"))
		return bp_enum(tc, bp_copy_kinds, bits, true);
	if (!uns && !strcmp(member, "advice") && !strcmp(event, "hipgrain:advise"))
		return bp_enum(tc, bp_advice, bits, true);
	if (uns && !strcmp(member, "source") &&
	    !strcmp(event, "hipgrain:granularity"))
		return bp_enum(tc, bp_gran_sources, bits, false);
	/* The driver's events return negative errnos, not HIP's status. */
	if (!uns && !strcmp(member, "rc") && strncmp(event, "hipgrain:kfd_", 13))
		return bp_enum(tc, bp_status, bits, true);
	return NULL;
}

static bt_field_class *bp_int(bt_trace_class *tc, unsigned bits, bool hex,
			      bool is_signed)
{
	bt_field_class *fc = is_signed ? bt_field_class_integer_signed_create(tc)
				       : bt_field_class_integer_unsigned_create(tc);

	if (fc) {
		bt_field_class_integer_set_field_value_range(fc, bits);
		if (hex)
			bt_field_class_integer_set_preferred_display_base(
				fc, BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
	}
	return fc;
}

/* A member class, by the code its spec names. */
static bt_field_class *bp_member_class(bt_trace_class *tc, char code)
{
	switch (code) {
	case 'u': return bp_int(tc, 64, false, false);
	case 'x': return bp_int(tc, 64, true, false);
	case 'w': return bp_int(tc, 32, false, false);
	case 'h': return bp_int(tc, 32, true, false);
	case 'i': return bp_int(tc, 32, false, true);
	case 's': return bp_int(tc, 16, false, false);
	case 'b': return bp_int(tc, 8, false, false);
	case 'a': return bp_enum(tc, bp_apis, 8, false);
	case 'm': return bp_enum(tc, bp_mems, 8, false);
	case 'g': return bp_enum(tc, bp_grans, 8, false);
	case 'r': return bp_enum(tc, bp_status, 32, true);
	case 'k': return bp_enum(tc, bp_copy_kinds, 32, true);
	case 'S': return bt_field_class_string_create(tc);
	default: return NULL;
	}
}

struct bp_member {
	const char *name;
	char code; /* bp_member_class; '3' three 32-bit, '[' the arguments */
};

static const struct bp_member bp_alloc_members[] = {
	{"id", 'u'}, {"api", 'a'}, {"addr", 'x'}, {"size", 'u'},
	{"flags", 'h'}, {"mem", 'm'}, {"gran", 'g'}, {"rc", 'r'},
	{"callsite", 'u'}, {"device", 'i'}, {"extra", 'x'}, {"lazy", 'b'},
	{NULL, 0}};
static const struct bp_member bp_free_members[] = {
	{"id", 'u'}, {"api", 'a'}, {"addr", 'x'}, {"size", 'u'},
	{"rc", 'r'}, {"alloc_api", 'a'}, {"callsite", 'u'}, {NULL, 0}};
static const struct bp_member bp_memcpy_members[] = {
	{"api", 'a'}, {"dst", 'x'}, {"src", 'x'}, {"size", 'u'},
	{"kind", 'k'}, {"async", 'b'}, {"stream", 'x'}, {"rc", 'r'},
	{"dst_id", 'u'}, {"src_id", 'u'}, {"dst_mem", 'm'}, {"src_mem", 'm'},
	{"callsite", 'u'}, {NULL, 0}};
static const struct bp_member bp_memset_members[] = {
	{"api", 'a'}, {"dst", 'x'}, {"value", 'i'}, {"size", 'u'},
	{"stream", 'x'}, {"rc", 'r'}, {"dst_id", 'u'}, {"dst_mem", 'm'},
	{"callsite", 'u'}, {NULL, 0}};
static const struct bp_member bp_launch_members[] = {
	{"head", 'u'}, {"head_lost", 'b'}, {"api", 'a'}, {"handle", 'x'}, {"stream", 'x'},
	{"grid", '3'}, {"block", '3'}, {"shmem", 'w'}, {"rc", 'r'},
	{"repeat", 'w'}, {"callsite", 'u'}, {"device", 'i'}, {"args", '['},
	{NULL, 0}};
static const struct bp_member bp_arg_members[] = {
	{"index", 's'}, {"value", 'x'}, {"arg_id", 'u'}, {"offset", 'u'},
	{"arg_mem", 'm'}, {"arg_gran", 'g'}, {NULL, 0}};
static const struct bp_member bp_damaged_members[] = {
	{"class", 'S'}, {"error", 'S'}, {"bytes", '8'}, {NULL, 0}};

static bt_field_class *bp_struct(bt_trace_class *tc,
				 const struct bp_member *m);

static bt_field_class *bp_compound(bt_trace_class *tc, char code)
{
	bt_field_class *el = code == '3' ? bp_int(tc, 32, false, false)
			     : code == '8' ? bp_int(tc, 8, false, false)
					   : bp_struct(tc, bp_arg_members);
	bt_field_class *fc = !el ? NULL
			     : code == '3'
				     ? bt_field_class_array_static_create(tc, el, 3)
				     : bp_mip_dynamic_array(tc, el);

	bt_field_class_put_ref(el);
	return fc;
}

static bt_field_class *bp_struct(bt_trace_class *tc,
				 const struct bp_member *m)
{
	bt_field_class *s = bt_field_class_structure_create(tc);

	for (; s && m->name; m++) {
		bt_field_class *fc = strchr("38[", m->code)
					     ? bp_compound(tc, m->code)
					     : bp_member_class(tc, m->code);

		if (!fc || bt_field_class_structure_append_member(s, m->name, fc)) {
			bt_field_class_put_ref(fc);
			bt_field_class_put_ref(s);
			return NULL;
		}
		bt_field_class_put_ref(fc);
	}
	return s;
}

bt_field_class *bp_decoded_class(bt_trace_class *tc, enum dec_kind kind)
{
	static const struct bp_member *const members[DEC_KINDS] = {
		bp_alloc_members, bp_free_members, bp_launch_members,
		bp_memcpy_members, bp_memset_members};

	return bp_struct(tc, members[kind]);
}

bt_field_class *bp_damaged_class(bt_trace_class *tc)
{
	return bp_struct(tc, bp_damaged_members);
}
