/* SPDX-License-Identifier: MIT */
/*
 * What differs between the message interchange protocol's versions 0 and
 * 1 for the classes and objects the filter makes.  babeltrace2 2.1's ctf
 * source offers CTF 2 traces (LTTng 2.16) in MIP 1 only; 2.0 knows MIP 0
 * alone, and built against its headers (HG_BT2_MIP1 undefined) every
 * function here takes the MIP-0 way.
 */
#ifndef BP_MIP_H
#define BP_MIP_H

#include <babeltrace2/babeltrace.h>

/* The greatest MIP version the filter speaks. */
uint64_t bp_mip_max(void);

/* The graph's MIP version, as tc's classes must follow it. */
uint64_t bp_mip_of(const bt_trace_class *tc);

/* A dynamic array of el, or an option of c, with no length or selector
 * field (references to el and c are not taken over). */
bt_field_class *bp_mip_dynamic_array(bt_trace_class *tc, bt_field_class *el);
bt_field_class *bp_mip_option(bt_trace_class *tc, bt_field_class *c);
/* A variant with no selector field, no option yet. */
bt_field_class *bp_mip_variant(bt_trace_class *tc);

/* A copy of in when it is of a class only MIP 1 has (a blob); NULL for
 * any other, or on failure. */
bt_field_class *bp_mip_class_copy(bt_trace_class *tc, const bt_field_class *in);
/* in's bit array flags (MIP 1) onto out; 0 or -1. */
int bp_mip_bit_array_flags(bt_field_class *out, const bt_field_class *in);
/* A blob's value copied; 0 or -1, or 1 when in is no blob. */
int bp_mip_field_copy(const bt_field *in, bt_field *out);

/* in's precision, origin and identity onto out (its name aside); 0 or -1. */
int bp_mip_clock_class(bt_clock_class *out, const bt_clock_class *in);
/* in's identity (a UUID, or a namespace and UID) onto out; 0 or -1. */
int bp_mip_trace_identity(bt_trace *out, const bt_trace *in);

#endif
