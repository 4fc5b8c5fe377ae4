/* SPDX-License-Identifier: MIT */
/*
 * A trace's result, its tables: the inventory and what the virtual GPU
 * saw and moved.  Each merge does what replay would have done had the
 * trace been read into the report's own state: sums add up, and tables
 * with a cap take the new rows until full, counting the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "an_result.h"
#include "an_rows.h"

static void an_put_inv(struct an_put *w, const struct an_ctx *t)
{
	unsigned n = 0, top = 0;

	for (unsigned api = 0; api < 256; api++)
		for (unsigned g = 0; g < 4; g++)
			n += t->inv[api][g].count != 0;
	an_w_u64(w->b, n);
	for (unsigned api = 0; api < 256; api++)
		for (unsigned g = 0; g < 4; g++)
			if (t->inv[api][g].count) {
				an_w_u64(w->b, api << 2 | g);
				an_w_u64(w->b, t->inv[api][g].count);
				an_w_u64(w->b, t->inv[api][g].bytes);
			}
	while (top < AN_TOP_ALLOCS && t->top[top].has_alloc)
		top++;
	an_w_u64(w->b, top);
	for (unsigned i = 0; i < top; i++) {
		an_w_u64(w->b, an_put_proc_ref(w, t->top[i].proc));
		an_put_alloc(w->b, &t->top[i].alloc);
	}
	an_w_u64(w->b, t->nmigrated);
	for (size_t i = 0; i < t->nmigrated; i++) {
		an_w_u64(w->b, an_put_proc_ref(w, t->migrated[i].proc));
		an_put_alloc(w->b, &t->migrated[i].alloc);
	}
	an_w_u64(w->b, t->migrated_more);
}

/* Ties keep the block seen first, as an_inv_add does. */
static void an_top_add(struct an_ctx *c, struct an_proc *p,
		       const struct an_alloc *a)
{
	unsigned i = AN_TOP_ALLOCS;

	while (i > 0 && (!c->top[i - 1].has_alloc ||
			 c->top[i - 1].alloc.size < a->size))
		i--;
	if (i == AN_TOP_ALLOCS)
		return;
	memmove(&c->top[i + 1], &c->top[i],
		(AN_TOP_ALLOCS - 1 - i) * sizeof(c->top[0]));
	c->top[i] = (struct an_finding){.proc = p, .has_alloc = true, .alloc = *a};
}

static void an_get_inv(struct an_get *g, struct an_ctx *c)
{
	uint64_t n = an_r_below(&g->r, 256 * 4 + 1);
	struct an_alloc a;
	struct an_proc *p;

	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		uint64_t at = an_r_below(&g->r, 256 * 4);
		uint64_t count = an_r_u64(&g->r), bytes = an_r_u64(&g->r);

		if (g->r.bad)
			return;
		c->inv[at >> 2][at & 3].count += count;
		c->inv[at >> 2][at & 3].bytes += bytes;
	}
	n = an_r_below(&g->r, AN_TOP_ALLOCS + 1);
	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		p = an_get_proc_ref(g);
		an_get_alloc(&g->r, &a);
		if (!g->r.bad)
			an_top_add(c, p, &a);
	}
	n = an_r_below(&g->r, AN_INV_MIGRATED + 1);
	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		p = an_get_proc_ref(g);
		an_get_alloc(&g->r, &a);
		if (!c->migrated)
			c->migrated = calloc(AN_INV_MIGRATED, sizeof(*c->migrated));
		if (!c->migrated || c->nmigrated == AN_INV_MIGRATED)
			c->migrated_more++;
		else
			c->migrated[c->nmigrated++] = (struct an_inv_mig){p, a};
	}
	c->migrated_more += an_r_u64(&g->r);
}

static void an_put_exec(struct an_put *w, const struct an_exec *x)
{
	struct an_wbuf *b = w->b;

	an_w_u64(b, x->ran);
	an_w_u64(b, x->not_run);
	an_w_u64(b, x->faulted);
	an_w_u64(b, an_put_proc_ref(w, x->first_proc));
	an_w_str(b, x->first_kernel);
	an_w_str(b, x->first_why);
	an_w_u64(b, x->nrows);
	for (size_t i = 0; i < x->nrows; i++) {
		const struct an_obs_row *r = &x->rows[i];

		an_w_u64(b, an_put_proc_ref(w, r->proc));
		an_w_str(b, r->kernel);
		an_w_str(b, r->op);
		an_w_u64(b, r->code_off);
		an_w_u64(b, r->count);
		an_w_u64(b, r->has_alloc);
		if (r->has_alloc)
			an_put_alloc(b, &r->alloc);
	}
	an_w_u64(b, x->rows_more);
	an_w_u64(b, x->unexplained);
	an_w_u64(b, x->nkernels);
	for (size_t i = 0; i < x->nkernels; i++) {
		an_w_u64(b, an_put_proc_ref(w, x->kernels[i].proc));
		an_w_str(b, x->kernels[i].name);
		an_w_u64(b, x->kernels[i].ran);
		an_w_u64(b, x->kernels[i].faulted);
	}
}

