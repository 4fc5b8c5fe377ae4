/* SPDX-License-Identifier: MIT */
/* A minimal msgpack reader over hg_cursor (what AMDHSA metadata uses). */
#ifndef CO_MSGPACK_H
#define CO_MSGPACK_H

#include "co_int.h"

enum mp_type { MP_BAD = 0, MP_NIL, MP_BOOL, MP_INT, MP_FLOAT, MP_STR, MP_BIN,
	       MP_ARRAY, MP_MAP, MP_EXT };

struct mp_val {
	enum mp_type t;
	int64_t i;       /* MP_INT, MP_BOOL */
	uint32_t n;      /* MP_STR/BIN/EXT bytes, MP_ARRAY items, MP_MAP pairs */
	const char *s;   /* MP_STR/BIN/EXT bytes (already consumed) */
};

/* Reads one value's head; strings are consumed whole, containers' items
 * follow.  MP_BAD on truncation or a reserved byte. */
CO_HIDDEN struct mp_val mp_read(struct hg_cursor *c);
/* Skips one whole value; false when malformed or nested deeper than 64. */
CO_HIDDEN bool mp_skip(struct hg_cursor *c, int depth);
CO_HIDDEN bool mp_str_is(const struct mp_val *v, const char *s);

#endif
