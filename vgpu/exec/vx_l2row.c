/* SPDX-License-Identifier: MIT */
/*
 * The L2 model's rows (struct vx_l2row): the stale reads vx_hold.c finds
 * and the stores vx_wback.c leaves unwritten, each kept as one row per
 * instruction and region, in a bounded array, and reported in that order.
 */
#include "vx_int.h"

void vx_l2row_add(struct vx_l2row *rows, unsigned *n, unsigned cap, uint64_t *lost,
		  const struct vx_l2row *x)
{
	for (unsigned i = 0; i < *n; i++) {
		struct vx_l2row *m = &rows[i];
		if (m->pc == x->pc && m->region == x->region) {
			m->count += x->count;
			m->lo = x->lo < m->lo ? x->lo : m->lo;
			m->hi = x->hi > m->hi ? x->hi : m->hi;
			return;
		}
	}
	if (*n == cap)
		*lost += x->count;
	else
		rows[(*n)++] = *x;
}

int vx_l2row_cmp(const void *a, const void *b)
{
	const struct vx_l2row *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}
