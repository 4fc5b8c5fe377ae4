/* SPDX-License-Identifier: MIT */
/*
 * The trace as Chrome trace-event JSON, which ui.perfetto.dev and
 * chrome://tracing open: a track per process and thread, HIP calls and
 * launches as slices, allocations as async slices from alloc to free,
 * findings as instants, live bytes per allocator and granularity as
 * counters.  Events are points in time (a call is recorded when it returns),
 * so slices have no duration, except the driver's migrations: the driver
 * times their start and end.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "an_names.h"
#include "an_output.h"
#include "an_rule.h"
#include "an_view.h"
#include "hg_json.h"
#include "kd_smi.h"

#define AN_PF_SITES 256

struct an_pf_site {
	const struct an_proc *p;
	uint64_t id;
	char text[256];
};

struct an_pf {
	FILE *out;
	struct an_pf_site *sites; /* a cache, AN_PF_SITES of them */
	struct an_ctx *c;
	struct an_view *v;
	uint64_t t0;
	bool more; /* an event was written: the next one needs a comma */
};

static void an_pf_sep(struct an_pf *f)
{
	fputs(f->more ? ",\n" : "\n", f->out);
	f->more = true;
}

/* Microseconds since the trace began, to the nanosecond. */
static void an_pf_ts(struct an_pf *f, uint64_t t)
{
	t = t > f->t0 ? t - f->t0 : 0;
	fprintf(f->out, "\"ts\":%" PRIu64 ".%03u", t / 1000,
		(unsigned)(t % 1000));
}

static void an_pf_head(struct an_pf *f, const char *ph,
		       const struct an_view_proc *vp, int32_t tid, uint64_t t)
{
	an_pf_sep(f);
	fprintf(f->out, "{\"ph\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%d,", ph,
		vp->pid, tid ? tid : (int)vp->p->vpid);
	an_pf_ts(f, t);
}

static void an_pf_block_name(struct an_pf *f, const struct an_tl_rec *b)
{
	fprintf(f->out,
		",\"cat\":\"allocation\",\"name\":\"%s %s\","
		"\"id2\":{\"local\":\"0x%" PRIx64 "\"}",
		an_api_name(b->api), an_gran_name(b->gran), b->id);
}

/* "app.hip:42 (main)" of a call site: the number alone is an id nothing
 * else in the file explains.  Symbolised once per site, not per block. */
static const char *an_pf_site(struct an_pf *f, struct an_proc *p,
			      uint64_t callsite)
{
	struct an_pf_site *e = &f->sites[callsite % AN_PF_SITES];
	struct an_frame fr[AN_MAX_FRAMES];
	int n;

	if (e->p == p && e->id == callsite)
		return e->text;
	n = an_sym_site(p, callsite, fr, AN_MAX_FRAMES);
	e->p = p;
	e->id = callsite;
	an_site_text(fr, n, e->text, sizeof(e->text));
	an_frames_free(fr, n);
	return e->text;
}

static void an_pf_alloc(struct an_pf *f, const struct an_step *s)
{
	const struct an_tl_rec *r = s->r;

	an_pf_head(f, "b", s->vp, r->tid, r->t);
	an_pf_block_name(f, r);
	fprintf(f->out,
		",\"args\":{\"size\":%" PRIu64 ",\"memory\":\"%s\","
		"\"callsite\":%" PRIu64 ",\"site\":",
		r->size, an_mem_name(r->mem), r->x);
	hg_json_str(f->out, r->x ? an_pf_site(f, s->vp->p, r->x) : "");
	fputs("}}", f->out);
}

static void an_pf_end(struct an_pf *f, const struct an_view_proc *vp,
		      const struct an_tl_rec *block, int32_t tid, uint64_t t)
{
	an_pf_head(f, "e", vp, tid, t);
	an_pf_block_name(f, block);
	fputc('}', f->out);
}

static void an_pf_counter(struct an_pf *f, const struct an_step *s)
{
	char name[96];

	an_pf_head(f, "C", s->vp, 0, s->r->t);
	fputs(",\"name\":\"live bytes\",\"args\":{", f->out);
	for (unsigned i = 0; i < s->vp->nseries; i++) {
		an_series_name(s->vp->key[i], name, sizeof(name));
		fprintf(f->out, "%s\"%s\":%" PRIu64, i ? "," : "", name,
			s->vp->live[i]);
	}
	fputs("}}", f->out);
}

