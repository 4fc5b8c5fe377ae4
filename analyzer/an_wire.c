/* SPDX-License-Identifier: MIT */
#include "an_wire.h"

#include <stdlib.h>
#include <string.h>

void an_w_bytes(struct an_wbuf *b, const void *v, size_t n)
{
	if (b->failed)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *p;

		while (cap < b->n + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, v, n);
	b->n += n;
}

void an_w_u64(struct an_wbuf *b, uint64_t v)
{
	uint8_t s[10];
	size_t n = 0;

	do {
		s[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		s[n++] |= v ? 0x80 : 0;
	} while (v);
	an_w_bytes(b, s, n);
}

void an_w_i64(struct an_wbuf *b, int64_t v)
{
	an_w_u64(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void an_w_str(struct an_wbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	an_w_u64(b, s ? n + 1 : 0);
	an_w_bytes(b, s, n);
}

void an_wbuf_free(struct an_wbuf *b)
{
	free(b->p);
	*b = (struct an_wbuf){0};
}

uint64_t an_r_u64(struct an_rbuf *r)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end) {
			r->bad = true;
			return 0;
		}
		uint8_t c = *r->p++;

		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

int64_t an_r_i64(struct an_rbuf *r)
{
	uint64_t v = an_r_u64(r);

	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

uint64_t an_r_below(struct an_rbuf *r, uint64_t lim)
{
	uint64_t v = an_r_u64(r);

	if (v >= lim) {
		r->bad = true;
		return lim;
	}
	return v;
}

const uint8_t *an_r_bytes(struct an_rbuf *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

char *an_r_str(struct an_rbuf *r)
{
	uint64_t n = an_r_u64(r);
	const uint8_t *p;
	char *s;

	if (!n || r->bad)
		return NULL;
	p = an_r_bytes(r, (size_t)(n - 1));
	if (!p || memchr(p, 0, (size_t)(n - 1))) {
		r->bad = true;
		return NULL;
	}
	s = malloc((size_t)n);
	if (!s) {
		r->bad = true;
		return NULL;
	}
	memcpy(s, p, (size_t)(n - 1));
	s[n - 1] = '\0';
	return s;
}

void an_r_chars(struct an_rbuf *r, char *buf, size_t cap)
{
	uint64_t n = an_r_u64(r);
	const uint8_t *p = n ? an_r_bytes(r, (size_t)(n - 1)) : NULL;
	size_t k = p ? (size_t)(n - 1) : 0;

	if (k >= cap)
		k = cap - 1;
	if (p && memchr(p, 0, k))
		r->bad = true;
	memcpy(buf, p ? (const void *)p : "", k);
	buf[k] = '\0';
}
