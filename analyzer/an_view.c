/* SPDX-License-Identifier: MIT */
#include "an_view.h"

#include <stdlib.h>
#include <string.h>

#include "an_names.h"
#include "an_output.h"

static void an_collect_proc(void *val, void *arg)
{
	struct an_view *v = arg;

	v->procs[v->n++].p = val;
}

/* Ranks first, in rank order, then host and pid: the same every run. */
static int an_proc_cmp(const void *a, const void *b)
{
	const struct an_proc *x = ((const struct an_view_proc *)a)->p;
	const struct an_proc *y = ((const struct an_view_proc *)b)->p;
	long rx = x->rank[0] ? atol(x->rank) : -1;
	long ry = y->rank[0] ? atol(y->rank) : -1;
	int h = strcmp(x->host, y->host);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (h)
		return h;
	return x->vpid < y->vpid ? -1 : x->vpid > y->vpid;
}

static void an_view_pids(struct an_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		struct an_view_proc *vp = &v->procs[i];

		vp->idx = (unsigned)i;
		vp->pid = vp->p->vpid;
		for (size_t j = 0; j < i; j++)
			if (v->procs[j].pid == vp->pid)
				vp->pid =
				    1000000000 +
				    (int64_t)i; /* a rank on another node */
		memset(vp->slot, 0xff, sizeof(vp->slot));
	}
}

static void an_add_series(struct an_view_proc *vp, unsigned s)
{
	if (vp->slot[s] >= 0)
		return;
	vp->slot[s] = (int16_t)vp->nseries;
	vp->key[vp->nseries++] = (uint16_t)s;
}

int an_view_build(struct an_ctx *c, struct an_view *v)
{
	size_t n = an_nprocs(c);

	*v = (struct an_view){0};
	v->procs = calloc(n ? n : 1, sizeof(*v->procs));
	if (!v->procs)
		return -1;
	hg_map_each(&c->procs, an_collect_proc, v);
	qsort(v->procs, v->n, sizeof(*v->procs), an_proc_cmp);
	an_view_pids(v);
	for (size_t i = 0; i < v->n; i++)
		if (hg_map_put(&v->by_proc, (uintptr_t)v->procs[i].p,
			       &v->procs[i]))
			return -1;
	for (size_t i = 0; c->tl && i < c->tl->n; i++) {
		const struct an_tl_rec *r = &c->tl->r[i];

		if (r->kind == AN_TL_ALLOC || r->kind == AN_TL_GRAN)
			an_add_series(an_view_of(v, r->proc),
				      AN_SERIES(r->api, r->gran));
	}
	for (size_t i = 0; i < v->n; i++) {
		v->procs[i].live =
		    calloc(v->procs[i].nseries + 1, sizeof(uint64_t));
		v->procs[i].speak =
		    calloc(v->procs[i].nseries + 1, sizeof(uint64_t));
		if (!v->procs[i].live || !v->procs[i].speak)
			return -1;
	}
	return 0;
}

struct an_view_proc *an_view_of(const struct an_view *v,
				const struct an_proc *p)
{
	return hg_map_get(&v->by_proc, (uintptr_t)p);
}

static uint64_t an_block_key(const struct an_view_proc *vp, uint64_t id)
{
	return ((uint64_t)vp->idx << 48) ^ id ^
	       ((uint64_t)vp->idx * 0x9e3779b97f4a7c15ull);
}

static void an_move(struct an_view_proc *vp, unsigned series, uint64_t size,
		    bool add)
{
	int16_t s = vp->slot[series];

	if (s < 0)
		return;
	if (add) {
		vp->live[s] += size;
		vp->total += size;
		if (vp->live[s] > vp->speak[s])
			vp->speak[s] = vp->live[s];
	} else {
		vp->live[s] -= size < vp->live[s] ? size : vp->live[s];
		vp->total -= size < vp->total ? size : vp->total;
	}
	if (vp->total > vp->peak)
		vp->peak = vp->total;
}

/* A live block during a walk: its allocation and its granularity now. */
struct an_live {
	const struct an_tl_rec *r;
	uint8_t gran;
};

static void an_walk_alloc(struct an_view *v, struct an_step *s)
{
	uint64_t key = an_block_key(s->vp, s->r->id);
	struct an_live *l = hg_map_get(&v->blocks, key);

	if (l) /* the same id again: the model overwrote it, so do we */
		an_move(s->vp, AN_SERIES(l->r->api, l->gran), l->r->size,
			false);
	else if (!(l = malloc(sizeof(*l))) || hg_map_put(&v->blocks, key, l)) {
		free(l);
		return;
	}
	*l = (struct an_live){s->r, s->r->gran};
	an_move(s->vp, AN_SERIES(s->r->api, s->r->gran), s->r->size, true);
}

static void an_walk_change(struct an_view *v, struct an_step *s)
{
	uint64_t key = an_block_key(s->vp, s->r->id);
	struct an_live *l = hg_map_get(&v->blocks, key);

	if (!l)
		return;
	s->block = l->r;
	an_move(s->vp, AN_SERIES(l->r->api, l->gran), l->r->size, false);
	if (s->r->kind == AN_TL_GRAN) {
		l->gran = s->r->gran;
		an_move(s->vp, AN_SERIES(l->r->api, l->gran), l->r->size, true);
		return;
	}
	free(hg_map_del(&v->blocks, key));
}

const struct an_tl_rec *an_view_block(const struct an_view *v,
				      const struct an_view_proc *vp,
				      uint64_t id)
{
	const struct an_live *l =
	    id ? hg_map_get(&v->blocks, an_block_key(vp, id)) : NULL;

	return l ? l->r : NULL;
}

static void an_free_live(void *val, void *arg)
{
	free(val);
}

int an_view_walk(struct an_ctx *c, struct an_view *v,
		 void (*fn)(const struct an_step *s, void *arg), void *arg)
{
	hg_map_each(&v->blocks, an_free_live, NULL);
	hg_map_fini(&v->blocks);
	for (size_t i = 0; i < v->n; i++) {
		struct an_view_proc *vp = &v->procs[i];

		memset(vp->live, 0, (vp->nseries + 1) * sizeof(uint64_t));
		memset(vp->speak, 0, (vp->nseries + 1) * sizeof(uint64_t));
		vp->total = vp->peak = 0;
	}
	for (size_t i = 0; c->tl && i < c->tl->n; i++) {
		struct an_step s = {.r = &c->tl->r[i]};

		s.vp = an_view_of(v, s.r->proc);
		if (!s.vp)
			continue;
		if (s.r->kind == AN_TL_ALLOC)
			an_walk_alloc(v, &s);
		else if (s.r->kind == AN_TL_FREE || s.r->kind == AN_TL_GRAN)
			an_walk_change(v, &s);
		else if (s.r->kind == AN_TL_LAUNCH && s.r->nargs)
			s.args = &c->tl->args[s.r->x];
		fn(&s, arg);
	}
	return 0;
}

void an_view_fini(struct an_view *v)
{
	for (size_t i = 0; v->procs && i < v->n; i++) {
		free(v->procs[i].live);
		free(v->procs[i].speak);
	}
	free(v->procs);
	hg_map_each(&v->blocks, an_free_live, NULL);
	hg_map_fini(&v->blocks);
	hg_map_fini(&v->by_proc);
	*v = (struct an_view){0};
}

void an_series_name(unsigned series, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s %s", an_api_name(series / 4),
		 an_gran_name(series % 4));
}