static void an_pf_launch(struct an_pf *f, const struct an_step *s)
{
	const struct an_tl_rec *r = s->r;
	const struct an_kernel *k = an_kernel_get(r->proc, r->id, false);

	an_pf_head(f, "X", s->vp, r->tid, r->t);
	fputs(",\"dur\":0,\"cat\":\"launch\",\"name\":", f->out);
	hg_json_str(f->out, an_kernel_label(k));
	fprintf(f->out,
		",\"args\":{\"launches\":%" PRIu64 ",\"rc\":%d,\"arguments\":[",
		r->size, r->rc);
	for (unsigned i = 0; i < r->nargs; i++) {
		const struct an_tl_arg *a = &s->args[i];
		const struct an_tl_rec *b =
		    an_view_block(f->v, s->vp, a->alloc);

		fprintf(
		    f->out,
		    "%s{\"index\":%u,\"granularity\":\"%s\",\"memory\":\"%s\"",
		    i ? "," : "", a->index, an_gran_name(a->gran),
		    an_mem_name(a->mem));
		if (b)
			fprintf(f->out,
				",\"allocation\":\"%s 0x%" PRIx64 ", %" PRIu64
				" bytes\"",
				an_api_name(b->api), b->id, b->size);
		fputc('}', f->out);
	}
	fputs("]}}", f->out);
}

static void an_pf_call(struct an_pf *f, const struct an_step *s)
{
	an_pf_head(f, "X", s->vp, s->r->tid, s->r->t);
	fprintf(
	    f->out,
	    ",\"dur\":0,\"cat\":\"hip\",\"name\":\"%s\",\"args\":{\"rc\":%d",
	    an_api_name(s->r->api), s->r->rc);
	if (s->r->size)
		fprintf(f->out, ",\"bytes\":%" PRIu64, s->r->size);
	fputs("}}", f->out);
}

static void an_pf_step(const struct an_step *s, void *arg)
{
	struct an_pf *f = arg;

	switch (s->r->kind) {
	case AN_TL_ALLOC:
		an_pf_alloc(f, s);
		an_pf_counter(f, s);
		break;
	case AN_TL_FREE:
		if (s->block)
			an_pf_end(f, s->vp, s->block, s->r->tid, s->r->t);
		an_pf_counter(f, s);
		break;
	case AN_TL_GRAN:
		an_pf_counter(f, s);
		break;
	case AN_TL_LAUNCH:
		an_pf_launch(f, s);
		break;
	default:
		an_pf_call(f, s);
	}
}

static void an_pf_meta(struct an_pf *f, const struct an_view_proc *vp,
		       const char *what, int64_t tid, const char *name)
{
	an_pf_sep(f);
	fprintf(f->out,
		"{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%" PRId64
		",\"name\":\"%s\",\"args\":{\"name\":",
		vp->pid, tid, what);
	hg_json_str(f->out, name);
	fputs("}}", f->out);
}

/* A thread's track is named once, at its first record. */
static void an_pf_thread(struct an_pf *f, struct hg_map *seen,
			 const struct an_view_proc *vp, int32_t tid,
			 const char *what)
{
	uint64_t key = ((uint64_t)vp->idx << 32 | (uint32_t)tid) + 1;
	char name[64];

	if (!tid || hg_map_get(seen, key) || hg_map_put(seen, key, (void *)1))
		return;
	snprintf(name, sizeof(name), "%s thread %d",
		 tid == vp->p->vpid ? "main" : what, tid);
	an_pf_meta(f, vp, "thread_name", tid, name[0] == ' ' ? name + 1 : name);
}

