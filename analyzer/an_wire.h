/* SPDX-License-Identifier: MIT */
/*
 * The bytes of a trace's result (an_result.h): unsigned numbers as LEB128,
 * signed ones zig-zagged first, strings as their length + 1 (0: none) and
 * their bytes.  Reading checks every length against what is left, so a
 * damaged or hostile summary reads as `bad`, never past its end.
 */
#ifndef AN_WIRE_H
#define AN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_wbuf {
	uint8_t *p;
	size_t n, cap;
	bool failed; /* out of memory: the bytes are incomplete */
};

void an_w_bytes(struct an_wbuf *b, const void *v, size_t n);
void an_w_u64(struct an_wbuf *b, uint64_t v);
void an_w_i64(struct an_wbuf *b, int64_t v);
/* NULL and "" stay apart. */
void an_w_str(struct an_wbuf *b, const char *s);
void an_wbuf_free(struct an_wbuf *b);

struct an_rbuf {
	const uint8_t *p, *end;
	bool bad; /* ran past the end or met a malformed number */
};

uint64_t an_r_u64(struct an_rbuf *r);
int64_t an_r_i64(struct an_rbuf *r);
/* A number that must be below lim (a count, an index); lim on damage. */
uint64_t an_r_below(struct an_rbuf *r, uint64_t lim);
/* A string of its own (NULL when none was written, or on damage). */
char *an_r_str(struct an_rbuf *r);
/* A string into a fixed buffer, cut to fit. */
void an_r_chars(struct an_rbuf *r, char *buf, size_t cap);
const uint8_t *an_r_bytes(struct an_rbuf *r, size_t n);

#endif
