/* SPDX-License-Identifier: MIT */
/*
 * The packed events of a babeltrace2 trace: which form an event class
 * holds (dec_schema.h's table, resolved once per class), and its values
 * read from an event's payload through dec_pack.h.  The analyzer's replay
 * and the `hipgrain` babeltrace2 plugin both read through here.
 */
#ifndef DEC_BT_H
#define DEC_BT_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stdint.h>

#include "dec_pack.h"

struct dec_class {
	enum dec_kind kind;
	enum dec_form form; /* DEC_FORM_NONE: nothing to read */
	unsigned schema;    /* the first schema that wrote this form */
	int16_t field;	    /* the member of the packed values, or -1 */
	bool signed_elems;  /* its elements are not unsigned integers */
	bool quad_elems;    /* its elements are 32-bit: four bytes each */
	bool text;	    /* it is a string of hg_text.h's text */
	int16_t named[DEC_NAMED_MAX]; /* members of dec_named[kind], or -1 */
};

/* The form of an event class of `kind` whose payload is `payload`. */
void dec_class_init(struct dec_class *dc, enum dec_kind kind,
		    const bt_field_class *payload);

/* The index of the structure member `name`, or -1. */
int16_t dec_member_index(const bt_field_class *fc, const char *name);

/* How a member's value is read, known from its class: an integer's kind,
 * or an array's (DEC_READ_ARRAY) with its elements' kind. */
enum dec_read {
	DEC_READ_OTHER,
	DEC_READ_UNSIGNED,
	DEC_READ_SIGNED,
	DEC_READ_KIND = 3,
	DEC_READ_ARRAY = 4,
};

/* enum dec_read bits of member i of structure class fc (-1: none). */
uint8_t dec_member_read(const bt_field_class *fc, int16_t i);

/* Any integer field's value (its two's complement if signed). */
uint64_t dec_field_int(const bt_field *f);

/*
 * One event's values (payload: its payload structure).  0, or a negative
 * enum dec_err with the record zeroed and *nwords the words read whole
 * (dec_err_text).  A class of no form reads as zeros, DEC_OK.
 */
int dec_bt_alloc(const struct dec_class *dc, const bt_field *payload,
		 struct dec_alloc *a, unsigned *nwords);
int dec_bt_free(const struct dec_class *dc, const bt_field *payload,
		struct dec_free *f, unsigned *nwords);
int dec_bt_memcpy(const struct dec_class *dc, const bt_field *payload,
		  struct dec_memcpy *m, unsigned *nwords);
int dec_bt_memset(const struct dec_class *dc, const bt_field *payload,
		  struct dec_memset *m, unsigned *nwords);
/* A launch's head (for DEC_FORM_REF: its number and repeat) and `args`
 * opened on its arguments. */
int dec_bt_launch(const struct dec_class *dc, const bt_field *payload,
		  struct dec_launch *l, struct dec_args *args,
		  unsigned *nwords);

#endif
