/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "an_span.h"

/* The first range that starts at or after lo. */
static size_t an_spans_first(const struct an_spans *s, uint64_t lo)
{
	size_t a = 0, b = s->n;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (s->v[m].lo < lo)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

int an_spans_add(struct an_spans *s, uint64_t lo, uint64_t hi, void *val)
{
	size_t i;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct an_span *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	i = an_spans_first(s, lo);
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(s->v[0]));
	s->v[i] = (struct an_span){lo, hi, val};
	s->n++;
	if (hi - lo > s->widest)
		s->widest = hi - lo;
	return 0;
}

bool an_spans_del(struct an_spans *s, uint64_t lo, const void *val)
{
	for (size_t i = an_spans_first(s, lo); i < s->n && s->v[i].lo == lo;
	     i++) {
		if (s->v[i].val != val)
			continue;
		memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(s->v[0]));
		s->n--;
		return true;
	}
	return false;
}

void an_spans_each(const struct an_spans *s, uint64_t lo, uint64_t hi,
		   bool (*fn)(const struct an_span *r, void *arg), void *arg)
{
	uint64_t from = lo > s->widest ? lo - s->widest : 0;

	for (size_t i = an_spans_first(s, from); i < s->n && s->v[i].lo < hi;
	     i++)
		if (s->v[i].hi > lo && !fn(&s->v[i], arg))
			return;
}

void an_spans_fini(struct an_spans *s)
{
	free(s->v);
	*s = (struct an_spans){0};
}
