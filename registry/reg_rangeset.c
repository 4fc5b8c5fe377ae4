/* SPDX-License-Identifier: MIT */
#include "reg_rangeset.h"

#include <string.h>

#include "hg_os.h"

/* Index of the first range with base > p. */
static size_t upper_bound(const struct reg_rangeset *s, uintptr_t p)
{
	size_t lo = 0, hi = s->n;

	if (hi && s->v[hi - 1].base <= p)
		return hi; /* the newest range is often the highest */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool grow(struct reg_rangeset *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256;
	struct reg_range *v = hg_os_alloc(cap * sizeof(*v));

	if (!v)
		return false;
	if (s->n)
		memcpy(v, s->v, s->n * sizeof(*v));
	hg_os_free(s->v, s->cap * sizeof(*v));
	s->v = v;
	s->cap = cap;
	return true;
}

/* The moves are mostly of nothing: a loop's temporary is the newest
 * range, and often the highest. */
static void erase(struct reg_rangeset *s, size_t i)
{
	if (i + 1 < s->n)
		memmove(&s->v[i], &s->v[i + 1],
			(s->n - i - 1) * sizeof(s->v[0]));
	s->n--;
}

bool reg_rangeset_insert_locked(struct reg_rangeset *s, uintptr_t base,
				uintptr_t end, void *value, void (*drop)(void *))
{
	size_t i = upper_bound(s, base);

	/* Stale ranges that overlap: the memory was released behind our back
	 * (a free we could not see), so the new range wins. */
	while (i > 0 && s->v[i - 1].end > base) {
		if (drop)
			drop(s->v[i - 1].value);
		erase(s, --i);
	}
	while (i < s->n && s->v[i].base < end) {
		if (drop)
			drop(s->v[i].value);
		erase(s, i);
	}
	if (s->n == s->cap && !grow(s))
		return false;
	if (i < s->n)
		memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(s->v[0]));
	s->v[i] = (struct reg_range){base, end, value};
	s->n++;
	return true;
}

bool reg_rangeset_insert(struct reg_rangeset *s, uintptr_t base, uintptr_t end,
			 void *value, void (*drop)(void *))
{
	bool ok;

	hg_spin_lock(&s->lock);
	ok = reg_rangeset_insert_locked(s, base, end, value, drop);
	hg_spin_unlock(&s->lock);
	return ok;
}

bool reg_rangeset_remove_locked(struct reg_rangeset *s, uintptr_t base,
				void **value)
{
	size_t i = upper_bound(s, base);

	if (i == 0 || s->v[i - 1].base != base)
		return false;
	*value = s->v[i - 1].value;
	erase(s, i - 1);
	return true;
}

bool reg_rangeset_remove(struct reg_rangeset *s, uintptr_t base, void **value)
{
	bool found;

	hg_spin_lock(&s->lock);
	found = reg_rangeset_remove_locked(s, base, value);
	hg_spin_unlock(&s->lock);
	return found;
}

const struct reg_range *reg_rangeset_find_locked(const struct reg_rangeset *s,
						 uintptr_t p)
{
	size_t i = upper_bound(s, p);

	if (i > 0 && p < s->v[i - 1].end)
		return &s->v[i - 1];
	return NULL;
}

size_t reg_rangeset_count(struct reg_rangeset *s)
{
	size_t n;

	hg_spin_lock(&s->lock);
	n = s->n;
	hg_spin_unlock(&s->lock);
	return n;
}
