/* SPDX-License-Identifier: MIT */
/* Open addressing, linear probing, deletion by shifting back: no
 * tombstones, so a long run of messages never degrades the lookups. */
#include "bp_map.h"

#include <stdlib.h>

static uint64_t bp_slot(const struct bp_map *m, uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return key & (m->cap - 1);
}

static uint64_t bp_find(const struct bp_map *m, uint64_t key)
{
	uint64_t i = bp_slot(m, key);

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *bp_map_get(const struct bp_map *m, uint64_t key)
{
	return m->cap ? m->vals[bp_find(m, key)] : NULL;
}

static int bp_grow(struct bp_map *m)
{
	struct bp_map g = {.cap = m->cap ? m->cap * 2 : 64};

	g.keys = malloc(g.cap * sizeof(*g.keys));
	g.vals = calloc(g.cap, sizeof(*g.vals));
	if (!g.keys || !g.vals) {
		free(g.keys);
		free(g.vals);
		return -1;
	}
	for (uint64_t i = 0; i < m->cap; i++)
		if (m->vals[i]) {
			uint64_t j = bp_find(&g, m->keys[i]);

			g.keys[j] = m->keys[i];
			g.vals[j] = m->vals[i];
		}
	g.n = m->n;
	free(m->keys);
	free(m->vals);
	*m = g;
	return 0;
}

int bp_map_put(struct bp_map *m, uint64_t key, void *val)
{
	uint64_t i;

	if ((m->n + 1) * 2 > m->cap && bp_grow(m))
		return -1;
	i = bp_find(m, key);
	m->n += !m->vals[i];
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

void *bp_map_del(struct bp_map *m, uint64_t key)
{
	uint64_t i, j;
	void *val;

	if (!m->cap || !(val = m->vals[i = bp_find(m, key)]))
		return NULL;
	m->vals[i] = NULL;
	m->n--;
	/* Shift back what probed past the hole. */
	for (j = (i + 1) & (m->cap - 1); m->vals[j]; j = (j + 1) & (m->cap - 1)) {
		uint64_t h = bp_slot(m, m->keys[j]);

		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return val;
}

void bp_map_clear(struct bp_map *m, void (*fn)(void *val))
{
	for (uint64_t i = 0; fn && i < m->cap; i++)
		if (m->vals[i])
			fn(m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = (struct bp_map){0};
}
