/* SPDX-License-Identifier: MIT */
/* Recording the timeline while replay runs (see an_timeline.h). */
#include "an_timeline.h"

#include <stdlib.h>

void *an_tl_grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap * 2 : 4096;
	void *g;

	if (need <= *cap)
		return v;
	while (n < need)
		n *= 2;
	g = realloc(v, n * size);
	if (g)
		*cap = n;
	return g;
}

static struct an_tl_rec *an_tl_append(struct an_ctx *c, struct an_proc *p,
				      enum an_tl_kind kind)
{
	struct an_tl *tl = c->tl;
	struct an_tl_rec *r = an_tl_grow(tl->r, &tl->cap, tl->n + 1, sizeof(*r));

	if (!r) {
		tl->failed = true;
		return NULL;
	}
	tl->r = r;
	if (!tl->n || c->now_ns < tl->t0)
		tl->t0 = c->now_ns;
	if (c->now_ns > tl->t1)
		tl->t1 = c->now_ns;
	r = &tl->r[tl->n++];
	*r = (struct an_tl_rec){.t = c->now_ns,
				.proc = p,
				.tid = c->now_tid,
				.kind = (uint8_t)kind};
	return r;
}

/* Kept apart from an_tl_append so that, without a timeline, replay's
 * calls stop here at the cost of a test. */
static inline struct an_tl_rec *an_tl_new(struct an_ctx *c, struct an_proc *p,
					  enum an_tl_kind kind)
{
	return c->tl && !c->tl->failed ? an_tl_append(c, p, kind) : NULL;
}

void an_tl_alloc(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a)
{
	struct an_tl_rec *r = an_tl_new(c, p, AN_TL_ALLOC);

	if (!r)
		return;
	r->id = a->id;
	r->size = a->size;
	r->x = a->callsite;
	r->api = a->api;
	r->gran = a->gran;
	r->mem = a->mem;
}

void an_tl_free(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a)
{
	struct an_tl_rec *r = an_tl_new(c, p, AN_TL_FREE);

	if (r)
		r->id = a->id;
}

void an_tl_gran(struct an_ctx *c, struct an_proc *p, const struct an_alloc *a)
{
	struct an_tl_rec *r = an_tl_new(c, p, AN_TL_GRAN);

	if (r) {
		r->id = a->id;
		r->api = a->api;
		r->gran = a->gran;
	}
}

void an_tl_launch(struct an_ctx *c, const struct an_launch *l)
{
	struct an_tl_rec *r = an_tl_new(c, l->proc, AN_TL_LAUNCH);

	if (!r)
		return;
	r->id = l->handle;
	r->size = an_weight(c);
	r->rc = l->rc;
	r->x = c->tl->nargs;
}

/* Belongs to the launch recorded last (replay calls it right after). */
void an_tl_launch_arg(struct an_ctx *c, const struct an_launch_arg *a)
{
	struct an_tl *tl = c->tl;
	struct an_tl_arg *g;

	if (!tl || tl->failed || !tl->n ||
	    tl->r[tl->n - 1].kind != AN_TL_LAUNCH)
		return;
	g = an_tl_grow(tl->args, &tl->capargs, tl->nargs + 1, sizeof(*g));
	if (!g) {
		tl->failed = true;
		return;
	}
	tl->args = g;
	tl->args[tl->nargs++] =
	    (struct an_tl_arg){.alloc = a->alloc ? a->alloc->id : 0,
			       .index = (uint16_t)a->index,
			       .gran = a->gran,
			       .mem = a->mem};
	tl->r[tl->n - 1].nargs++;
}

void an_tl_call(struct an_ctx *c, struct an_proc *p, unsigned api, int32_t rc,
		uint64_t size)
{
	struct an_tl_rec *r;

	/* Only Perfetto draws calls. */
	if (!c->tl || c->opts->format == AN_FMT_HTML)
		return;
	r = an_tl_new(c, p, AN_TL_CALL);
	if (!r)
		return;
	r->api = (uint8_t)api;
	r->rc = rc;
	r->size = size;
}

void an_tl_free_all(struct an_tl *tl)
{
	if (!tl)
		return;
	free(tl->r);
	free(tl->args);
	free(tl->mig);
	free(tl);
}
