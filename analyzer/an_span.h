/* SPDX-License-Identifier: MIT */
/*
 * Address ranges, sorted by start, that may overlap: the driver's buffer
 * objects and, once a migration needs them by address, the live blocks.
 * A lookup costs a binary search and the ranges that reach the address.
 */
#ifndef AN_SPAN_H
#define AN_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_span {
	uint64_t lo, hi; /* [lo, hi) */
	void *val;
};

struct an_spans {
	struct an_span *v;
	size_t n, cap;
	uint64_t widest; /* the longest range ever added: how far back a
			  * range that reaches an address can start */
};

int an_spans_add(struct an_spans *s, uint64_t lo, uint64_t hi, void *val);
/* Removes the range [lo, ...) holding val; false if there is none. */
bool an_spans_del(struct an_spans *s, uint64_t lo, const void *val);
/* fn for every range that overlaps [lo, hi), by start; fn returns false to
 * stop. */
void an_spans_each(const struct an_spans *s, uint64_t lo, uint64_t hi,
		   bool (*fn)(const struct an_span *r, void *arg), void *arg);
void an_spans_fini(struct an_spans *s);

#endif
