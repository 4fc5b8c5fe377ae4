/* SPDX-License-Identifier: MIT */
#include "an_map.h"

#include <errno.h>
#include <stdlib.h>

static char an_map_tomb_byte;
#define AN_TOMB ((void *)&an_map_tomb_byte)

static size_t an_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

static struct an_map_slot *an_find(const struct an_map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = an_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct an_map_slot *s = &m->slots[i];

		if (!s->val)
			return NULL;
		if (s->val != AN_TOMB && s->key == key)
			return s;
	}
}

void *an_map_get(const struct an_map *m, uint64_t key)
{
	struct an_map_slot *s = an_find(m, key);

	return s ? s->val : NULL;
}

static int an_grow(struct an_map *m)
{
	struct an_map old = *m;
	/* Doubles when mostly live; rehashes in place when mostly tombstones. */
	size_t cap = !m->cap ? 16 : m->live * 2 >= m->cap ? m->cap * 2 : m->cap;

	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->cap = cap;
	m->used = m->live = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].val && old.slots[i].val != AN_TOMB)
			an_map_add(m, old.slots[i].key, old.slots[i].val);
	free(old.slots);
	return 0;
}

int an_map_put(struct an_map *m, uint64_t key, void *val)
{
	struct an_map_slot *s = an_find(m, key);

	if (s) {
		s->val = val;
		return 0;
	}
	return an_map_add(m, key, val);
}

int an_map_add(struct an_map *m, uint64_t key, void *val)
{
	struct an_map_slot *s;

	if ((m->used + 1) * 4 > m->cap * 3 && an_grow(m))
		return -ENOMEM;
	for (size_t i = an_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		s = &m->slots[i];
		if (!s->val || s->val == AN_TOMB) {
			m->used += !s->val;
			m->live++;
			s->key = key;
			s->val = val;
			return 0;
		}
	}
}

void *an_map_del(struct an_map *m, uint64_t key)
{
	struct an_map_slot *s = an_find(m, key);
	void *val;

	if (!s)
		return NULL;
	val = s->val;
	s->val = AN_TOMB;
	m->live--;
	return val;
}

void an_map_each(const struct an_map *m, void (*fn)(void *val, void *arg),
		 void *arg)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].val && m->slots[i].val != AN_TOMB)
			fn(m->slots[i].val, arg);
}

void an_map_fini(struct an_map *m)
{
	free(m->slots);
	*m = (struct an_map){0};
}
