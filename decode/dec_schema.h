/* SPDX-License-Identifier: MIT */
/*
 * Where each trace schema keeps the values of the events a program writes
 * by the thousand (alloc, free, launch): one row a schema, in one table
 * (dec_schema.c), so that a reader of any schema asks here and nowhere
 * else (a memcpy and a memset from schema 10).  hipgrain-events(7)'s WORDS section is
 * the prose of this table.
 */
#ifndef DEC_SCHEMA_H
#define DEC_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

/* The events whose values are packed, and the ones they refer to. */
enum dec_kind {
	DEC_ALLOC, DEC_FREE, DEC_LAUNCH, DEC_MEMCPY, DEC_MEMSET, DEC_KINDS
};

/* How an event's values are held. */
enum dec_form {
	DEC_FORM_NONE = 0, /* none of the fields below: nothing to read */
	DEC_FORM_NAMED,	   /* a field a value (the named lists below) */
	DEC_FORM_SEQS,	   /* a launch's arguments as six sequences */
	DEC_FORM_ARGS,	   /* a launch's arguments as 64-bit words, four each */
	DEC_FORM_WORDS,	   /* every value as 64-bit words (hg_events.h) */
	DEC_FORM_BYTES,	   /* the words as bytes (hg_pack.h) */
	DEC_FORM_PACK,	   /* the bytes, usual values made zeros (hg_pack_v5_*) */
	DEC_FORM_REF,	   /* a launch's head number, repeat and arguments */
};

struct dec_layout {
	unsigned schema;
	unsigned elem_bits; /* the packed field's elements' width; 0: any */
	struct {
		enum dec_form form;
		const char *field; /* the field that tells this form */
	} kind[DEC_KINDS];
	bool text; /* the packed field is a string of hg_text.h's text */
};

/* Rows oldest first; dec_nlayouts of them. */
extern const struct dec_layout dec_layouts[];
extern const unsigned dec_nlayouts;

/* The named fields of DEC_FORM_NAMED, SEQS and ARGS (schemas 1 and 2; a
 * memcpy's and a memset's up to schema 9), by position: dec_named[kind][DEC_N_*]. */
enum dec_named_alloc {
	DEC_NA_ID, DEC_NA_API, DEC_NA_ADDR, DEC_NA_SIZE, DEC_NA_FLAGS,
	DEC_NA_MEM, DEC_NA_GRAN, DEC_NA_RC, DEC_NA_CALLSITE, DEC_NA_DEVICE,
	DEC_NA_EXTRA, DEC_NA_LAZY
};
enum dec_named_free {
	DEC_NF_ID, DEC_NF_API, DEC_NF_ADDR, DEC_NF_SIZE, DEC_NF_RC,
	DEC_NF_ALLOC_API, DEC_NF_CALLSITE
};
enum dec_named_launch {
	DEC_NL_API, DEC_NL_HANDLE, DEC_NL_STREAM, DEC_NL_GRID, DEC_NL_BLOCK,
	DEC_NL_SHMEM, DEC_NL_RC, DEC_NL_REPEAT, DEC_NL_ARGS,
	/* schema 1's sequences, one value of every argument each */
	DEC_NL_ARG_INDEX, DEC_NL_ARG_VALUE, DEC_NL_ARG_ID, DEC_NL_ARG_OFFSET,
	DEC_NL_ARG_MEM, DEC_NL_ARG_GRAN
};
enum dec_named_memcpy {
	DEC_NM_API, DEC_NM_DST, DEC_NM_SRC, DEC_NM_SIZE, DEC_NM_KIND,
	DEC_NM_ASYNC, DEC_NM_STREAM, DEC_NM_RC, DEC_NM_DST_ID, DEC_NM_SRC_ID,
	DEC_NM_DST_MEM, DEC_NM_SRC_MEM, DEC_NM_CALLSITE
};
enum dec_named_memset {
	DEC_NS_API, DEC_NS_DST, DEC_NS_VALUE, DEC_NS_SIZE, DEC_NS_STREAM,
	DEC_NS_RC, DEC_NS_DST_ID, DEC_NS_DST_MEM, DEC_NS_CALLSITE
};
#define DEC_NAMED_MAX 16

extern const char *const dec_named[DEC_KINDS][DEC_NAMED_MAX];

/* The kind of the event `name` ("hipgrain:alloc", or a size of it,
 * "hipgrain:alloc24"); -1 for any other. */
int dec_kind_of(const char *name);

#endif
