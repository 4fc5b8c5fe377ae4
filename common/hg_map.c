/* SPDX-License-Identifier: MIT */
#include "hg_map.h"

#include <errno.h>
#include <stdlib.h>

static char hg_map_deleted;
#define HG_MAP_DELETED ((void *)&hg_map_deleted)

static void *hg_map_alloc(const struct hg_map_mem *mem, size_t size)
{
	return mem ? mem->alloc(size) : calloc(1, size);
}

static void hg_map_release(const struct hg_map_mem *mem, void *p, size_t size)
{
	if (mem)
		mem->free(p, size);
	else
		free(p);
}

static size_t hg_map_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

static struct hg_map_slot *hg_map_find(const struct hg_map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = hg_map_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct hg_map_slot *s = &m->slots[i];

		if (!s->val)
			return NULL;
		if (s->val != HG_MAP_DELETED && s->key == key)
			return s;
	}
}

void *hg_map_get(const struct hg_map *m, uint64_t key)
{
	struct hg_map_slot *s = hg_map_find(m, key);

	return s ? s->val : NULL;
}

static int hg_map_grow(struct hg_map *m)
{
	struct hg_map old = *m;
	/* Doubles when mostly live; rehashes in place when mostly tombstones. */
	size_t cap = !m->cap ? 16 : m->live * 2 >= m->cap ? m->cap * 2 : m->cap;

	m->slots = hg_map_alloc(m->mem, cap * sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->cap = cap;
	m->used = m->live = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].val && old.slots[i].val != HG_MAP_DELETED)
			hg_map_add(m, old.slots[i].key, old.slots[i].val);
	hg_map_release(m->mem, old.slots, old.cap * sizeof(*old.slots));
	return 0;
}

int hg_map_put(struct hg_map *m, uint64_t key, void *val)
{
	struct hg_map_slot *s = hg_map_find(m, key);

	if (s) {
		s->val = val;
		return 0;
	}
	return hg_map_add(m, key, val);
}

int hg_map_add(struct hg_map *m, uint64_t key, void *val)
{
	struct hg_map_slot *s;

	if ((m->used + 1) * 4 > m->cap * 3 && hg_map_grow(m))
		return -ENOMEM;
	for (size_t i = hg_map_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		s = &m->slots[i];
		if (!s->val || s->val == HG_MAP_DELETED) {
			m->used += !s->val;
			m->live++;
			s->key = key;
			s->val = val;
			return 0;
		}
	}
}

void *hg_map_del(struct hg_map *m, uint64_t key)
{
	struct hg_map_slot *s = hg_map_find(m, key);
	void *val;

	if (!s)
		return NULL;
	val = s->val;
	s->val = HG_MAP_DELETED;
	m->live--;
	return val;
}

void hg_map_each(const struct hg_map *m, void (*fn)(void *val, void *arg),
		 void *arg)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].val && m->slots[i].val != HG_MAP_DELETED)
			fn(m->slots[i].val, arg);
}

void hg_map_del_if(struct hg_map *m, bool (*pred)(void *val, void *arg),
		   void *arg, void (*drop)(void *val))
{
	for (size_t i = 0; i < m->cap; i++) {
		struct hg_map_slot *s = &m->slots[i];

		if (!s->val || s->val == HG_MAP_DELETED || !pred(s->val, arg))
			continue;
		if (drop)
			drop(s->val);
		s->val = HG_MAP_DELETED;
		m->live--;
	}
}

void hg_map_fini(struct hg_map *m)
{
	hg_map_release(m->mem, m->slots, m->cap * sizeof(*m->slots));
	*m = (struct hg_map){.mem = m->mem};
}

void hg_map_clear(struct hg_map *m, void (*drop)(void *val))
{
	for (size_t i = 0; drop && i < m->cap; i++)
		if (m->slots[i].val && m->slots[i].val != HG_MAP_DELETED)
			drop(m->slots[i].val);
	hg_map_fini(m);
}
