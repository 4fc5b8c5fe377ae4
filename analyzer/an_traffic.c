/* SPDX-License-Identifier: MIT */
/*
 * The bytes each kernel read and wrote in each allocation, as the virtual
 * GPU's interpreter counted them: rows of (process, allocation, kernel),
 * summed over the kernel's launches, and written into the inventory
 * grouped by allocation.  A row the preload could not resolve is kept by
 * kernel and said as memory no allocation of the trace holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_rows.h"
#include "an_fmt.h"
#include "an_inv_alloc.h"
#include "an_output.h"
#include "an_schema.h"
#include "an_state.h"
#include "an_traffic.h"
#include "hg_json.h"

static bool same(const struct an_traffic_row *r, const struct an_proc *p,
		 const char *kernel, const struct an_alloc *a)
{
	return r->proc == p && r->has_alloc == (a != NULL) &&
	       (!a || r->alloc.id == a->id) && !strcmp(r->kernel, kernel);
}

static struct an_traffic_row *row_of(struct an_traffic *t, struct an_proc *p,
				     const char *kernel, const struct an_alloc *a)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (same(&t->rows[i], p, kernel, a))
			return &t->rows[i];
	if (!t->rows)
		t->rows = calloc(AN_TRAFFIC_ROWS, sizeof(*t->rows));
	if (!t->rows || t->nrows == AN_TRAFFIC_ROWS)
		return NULL;
	struct an_traffic_row *r = &t->rows[t->nrows++];
	*r = (struct an_traffic_row){ .proc = p, .has_alloc = a != NULL, .lo = UINT64_MAX };
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	if (a)
		r->alloc = *a;
	return r;
}

void an_on_vgpu_traffic(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct an_traffic *t = &c->traffic;
	uint64_t id = an_ev_u64(e, F_VT_ID), rd = an_ev_u64(e, F_VT_READ);
	uint64_t wr = an_ev_u64(e, F_VT_WRITTEN), scope = an_ev_u64(e, F_VT_SCOPE);
	/* The rows follow their dispatch on the same thread. */
	const char *kernel = p->obs_kd == an_ev_u64(e, F_VT_KD) ? p->obs_kernel : "";
	struct an_alloc *a = id ? an_alloc_get(p, id) : NULL;

	if (id && !a)
		a = an_freed_by_id(p, id);
	struct an_traffic_row *r = scope < 2 ? row_of(t, p, kernel, a) : NULL;
	if (!r) {
		t->more_read += rd;
		t->more_written += wr;
		return;
	}
	r->read += rd;
	r->written += wr;
	r->beyond |= scope == 1;
	uint64_t lo = an_ev_u64(e, F_VT_LO);
	r->lo = lo < r->lo ? lo : r->lo;
}

/* Allocations first, by process and id; then what none holds. */
static int order(const void *x, const void *y)
{
	const struct an_traffic_row *a = *(const struct an_traffic_row *const *)x;
	const struct an_traffic_row *b = *(const struct an_traffic_row *const *)y;

	if (a->has_alloc != b->has_alloc)
		return a->has_alloc ? -1 : 1;
	if (a->proc != b->proc)
		return a->proc->key < b->proc->key ? -1 : 1;
	if (a->has_alloc && a->alloc.id != b->alloc.id)
		return a->alloc.id < b->alloc.id ? -1 : 1;
	return strcmp(a->kernel, b->kernel);
}

static bool same_place(const struct an_traffic_row *a, const struct an_traffic_row *b)
{
	return a->proc == b->proc && a->has_alloc == b->has_alloc &&
	       (!a->has_alloc || a->alloc.id == b->alloc.id);
}

/* The rows in the order they are written; NULL when there are none. */
static const struct an_traffic_row **sorted(const struct an_traffic *t)
{
	const struct an_traffic_row **v = t->nrows ? malloc(t->nrows * sizeof(*v)) : NULL;

	if (!v)
		return NULL;
	for (size_t i = 0; i < t->nrows; i++)
		v[i] = &t->rows[i];
	qsort(v, t->nrows, sizeof(*v), order);
	return v;
}

static void text_kernel(FILE *out, const struct an_traffic_row *r)
{
	char rd[32], wr[32];

	an_bytes_text(r->read, rd, sizeof(rd));
	an_bytes_text(r->written, wr, sizeof(wr));
	fprintf(out, "      %s: read %s, wrote %s (%llu and %llu bytes)%s\n",
		an_obs_label(r->proc, r->kernel), rd, wr, (unsigned long long)r->read,
		(unsigned long long)r->written,
		r->beyond ? "; some of them past the block's end" : "");
}

static void text_place(FILE *out, const struct an_traffic_row *r)
{
	char where[256];

	if (r->has_alloc) {
		an_inv_text_alloc(out, r->proc, &r->alloc, "");
		return;
	}
	an_where(r->proc, where, sizeof(where));
	fprintf(out, "  memory no allocation of the trace holds, from 0x%llx  [%s]\n",
		(unsigned long long)r->lo, where);
}

void an_traffic_text(struct an_ctx *c, FILE *out)
{
	const struct an_traffic *t = &c->traffic;
	const struct an_traffic_row **v = sorted(t);

	if (!v && !t->more_read && !t->more_written)
		return;
	fprintf(out, "bytes each kernel read and wrote, as the virtual %s counted them:\n",
		c->vgpu[0] ? c->vgpu : "GPU");
	for (size_t i = 0; v && i < t->nrows; i++) {
		if (!i || !same_place(v[i - 1], v[i]))
			text_place(out, v[i]);
		text_kernel(out, v[i]);
	}
	if (t->more_read || t->more_written)
		fprintf(out, "  ... and %llu bytes read, %llu written in more places than "
			     "the report keeps apart\n",
			(unsigned long long)t->more_read, (unsigned long long)t->more_written);
	free(v);
}

static void json_place(FILE *out, const struct an_traffic_row *r)
{
	fputs("{\"allocation\":", out);
	if (r->has_alloc)
		an_inv_json_alloc(out, r->proc, &r->alloc);
	else
		fprintf(out, "null,\"lo\":%llu", (unsigned long long)r->lo);
	fputs(",\"kernels\":[", out);
}

void an_traffic_json(struct an_ctx *c, FILE *out)
{
	const struct an_traffic *t = &c->traffic;
	const struct an_traffic_row **v = sorted(t);

	fputs(",\"traffic\":[", out);
	for (size_t i = 0; v && i < t->nrows; i++) {
		bool opens = !i || !same_place(v[i - 1], v[i]);

		if (opens)
			fputs(i ? "]}," : "", out);
		if (opens)
			json_place(out, v[i]);
		fputs(opens ? "{\"kernel\":" : ",{\"kernel\":", out);
		hg_json_str(out, an_obs_label(v[i]->proc, v[i]->kernel));
		fprintf(out, ",\"symbol\":");
		hg_json_str(out, v[i]->kernel);
		fprintf(out, ",\"read\":%llu,\"written\":%llu,\"beyond\":%s}",
			(unsigned long long)v[i]->read, (unsigned long long)v[i]->written,
			v[i]->beyond ? "true" : "false");
	}
	fputs(v ? "]}]" : "]", out);
	fprintf(out, ",\"traffic_unlisted\":{\"read\":%llu,\"written\":%llu}",
		(unsigned long long)t->more_read, (unsigned long long)t->more_written);
	free(v);
}
