/* SPDX-License-Identifier: MIT */
/* A trace's result, its timeline (an_timeline.h): only the picture
 * formats keep one, and it grows with events. */
#include <stdlib.h>

#include "an_result.h"
#include "an_timeline.h"

static void an_put_rec(struct an_put *w, const struct an_tl_rec *r)
{
	uint8_t small[] = {r->kind, r->api, r->gran, r->mem};

	an_w_u64(w->b, r->t);
	an_w_u64(w->b, an_put_proc_ref(w, r->proc));
	an_w_u64(w->b, r->id);
	an_w_u64(w->b, r->size);
	an_w_u64(w->b, r->x);
	an_w_i64(w->b, r->tid);
	an_w_i64(w->b, r->rc);
	an_w_bytes(w->b, small, sizeof(small));
	an_w_u64(w->b, r->nargs);
}

static void an_put_mig(struct an_put *w, const struct an_tl_mig *m)
{
	an_w_u64(w->b, m->t);
	an_w_u64(w->b, m->ns);
	an_w_u64(w->b, m->dur);
	an_w_u64(w->b, m->addr);
	an_w_u64(w->b, m->size);
	an_w_u64(w->b, an_put_proc_ref(w, m->proc));
	an_w_u64(w->b, m->from);
	an_w_u64(w->b, m->to);
	an_w_i64(w->b, m->tid);
	an_w_i64(w->b, m->error);
	an_w_u64(w->b, m->trigger);
	an_w_u64(w->b, m->ended);
}

void an_put_tl(struct an_put *w, const struct an_tl *tl)
{
	an_w_u64(w->b, tl != NULL);
	if (!tl)
		return;
	an_w_u64(w->b, tl->t0);
	an_w_u64(w->b, tl->t1);
	an_w_u64(w->b, tl->failed);
	an_w_u64(w->b, tl->n);
	for (size_t i = 0; i < tl->n; i++)
		an_put_rec(w, &tl->r[i]);
	an_w_u64(w->b, tl->nargs);
	for (size_t i = 0; i < tl->nargs; i++) {
		an_w_u64(w->b, tl->args[i].alloc);
		an_w_u64(w->b, tl->args[i].index);
		an_w_u64(w->b, tl->args[i].gran);
		an_w_u64(w->b, tl->args[i].mem);
	}
	an_w_u64(w->b, tl->nmig);
	for (size_t i = 0; i < tl->nmig; i++)
		an_put_mig(w, &tl->mig[i]);
}

static void an_get_rec(struct an_get *g, struct an_tl_rec *r, size_t arg0)
{
	const uint8_t *small;

	r->t = an_r_u64(&g->r);
	r->proc = an_get_proc_ref(g);
	r->id = an_r_u64(&g->r);
	r->size = an_r_u64(&g->r);
	r->x = an_r_u64(&g->r);
	r->tid = (int32_t)an_r_i64(&g->r);
	r->rc = (int32_t)an_r_i64(&g->r);
	small = an_r_bytes(&g->r, 4);
	if (small) {
		r->kind = small[0];
		r->api = small[1];
		r->gran = small[2];
		r->mem = small[3];
	}
	r->nargs = (uint16_t)an_r_below(&g->r, UINT16_MAX + 1);
	/* A launch's arguments follow the report's own. */
	if (r->kind == AN_TL_LAUNCH)
		r->x += arg0;
}

static void an_get_mig(struct an_get *g, struct an_tl_mig *m)
{
	m->t = an_r_u64(&g->r);
	m->ns = an_r_u64(&g->r);
	m->dur = an_r_u64(&g->r);
	m->addr = an_r_u64(&g->r);
	m->size = an_r_u64(&g->r);
	m->proc = an_get_proc_ref(g);
	m->from = (uint32_t)an_r_u64(&g->r);
	m->to = (uint32_t)an_r_u64(&g->r);
	m->tid = (int32_t)an_r_i64(&g->r);
	m->error = (int32_t)an_r_i64(&g->r);
	m->trigger = (uint8_t)an_r_u64(&g->r);
	m->ended = an_r_u64(&g->r) != 0;
}

/* Room for n more of v's elements, or false (and the picture partial). */
static bool an_tl_room(struct an_tl *tl, void **v, size_t *cap, size_t need,
		       size_t size)
{
	void *p = need ? an_tl_grow(*v, cap, need, size) : *v;

	if (need && !p)
		tl->failed = true;
	else
		*v = p;
	return !need || p != NULL;
}

static void an_get_recs(struct an_get *g, struct an_tl *tl, size_t arg0)
{
	/* Each record takes at least a byte: a count past the bytes left is
	 * damage, not a reason to allocate. */
	uint64_t n = an_r_below(&g->r, (uint64_t)(g->r.end - g->r.p) + 1);

	if (!an_tl_room(tl, (void **)&tl->r, &tl->cap, tl->n + n, sizeof(*tl->r)))
		return;
	for (uint64_t i = 0; i < n && !g->r.bad; i++)
		an_get_rec(g, &tl->r[tl->n++], arg0);
	n = an_r_below(&g->r, (uint64_t)(g->r.end - g->r.p) + 1);
	if (!an_tl_room(tl, (void **)&tl->args, &tl->capargs, tl->nargs + n,
			sizeof(*tl->args)))
		return;
	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		struct an_tl_arg *a = &tl->args[tl->nargs++];

		a->alloc = an_r_u64(&g->r);
		a->index = (uint16_t)an_r_u64(&g->r);
		a->gran = (uint8_t)an_r_u64(&g->r);
		a->mem = (uint8_t)an_r_u64(&g->r);
	}
	n = an_r_below(&g->r, (uint64_t)(g->r.end - g->r.p) + 1);
	if (!an_tl_room(tl, (void **)&tl->mig, &tl->capmig, tl->nmig + n,
			sizeof(*tl->mig)))
		return;
	for (uint64_t i = 0; i < n && !g->r.bad; i++)
		an_get_mig(g, &tl->mig[tl->nmig++]);
}

void an_get_tl(struct an_get *g, struct an_ctx *c)
{
	struct an_tl *tl = c->tl;
	uint64_t t0, t1;
	bool empty;

	if (!an_r_u64(&g->r))
		return;
	t0 = an_r_u64(&g->r);
	t1 = an_r_u64(&g->r);
	if (!tl) { /* a summary made for a picture, merged into text */
		g->r.p = g->r.end;
		return;
	}
	empty = !tl->n && !tl->nmig;
	tl->failed |= an_r_u64(&g->r) != 0;
	an_get_recs(g, tl, tl->nargs);
	if (tl->n || tl->nmig) {
		tl->t0 = empty || t0 < tl->t0 ? t0 : tl->t0;
		tl->t1 = empty || t1 > tl->t1 ? t1 : tl->t1;
	}
}
