/* SPDX-License-Identifier: MIT */
/*
 * A sorted array of disjoint ranges.  A runtime sets attributes on a few
 * ranges per allocation, so a linear walk under one lock is enough.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vg_ranges.h"

struct piece {
	uint64_t s, e;
	uint32_t old;
	int covered;
};

/* The pieces [s, e) is made of today, covered or not, in order. */
static size_t pieces(const struct vg_ranges *m, uint64_t s, uint64_t e,
		     struct piece *out, size_t cap)
{
	size_t n = 0;
	uint64_t at = s;
	for (size_t i = 0; i < m->n && at < e && n + 2 <= cap; i++) {
		const struct vg_range *r = &m->r[i];
		if (r->end <= at)
			continue;
		if (r->start >= e)
			break;
		if (r->start > at)
			out[n++] = (struct piece){ at, r->start, 0, 0 };
		uint64_t ps = r->start > at ? r->start : at;
		uint64_t pe = r->end < e ? r->end : e;
		out[n++] = (struct piece){ ps, pe, r->value, 1 };
		at = pe;
	}
	if (at < e && n < cap)
		out[n++] = (struct piece){ at, e, 0, 0 };
	return n;
}

static int reserve(struct vg_ranges *m, size_t more)
{
	if (m->n + more <= m->cap)
		return 0;
	size_t cap = m->cap ? m->cap * 2 : 64;
	while (cap < m->n + more)
		cap *= 2;
	struct vg_range *r = realloc(m->r, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	m->r = r;
	m->cap = cap;
	return 0;
}

/* Cut [s, e) out of every range, keeping what lies outside it. */
static void cut(struct vg_ranges *m, uint64_t s, uint64_t e)
{
	size_t k = 0;
	struct vg_range tail = { 0, 0, 0 };
	int have_tail = 0;
	for (size_t i = 0; i < m->n; i++) {
		struct vg_range r = m->r[i];
		if (r.end <= s || r.start >= e) {
			m->r[k++] = r;
			continue;
		}
		if (r.start < s)
			m->r[k++] = (struct vg_range){ r.start, s, r.value };
		if (r.end > e) {
			tail = (struct vg_range){ e, r.end, r.value };
			have_tail = 1;
		}
	}
	m->n = k;
	if (have_tail) { /* room: cut removed at least the range it came from */
		size_t at = 0;
		while (at < m->n && m->r[at].start < tail.start)
			at++;
		memmove(&m->r[at + 1], &m->r[at], (m->n - at) * sizeof(*m->r));
		m->r[at] = tail;
		m->n++;
	}
}

static void insert(struct vg_ranges *m, uint64_t s, uint64_t e, uint32_t v)
{
	size_t at = 0;
	while (at < m->n && m->r[at].start < s)
		at++;
	memmove(&m->r[at + 1], &m->r[at], (m->n - at) * sizeof(*m->r));
	m->r[at] = (struct vg_range){ s, e, v };
	m->n++;
}

#define VG_PIECES 64

/* Each piece's new value from its old one; value_of(old, covered). */
static int update(struct vg_ranges *m, uint64_t s, uint64_t e,
		  uint32_t (*value_of)(const struct piece *, const void *),
		  const void *ctx, vg_ranges_fn fn, void *arg)
{
	struct piece p[VG_PIECES];
	pthread_mutex_lock(&m->lock);
	size_t n = pieces(m, s, e, p, VG_PIECES);
	int rc = reserve(m, n + 1);
	if (!rc && n && p[n - 1].e != e)
		rc = -E2BIG; /* more pieces than one call may touch */
	if (!rc) {
		cut(m, s, e);
		for (size_t i = 0; i < n; i++) {
			uint32_t v = value_of(&p[i], ctx);
			if (fn && v != p[i].old)
				fn(p[i].s, p[i].e, p[i].old, arg);
			insert(m, p[i].s, p[i].e, v);
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

static uint32_t same(const struct piece *p, const void *ctx)
{
	return *(const uint32_t *)ctx;
}

int vg_ranges_set(struct vg_ranges *m, uint64_t start, uint64_t end,
		  uint32_t value, vg_ranges_fn fn, void *arg)
{
	return update(m, start, end, same, &value, fn, arg);
}

struct bits {
	uint32_t bits, dflt;
	int set;
};

static uint32_t with_bits(const struct piece *p, const void *ctx)
{
	const struct bits *b = ctx;
	uint32_t old = p->covered ? p->old : b->dflt;
	return b->set ? old | b->bits : old & ~b->bits;
}

int vg_ranges_flags(struct vg_ranges *m, uint64_t start, uint64_t end,
		    uint32_t bits, int set, uint32_t dflt)
{
	struct bits b = { bits, dflt, set };
	return update(m, start, end, with_bits, &b, NULL, NULL);
}

uint32_t vg_ranges_get(struct vg_ranges *m, uint64_t start, uint64_t end,
		       uint32_t dflt)
{
	uint32_t v = dflt;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < m->n; i++)
		if (m->r[i].start <= start && start < m->r[i].end) {
			v = m->r[i].value;
			break;
		}
	pthread_mutex_unlock(&m->lock);
	return v;
}

void vg_ranges_fork(struct vg_ranges *m, int phase)
{
	if (phase == 0) {
		pthread_mutex_lock(&m->lock);
		return;
	}
	if (phase == 2) /* no free: the allocator may be mid-fork too */
		m->n = 0;
	pthread_mutex_unlock(&m->lock);
}

int vg_ranges_meets(struct vg_ranges *m, uint64_t start, uint64_t end)
{
	int hit = 0;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < m->n && !hit; i++)
		hit = m->r[i].start < end && start < m->r[i].end;
	pthread_mutex_unlock(&m->lock);
	return hit;
}

int vg_ranges_and(struct vg_ranges *m, uint64_t start, uint64_t end,
		  uint32_t *value)
{
	int met = 0;
	*value = ~0u;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < m->n; i++)
		if (m->r[i].start < end && start < m->r[i].end) {
			*value &= m->r[i].value;
			met = 1;
		}
	pthread_mutex_unlock(&m->lock);
	return met;
}

void vg_ranges_gap(struct vg_ranges *m, uint64_t va, uint64_t *s, uint64_t *e)
{
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < m->n; i++) {
		if (m->r[i].end <= va && m->r[i].end > *s)
			*s = m->r[i].end;
		if (m->r[i].start > va && m->r[i].start < *e)
			*e = m->r[i].start;
	}
	pthread_mutex_unlock(&m->lock);
}

int vg_ranges_extent(struct vg_ranges *m, uint64_t va, uint64_t *s, uint64_t *e)
{
	int hit = 0;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < m->n && !hit; i++)
		if (m->r[i].start <= va && va < m->r[i].end) {
			*s = m->r[i].start;
			*e = m->r[i].end;
			hit = 1;
		}
	pthread_mutex_unlock(&m->lock);
	return hit;
}

void vg_ranges_drop(struct vg_ranges *m, uint64_t start, uint64_t end)
{
	pthread_mutex_lock(&m->lock);
	if (!reserve(m, 1)) /* cutting a range in two takes one more */
		cut(m, start, end);
	pthread_mutex_unlock(&m->lock);
}
