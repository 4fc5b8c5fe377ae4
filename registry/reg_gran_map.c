/* SPDX-License-Identifier: MIT */
#include "reg_gran_map.h"

#include <string.h>

#include "hg_events.h"

/* glibc's own entry points: the registry must not re-enter the hooks. */
extern void *__libc_malloc(size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

#define SMALL (sizeof(((struct reg_gran_map *)0)->small) / \
	       sizeof(struct reg_gran_point))

static bool reserve(struct reg_gran_map *m, uint32_t n)
{
	struct reg_gran_point *p;
	uint32_t cap = m->cap * 2;

	if (n <= m->cap)
		return true;
	while (cap < n)
		cap *= 2;
	if (m->p == m->small) {
		p = __libc_malloc(cap * sizeof(*p));
		if (p)
			memcpy(p, m->small, m->n * sizeof(*p));
	} else {
		p = __libc_realloc(m->p, cap * sizeof(*p));
	}
	if (!p)
		return false;
	m->p = p;
	m->cap = cap;
	return true;
}

void reg_gran_map_init(struct reg_gran_map *m, uint8_t gran)
{
	m->p = m->small;
	m->cap = SMALL;
	m->p[0] = (struct reg_gran_point){0, gran};
	m->n = 1;
}

void reg_gran_map_fini(struct reg_gran_map *m)
{
	if (m->p != m->small)
		__libc_free(m->p);
	m->p = NULL;
	m->n = m->cap = 0;
}

/* Index of the point that governs offset off. */
static uint32_t governing(const struct reg_gran_map *m, size_t off)
{
	uint32_t i = 0;

	while (i + 1 < m->n && m->p[i + 1].off <= off)
		i++;
	return i;
}

static bool split_at(struct reg_gran_map *m, size_t off)
{
	uint32_t i = governing(m, off);

	if (m->p[i].off == off)
		return true;
	if (!reserve(m, m->n + 1))
		return false;
	memmove(&m->p[i + 2], &m->p[i + 1], (m->n - i - 1) * sizeof(m->p[0]));
	m->p[i + 1] = (struct reg_gran_point){off, m->p[i].gran};
	m->n++;
	return true;
}

static void coalesce(struct reg_gran_map *m)
{
	uint32_t w = 1;

	for (uint32_t r = 1; r < m->n; r++)
		if (m->p[r].gran != m->p[w - 1].gran)
			m->p[w++] = m->p[r];
	m->n = w;
}

bool reg_gran_map_set(struct reg_gran_map *m, size_t lo, size_t hi, uint8_t gran)
{
	if (lo >= hi)
		return true;
	if (!split_at(m, lo) || !split_at(m, hi))
		return false;
	for (uint32_t i = governing(m, lo); i < m->n && m->p[i].off < hi; i++)
		m->p[i].gran = gran;
	coalesce(m);
	return true;
}

uint8_t reg_gran_map_over(const struct reg_gran_map *m, size_t lo, size_t hi)
{
	uint32_t i = governing(m, lo);
	uint8_t g = m->p[i].gran;

	for (i++; i < m->n && m->p[i].off < hi; i++)
		if (m->p[i].gran != g)
			return HG_GRAN_MIXED;
	return g;
}
