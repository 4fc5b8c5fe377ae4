/* SPDX-License-Identifier: MIT */
/*
 * The values of an alloc, a free, a memcpy, a memset or a launch, from whatever holds their
 * elements (a babeltrace2 field, a buffer): the one place that undoes the
 * packing of every schema (hg_pack.h, hg_events.h).  No babeltrace2 here,
 * so the fuzzer and unit tests call it on plain bytes.
 */
#ifndef DEC_PACK_H
#define DEC_PACK_H

#include <stdbool.h>
#include <stdint.h>

#include "dec_schema.h"
#include "hg_pack.h"

/* Element i of a sequence of len (bytes, or words of DEC_FORM_WORDS and
 * ARGS).  `bytes`, when set, copies n elements from i as bytes in one
 * call: a packed form's bytes are unpacked from memory, and a call an
 * element would cost more than the unpacking. */
struct dec_src {
	uint64_t (*elem)(const void *ctx, uint64_t i);
	void (*bytes)(const void *ctx, uint64_t i, uint64_t n, uint8_t *out);
	const void *ctx;
	uint64_t len;
};

struct dec_alloc {
	uint64_t id, addr, size, extra, callsite;
	uint32_t flags;
	int32_t rc, device;
	uint8_t api, mem, gran, lazy;
};

struct dec_free {
	uint64_t id, addr, size, callsite;
	int32_t rc;
	uint8_t api, alloc_api;
	bool elided; /* addr and size are those of the alloc of id (0 here) */
};

struct dec_memcpy {
	uint64_t dst, src, size, dst_id, src_id, stream, callsite;
	int32_t kind, rc;
	uint8_t api, dst_mem, src_mem, async;
};

struct dec_memset {
	uint64_t dst, size, dst_id, stream, callsite;
	int32_t value, rc;
	uint8_t api, dst_mem;
};

/* What a launch's head declares, and the launch's repeat. */
struct dec_launch {
	uint64_t head_id; /* DEC_FORM_REF: the `head` event's number */
	uint64_t handle, stream;
	uint32_t grid[3], block[3], shmem, repeat;
	int32_t rc;
	uint8_t api;
	/* From the head only (filter.hipgrain.decode): where it launched,
	 * and its GPU, -1 when the head did not say. */
	uint64_t callsite;
	int32_t device;
};

struct dec_arg {
	uint64_t value, id, offset;
	uint16_t index;
	uint8_t mem, gran;
	bool elided; /* value is the alloc of id's addr plus offset (0 here) */
};

/* The bytes of a packed form held at once: every fixed-size event's, and
 * a longer sequence's a window at a time. */
#define DEC_WINDOW 64

/* The words of one event, one at a time: cut from the values of the
 * bytes when they were all in the window and ended cleanly, else read
 * from the bytes a word at a time (which says where damage stops them). */
struct dec_words {
	struct dec_src src;
	const struct hg_shape *shape; /* NULL: the elements are the words */
	bool whole;		      /* every value in vals */
	unsigned nv, at;	      /* the values, and the next one */
	struct hg_unpacker u;	      /* over win, when not whole */
	uint64_t i;		      /* the next element of src to read */
	uint8_t win[DEC_WINDOW + 8];  /* and the 8 the unpacker may load */
	uint64_t vals[2 * DEC_WINDOW];
};

/* A launch's arguments, one at a time. */
struct dec_args {
	enum dec_form form;
	struct dec_words w;
	struct dec_src seq[6]; /* DEC_FORM_SEQS: index, value, id, offset,
				* mem, gran */
	uint64_t i, n;
	unsigned next; /* the index after the last argument's (pack, ref) */
	bool damaged;  /* stopped before the end */
	/* A launch's bytes decoded from its text (dec_bt.c) when they fit:
	 * the source the words are read from, as long as they are. */
	uint8_t text[DEC_WINDOW];
};

/*
 * Errors are negative: the values end before the event's do, or a length
 * or a value is out of range, or the text that holds the bytes is no
 * record's (dec_err_text says which, and where).
 */
enum dec_err {
	DEC_OK = 0, DEC_E_SHORT = -1, DEC_E_DAMAGED = -2, DEC_E_TEXT = -3
};

/* The words of a packed form (WORDS, BYTES, PACK) into a record; with
 * *nwords the words read whole. */
int dec_alloc_unpack(const struct dec_src *s, enum dec_form form,
		     struct dec_alloc *a, unsigned *nwords);
int dec_free_unpack(const struct dec_src *s, enum dec_form form,
		    struct dec_free *f, unsigned *nwords);
int dec_memcpy_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_memcpy *m, unsigned *nwords);
int dec_memset_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_memset *m, unsigned *nwords);
/* A launch's head (WORDS, BYTES, PACK) or number and repeat (REF), then
 * `args` opened on its arguments. */
int dec_launch_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_launch *l, struct dec_args *args,
		      unsigned *nwords);
/* schema 2's `args`: four words an argument. */
void dec_args_open_words(struct dec_args *it, const struct dec_src *s);
/* schema 1's six sequences, read to the shortest one's length. */
void dec_args_open_seqs(struct dec_args *it, const struct dec_src seq[6]);
/* The next argument; false at the end or at damage (it->damaged). */
bool dec_args_next(struct dec_args *it, struct dec_arg *a);

/* "N of M words" or the like, for an error of an event of `kind`; for
 * DEC_E_TEXT, nwords is the character where the text goes wrong. */
void dec_err_text(int err, enum dec_kind kind, unsigned nwords,
		  char *buf, unsigned cap);

#endif