static void an_pf_procs(struct an_pf *f)
{
	struct hg_map seen = {0};
	char where[256];

	for (size_t i = 0; i < f->v->n; i++) {
		const struct an_view_proc *vp = &f->v->procs[i];

		an_where(vp->p, where, sizeof(where));
		an_pf_meta(f, vp, "process_name", vp->p->vpid, where);
		an_pf_sep(f);
		fprintf(f->out,
			"{\"ph\":\"M\",\"pid\":%" PRId64 ",\"name\":"
			"\"process_sort_index\",\"args\":{\"sort_index\":%u}}",
			vp->pid, vp->idx);
	}
	for (size_t i = 0; f->c->tl && i < f->c->tl->n; i++) {
		const struct an_tl_rec *r = &f->c->tl->r[i];

		an_pf_thread(f, &seen, an_view_of(f->v, r->proc), r->tid, "");
	}
	for (size_t i = 0; f->c->tl && i < f->c->tl->nmig; i++) {
		const struct an_tl_mig *m = &f->c->tl->mig[i];

		an_pf_thread(f, &seen, an_view_of(f->v, m->proc), m->tid,
			     "driver events");
	}
	hg_map_fini(&seen);
}

static void an_pf_findings(struct an_pf *f)
{
	for (const struct an_finding *x = f->c->findings; x; x = x->all_next) {
		const struct an_view_proc *vp = an_view_of(f->v, x->proc);

		if (!vp)
			continue;
		an_pf_head(f, "i", vp, x->first_tid, x->first_ns);
		fputs(",\"s\":\"p\",\"cat\":\"finding\",\"name\":", f->out);
		hg_json_str(f->out, x->rule->id);
		fprintf(f->out,
			",\"args\":{\"severity\":\"%s\",\"count\":%" PRIu64
			",\"message\":",
			an_sev_name(x->sev), x->count);
		hg_json_str(f->out, x->message);
		fputs(",\"fix\":", f->out);
		hg_json_str(f->out, an_rule_fix(x));
		fputs("}}", f->out);
	}
}

static void an_pf_migrations(struct an_pf *f)
{
	char name[128];

	for (size_t i = 0; f->c->tl && i < f->c->tl->nmig; i++) {
		const struct an_tl_mig *m = &f->c->tl->mig[i];
		const struct an_view_proc *vp = an_view_of(f->v, m->proc);
		const char *why = kd_smi_trigger_name(KFD_SMI_EVENT_MIGRATE_START,
						      m->trigger);

		if (!vp)
			continue;
		an_tl_mig_name(m, name, sizeof(name));
		an_pf_head(f, "X", vp, m->tid, m->t);
		fprintf(f->out, ",\"dur\":%" PRIu64 ".%03u,\"cat\":\"migration\","
				"\"name\":", m->dur / 1000, (unsigned)(m->dur % 1000));
		hg_json_str(f->out, name);
		fprintf(f->out, ",\"args\":{\"address\":\"0x%" PRIx64 "\",\"bytes\":%"
				PRIu64 ",\"from\":%u,\"to\":%u,\"trigger\":",
			m->addr, m->size, m->from, m->to);
		hg_json_str(f->out, why ? why : "");
		fprintf(f->out, ",\"error\":%d,\"ended\":%s}}", m->error,
			m->ended ? "true" : "false");
	}
}

static void an_pf_still_live(void *val, void *arg)
{
	struct an_pf *f = arg;
	const struct an_tl_rec *b = *(const struct an_tl_rec *const *)val;

	an_pf_end(f, an_view_of(f->v, b->proc), b, b->tid, f->c->tl->t1);
}

void an_write_perfetto(struct an_ctx *c, const struct an_groups *gs, FILE *out)
{
	struct an_view v = {0};
	struct an_pf f = {.out = out, .c = c, .v = &v,
			  .t0 = c->tl ? c->tl->t0 : 0,
			  .sites = calloc(AN_PF_SITES, sizeof(*f.sites))};

	if (!f.sites || an_view_build(c, &v)) {
		an_view_fini(&v);
		free(f.sites);
		return;
	}
	fputs(
	    "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"hipgrain\"},"
	    "\"traceEvents\":[",
	    out);
	an_pf_procs(&f);
	an_view_walk(c, &v, an_pf_step, &f);
	if (c->tl)
		hg_map_each(&v.blocks, an_pf_still_live, &f);
	an_pf_migrations(&f);
	an_pf_findings(&f);
	fputs("\n]}\n", out);
	an_view_fini(&v);
	free(f.sites);
}