static void an_get_exec_rows(struct an_get *g, struct an_exec *x)
{
	uint64_t n = an_r_below(&g->r, AN_OBS_ROWS + 1);

	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		struct an_obs_row r = {.proc = an_get_proc_ref(g)};

		an_r_chars(&g->r, r.kernel, sizeof(r.kernel));
		an_r_chars(&g->r, r.op, sizeof(r.op));
		r.code_off = an_r_u64(&g->r);
		r.count = an_r_u64(&g->r);
		r.has_alloc = an_r_u64(&g->r) != 0;
		if (r.has_alloc)
			an_get_alloc(&g->r, &r.alloc);
		if (!x->rows)
			x->rows = calloc(AN_OBS_ROWS, sizeof(*x->rows));
		if (!x->rows || x->nrows == AN_OBS_ROWS)
			x->rows_more += r.count;
		else
			x->rows[x->nrows++] = r;
	}
	x->rows_more += an_r_u64(&g->r);
	x->unexplained += an_r_u64(&g->r);
}

static void an_get_exec(struct an_get *g, struct an_exec *x)
{
	uint64_t ran = an_r_u64(&g->r), not_run = an_r_u64(&g->r);
	struct an_proc *first;
	uint64_t n;

	x->faulted += an_r_u64(&g->r);
	first = an_get_proc_ref(g);
	/* The first dispatch that did not run of all traces: this one's
	 * when none before had one. */
	if (!x->not_run && not_run) {
		x->first_proc = first;
		an_r_chars(&g->r, x->first_kernel, sizeof(x->first_kernel));
		an_r_chars(&g->r, x->first_why, sizeof(x->first_why));
	} else {
		char skip[160];

		an_r_chars(&g->r, skip, sizeof(skip));
		an_r_chars(&g->r, skip, sizeof(skip));
	}
	x->ran += ran;
	x->not_run += not_run;
	an_get_exec_rows(g, x);
	n = an_r_below(&g->r, AN_OBS_ROWS + 1);
	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		struct an_obs_kernel k = {.proc = an_get_proc_ref(g)};

		an_r_chars(&g->r, k.name, sizeof(k.name));
		k.ran = an_r_u64(&g->r);
		k.faulted = an_r_u64(&g->r);
		if (!x->kernels)
			x->kernels = calloc(AN_OBS_ROWS, sizeof(*x->kernels));
		if (x->kernels && x->nkernels < AN_OBS_ROWS)
			x->kernels[x->nkernels++] = k;
	}
}

static void an_put_traffic(struct an_put *w, const struct an_traffic *t)
{
	an_w_u64(w->b, t->nrows);
	for (size_t i = 0; i < t->nrows; i++) {
		const struct an_traffic_row *r = &t->rows[i];

		an_w_u64(w->b, an_put_proc_ref(w, r->proc));
		an_w_str(w->b, r->kernel);
		an_w_u64(w->b, r->has_alloc);
		if (r->has_alloc)
			an_put_alloc(w->b, &r->alloc);
		an_w_u64(w->b, r->beyond);
		an_w_u64(w->b, r->lo);
		an_w_u64(w->b, r->read);
		an_w_u64(w->b, r->written);
	}
	an_w_u64(w->b, t->more_read);
	an_w_u64(w->b, t->more_written);
}

static void an_get_traffic(struct an_get *g, struct an_traffic *t)
{
	uint64_t n = an_r_below(&g->r, AN_TRAFFIC_ROWS + 1);

	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		struct an_traffic_row r = {.proc = an_get_proc_ref(g)};

		an_r_chars(&g->r, r.kernel, sizeof(r.kernel));
		r.has_alloc = an_r_u64(&g->r) != 0;
		if (r.has_alloc)
			an_get_alloc(&g->r, &r.alloc);
		r.beyond = an_r_u64(&g->r) != 0;
		r.lo = an_r_u64(&g->r);
		r.read = an_r_u64(&g->r);
		r.written = an_r_u64(&g->r);
		if (!t->rows)
			t->rows = calloc(AN_TRAFFIC_ROWS, sizeof(*t->rows));
		if (t->rows && t->nrows < AN_TRAFFIC_ROWS) {
			t->rows[t->nrows++] = r;
			continue;
		}
		t->more_read += r.read;
		t->more_written += r.written;
	}
	t->more_read += an_r_u64(&g->r);
	t->more_written += an_r_u64(&g->r);
}

void an_put_more(struct an_put *w, const struct an_ctx *t)
{
	an_put_inv(w, t);
	an_put_exec(w, &t->exec);
	an_put_traffic(w, &t->traffic);
}

void an_get_more(struct an_get *g, struct an_ctx *c)
{
	an_get_inv(g, c);
	an_get_exec(g, &c->exec);
	an_get_traffic(g, &c->traffic);
}
