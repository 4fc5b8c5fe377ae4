/* SPDX-License-Identifier: MIT */
/*
 * The bytes each region of memory gave and took during a dispatch.  The
 * hot path only adds to the translation slot it has just used; a slot's
 * tally reaches the context's table when the slot is refilled, and the
 * table reaches the result once, at the end, so contexts running apart
 * never share a counter.  Memory that neither a buffer object nor the
 * device's block() names has no region to key it: its pages join the row
 * of any run of touched pages they extend, which keeps a large array one
 * row for the tracer to resolve.
 */
#include "vx_int.h"

int vx_traffic_runtime(const struct vx_ctx *c, uint64_t va)
{
	const struct vx_launch *l = c->l;
	return va - l->kernarg_va < c->kd.kernarg_size || va - l->packet_va < 64 ||
	       va - l->queue_va < 256;
}

/* Whether two rows without a region lie in touching runs of pages. */
static int touching(const struct vx_traffic *a, const struct vx_traffic *b)
{
	return a->lo / VX_PAGE <= b->hi / VX_PAGE + 1 && b->lo / VX_PAGE <= a->hi / VX_PAGE + 1;
}

static int same(const struct vx_traffic *a, const struct vx_traffic *b)
{
	return a->region == b->region && (a->region || touching(a, b));
}

static void merge(struct vx_traffic *into, const struct vx_traffic *x)
{
	into->lo = x->lo < into->lo ? x->lo : into->lo;
	into->hi = x->hi > into->hi ? x->hi : into->hi;
	into->read += x->read;
	into->written += x->written;
}

/* A run that grew may now touch another: fold that one in too.  Within
 * one context the slots' order makes this rare; rows of several contexts
 * meeting in the result are where it counts. */
static void fold(struct vx_traffic *rows, unsigned *n, unsigned i)
{
	for (unsigned j = 0; j < *n;) {
		if (j != i && !rows[j].region && touching(&rows[i], &rows[j])) {
			merge(&rows[i], &rows[j]);
			rows[j] = rows[--*n];
			if (i == *n)
				i = j;
			j = 0;
			continue;
		}
		j++;
	}
}

/* Into more, a sum whose region no longer means anything. */
static void spill(struct vx_traffic *more, const struct vx_traffic *x)
{
	if (!(more->read | more->written)) {
		*more = *x;
		more->region = 0;
	} else {
		merge(more, x);
	}
}

static void add(struct vx_traffic *rows, unsigned *n, struct vx_traffic *more,
		const struct vx_traffic *x)
{
	for (unsigned i = 0; i < *n; i++)
		if (same(&rows[i], x)) {
			merge(&rows[i], x);
			if (!x->region)
				fold(rows, n, i);
			return;
		}
	if (*n == VX_TRAFFIC) {
		spill(more, x);
		return;
	}
	rows[(*n)++] = *x;
}

void vx_traffic_evict(struct vx_ctx *c, unsigned slot)
{
	struct vx_tally *y = &c->tlb.tally[slot];
	if (y->bytes[0] | y->bytes[1]) {
		uint64_t page = (c->tlb.vpn[slot] - 1) * VX_PAGE;
		struct vx_traffic x = {
			.region = c->tlb.page[slot].region, .lo = page + y->lo,
			.hi = page + y->hi, .read = y->bytes[0], .written = y->bytes[1],
		};
		add(c->traffic.row, &c->traffic.n, &c->traffic.more, &x);
	}
	*y = (struct vx_tally){ .lo = VX_PAGE };
}

void vx_traffic_flush(struct vx_ctx *c, struct vx_result *r)
{
	for (unsigned i = 0; i < VX_TLB; i++)
		vx_traffic_evict(c, i);
	for (unsigned i = 0; i < c->traffic.n; i++)
		add(r->traffic, &r->ntraffic, &r->traffic_more, &c->traffic.row[i]);
	if (c->traffic.more.read | c->traffic.more.written)
		spill(&r->traffic_more, &c->traffic.more);
	c->traffic = (struct vx_traffic_tab){ .n = 0 };
}
