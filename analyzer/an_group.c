/* SPDX-License-Identifier: MIT */
/* Merging findings across processes by their symbolised call site. */
#include <stdlib.h>
#include <string.h>

#include "an_names.h"
#include "hg_hiperr.h"
#include "an_output.h"
#include "an_rule.h"
#include "hg_events.h"

static unsigned an_rule_pos(const struct an_rule *r)
{
	for (unsigned i = 0; i < an_nrules; i++)
		if (an_rules[i] == r)
			return i;
	return an_nrules;
}

static int an_group_cmp(const void *a, const void *b)
{
	const struct an_group *x = a, *y = b;

	if (x->first->sev != y->first->sev)
		return (int)y->first->sev - (int)x->first->sev;
	if (x->first->rule != y->first->rule)
		return (int)an_rule_pos(x->first->rule) - (int)an_rule_pos(y->first->rule);
	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* Calls are the same when they symbolise alike, or (with no symbols) when
 * they are the same call site of one process. */
static bool an_same_place(const struct an_place *pl, const struct an_call *x,
			  const struct an_call *y, const char *site)
{
	return x->api == y->api && !strcmp(pl->site, site) &&
	       (site[0] || x->callsite == y->callsite);
}

/* What a run observed belongs to its GPU: findings of runs on different
 * products (or GPUs) stay apart, so each group's observed count is one
 * product's (an MI250X's dropped atomics are not an MI210's). */
static bool an_same_gpu(const struct an_proc *a, const struct an_proc *b)
{
	return a == b || (!strcmp(a->vgpu, b->vgpu) &&
			  !strcmp(a->dev_name, b->dev_name) &&
			  !strcmp(a->arch, b->arch));
}

bool an_same_group(const struct an_group *g, const struct an_finding *f,
		   const char *site, const char *call, const char *freed)
{
	const struct an_finding *h = g->first;
	const char *kn = h->kernel ? h->kernel->name : NULL;
	const char *fn = f->kernel ? f->kernel->name : NULL;

	return h->rule == f->rule && h->sev == f->sev &&
	       (!h->proc || !f->proc || an_same_gpu(h->proc, f->proc)) &&
	       (kn == fn || (kn && fn && !strcmp(kn, fn))) &&
	       h->has_alloc == f->has_alloc && h->arg == f->arg &&
	       (!h->has_alloc || h->alloc.api == f->alloc.api) &&
	       !strcmp(g->site, site) &&
	       (site[0] || (h->proc == f->proc && h->alloc.callsite == f->alloc.callsite)) &&
	       an_same_place(&g->call, &h->call, &f->call, call) &&
	       an_same_place(&g->freed, &h->freed, &f->freed, freed) &&
	       !strcmp(h->race_at[0], f->race_at[0]) && !strcmp(h->race_at[1], f->race_at[1]);
}

/* A rank is a number the launcher gave the process (see an_replay.c). */
static void an_group_rank(struct an_group *g, const struct an_proc *p)
{
	char *end;
	long r = strtol(p->rank, &end, 10);
	unsigned lo = 0, hi = g->nranks;
	long *grown;

	if (!p->rank[0] || *end || r < 0)
		return;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (g->ranks[mid] == r)
			return;
		if (g->ranks[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	grown = realloc(g->ranks, (g->nranks + 1) * sizeof(*grown));
	if (!grown)
		return;
	memmove(grown + lo + 1, grown + lo, (g->nranks - lo) * sizeof(*grown));
	grown[lo] = r;
	g->ranks = grown;
	g->nranks++;
}

void an_ranks_text(const struct an_group *g, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < g->nranks && o + 24 < cap; i++) {
		unsigned j = i;

		while (j + 1 < g->nranks && g->ranks[j + 1] == g->ranks[j] + 1)
			j++;
		o += (size_t)snprintf(buf + o, cap - o, "%s%ld", i ? "," : "",
				      g->ranks[i]);
		if (j > i)
			o += (size_t)snprintf(buf + o, cap - o, "-%ld",
					      g->ranks[j]);
		i = j;
		if (i + 1 < g->nranks && o + 24 >= cap)
			snprintf(buf + o, cap - o, ",...");
	}
}

/* JSON lists every frame; the other formats show only the site. */
static int an_symbolise(const struct an_finding *f, uint64_t callsite,
			bool all_frames, struct an_frame *fr)
{
	if (!callsite)
		return 0;
	return all_frames ? an_sym_callsite(f->proc, callsite, fr, AN_MAX_FRAMES)
			  : an_sym_site(f->proc, callsite, fr, AN_MAX_FRAMES);
}

static void an_place_make(struct an_place *pl, const struct an_finding *f,
			  const struct an_call *call, bool all_frames)
{
	char site[1024];

	pl->nframes = call->api ? an_symbolise(f, call->callsite, all_frames,
					       pl->frames)
				: 0;
	an_site_text(pl->frames, pl->nframes, site, sizeof(site));
	pl->site = strdup(site);
}

static void an_place_free(struct an_place *pl)
{
	an_frames_free(pl->frames, pl->nframes);
	free(pl->site);
	pl->nframes = 0;
	pl->site = NULL;
}

int an_group_add(struct an_groups *gs, const struct an_finding *f,
		 bool all_frames)
{
	struct an_frame fr[AN_MAX_FRAMES];
	int n = f->has_alloc ? an_symbolise(f, f->alloc.callsite, all_frames, fr)
			     : 0;
	struct an_place call, freed;
	char site[1024];
	struct an_group *g;

	an_site_text(fr, n, site, sizeof(site));
	an_place_make(&call, f, &f->call, all_frames);
	an_place_make(&freed, f, &f->freed, all_frames);
	if (!call.site || !freed.site) {
		an_frames_free(fr, n);
		an_place_free(&call);
		an_place_free(&freed);
		return -1;
	}
	/*
	 * A symboliser holds a process's objects and their DWARF: let it go
	 * once the process's last finding is placed (findings are listed by
	 * process), so a merge of many ranks holds one at a time.  Groups keep
	 * their own copies of the frames.
	 */
	if (!f->all_next || f->all_next->proc != f->proc)
		an_sym_proc_fini(f->proc);
	for (size_t i = 0; i < gs->n; i++) {
		if (an_same_group(&gs->g[i], f, site, call.site, freed.site)) {
			gs->g[i].count += f->count;
			gs->g[i].observed += f->observed;
			gs->g[i].nprocs += gs->g[i].first->proc != f->proc;
			gs->g[i].nfound++;
			an_group_rank(&gs->g[i], f->proc);
			an_frames_free(fr, n);
			an_place_free(&call);
			an_place_free(&freed);
			return 0;
		}
	}
	g = realloc(gs->g, (gs->n + 1) * sizeof(*g));
	if (!g) {
		an_frames_free(fr, n);
		an_place_free(&call);
		an_place_free(&freed);
		return -1;
	}
	gs->g = g;
	g = &gs->g[gs->n++];
	*g = (struct an_group){.first = f, .count = f->count, .nprocs = 1,
			       .nfound = 1,
			       .observed = f->observed,
			       .nframes = n, .site = strdup(site),
			       .call = call, .freed = freed};
	memcpy(g->frames, fr, (size_t)n * sizeof(fr[0]));
	an_group_rank(g, f->proc);
	gs->by_sev[f->sev & 3]++;
	return 0;
}

int an_groups_build(struct an_ctx *c, struct an_groups *out)
{
	*out = (struct an_groups){0};
	if (c->live) {
		/* Grouped as each trace's result arrived (an_group_live.c). */
		*out = *c->live;
		*c->live = (struct an_groups){0};
		for (size_t i = 0; i < out->n; i++)
			out->by_sev[out->g[i].first->sev & 3]++;
	} else {
		for (const struct an_finding *f = c->findings; f; f = f->all_next)
			if (an_group_add(out, f, c->opts->format == AN_FMT_JSON))
				return -1;
	}
	an_groups_fold(out);
	if (out->n)
		qsort(out->g, out->n, sizeof(out->g[0]), an_group_cmp);
	return 0;
}

void an_group_free(struct an_group *g)
{
	an_frames_free(g->frames, g->nframes);
	free(g->site);
	an_place_free(&g->call);
	an_place_free(&g->freed);
	free(g->ranks);
	free(g->message);
	for (unsigned i = 0; i < g->nalso; i++)
		an_group_free(&g->also[i]);
	free(g->also);
}

void an_groups_free(struct an_groups *gs)
{
	for (size_t i = 0; i < gs->n; i++)
		an_group_free(&gs->g[i]);
	free(gs->g);
	*gs = (struct an_groups){0};
}

void an_fail_text(const struct an_ctx *c, const struct an_fail *f, char *buf,
		  size_t cap)
{
	const char *name = hg_hip_error_name(f->rc);
	bool nogpu = f->no_gpu || f->rc == 100;

	/* libomptarget answers a region no device took by running it on the
	 * host: the program's result is right, the GPU never saw it. */
	if (!strcmp(an_api_lib(f->api), "OpenMP") &&
	    hg_api_class(f->api) == HG_CLASS_LAUNCH)
		snprintf(buf, cap, "%s failed %llu× (returned %d): no offload "
			 "device took the target region, so it ran on the host",
			 an_api_name(f->api), (unsigned long long)f->count,
			 f->rc);
	else if (name)
		snprintf(buf, cap, "%s failed %llu× with %s%s",
			 an_api_name(f->api), (unsigned long long)f->count, name,
			 nogpu ? ": no usable GPU" : "");
	else
		snprintf(buf, cap, "%s failed %llu× with error %d%s",
			 an_api_name(f->api), (unsigned long long)f->count, f->rc,
			 nogpu ? ": no usable GPU" : "");
}

static void an_count_proc(void *val, void *arg)
{
	(*(unsigned *)arg)++;
}

unsigned an_nprocs(const struct an_ctx *c)
{
	unsigned n = 0;

	hg_map_each(&c->procs, an_count_proc, &n);
	return n;
}

struct an_proc_list {
	struct an_proc **v;
	size_t n;
};

static void an_list_proc(void *val, void *arg)
{
	struct an_proc_list *l = arg;

	l->v[l->n++] = val;
}

static int an_proc_cmp(const void *a, const void *b)
{
	const struct an_proc *x = *(struct an_proc *const *)a;
	const struct an_proc *y = *(struct an_proc *const *)b;
	int d;

	if (x->vpid != y->vpid)
		return x->vpid < y->vpid ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	d = strcmp(x->host, y->host);
	return d ? d : strcmp(x->rank, y->rank);
}

size_t an_procs_sorted(const struct an_ctx *c, struct an_proc ***out)
{
	struct an_proc_list l = {NULL, 0};
	unsigned n = an_nprocs(c);

	*out = NULL;
	if (!n || !(l.v = calloc(n, sizeof(*l.v))))
		return 0;
	hg_map_each(&c->procs, an_list_proc, &l);
	qsort(l.v, l.n, sizeof(*l.v), an_proc_cmp);
	*out = l.v;
	return l.n;
}
