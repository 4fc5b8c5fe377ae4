/* SPDX-License-Identifier: MIT */
/* A trace's result merged: its findings and failed calls, then the rest. */
#include <stdlib.h>
#include <string.h>

#include "an_result.h"
#include "an_output.h"
#include "an_rule.h"

static const struct an_rule *an_rule_named(const char *id)
{
	for (unsigned i = 0; id && i < an_nrules; i++)
		if (!strcmp(an_rules[i]->id, id))
			return an_rules[i];
	return NULL;
}

static void an_get_call(struct an_rbuf *r, struct an_call *x)
{
	x->callsite = an_r_u64(r);
	x->api = (uint8_t)an_r_u64(r);
}

static struct an_finding *an_get_finding(struct an_get *g)
{
	struct an_rbuf *r = &g->r;
	char *id = an_r_str(r);
	struct an_finding *f = calloc(1, sizeof(*f));

	if (!f || !(f->rule = an_rule_named(id)))
		goto bad;
	free(id);
	f->sev = (enum an_sev)an_r_below(r, AN_SEV_ERROR + 1);
	f->proc = an_get_proc_ref(g);
	if (an_r_u64(r)) {
		uint64_t handle = an_r_u64(r);

		if (f->proc)
			f->kernel = hg_map_get(&f->proc->kernels, handle);
	}
	f->has_alloc = an_r_u64(r) != 0;
	if (f->has_alloc)
		an_get_alloc(r, &f->alloc);
	f->nprocs = (unsigned)an_r_u64(r);
	f->count = an_r_u64(r);
	f->first_ns = an_r_u64(r);
	f->first_tid = (int32_t)an_r_i64(r);
	f->message = an_r_str(r);
	an_r_chars(r, f->atomic_at, sizeof(f->atomic_at));
	an_r_chars(r, f->atomic_lines, sizeof(f->atomic_lines));
	an_get_call(r, &f->call);
	an_get_call(r, &f->freed);
	f->arg = (uint32_t)an_r_below(r, 65537);
	f->observed = an_r_u64(r);
	an_r_chars(r, f->observed_op, sizeof(f->observed_op));
	if (!f->proc)
		r->bad = true;
	return f;
bad:
	/* A rule this hipgrain does not have: a summary of another version. */
	free(id);
	free(f);
	r->bad = true;
	return NULL;
}

/* The result's list, newest first, goes before the report's: its trace
 * was read after theirs (or, grouped as it arrives, into g->found). */
static void an_get_findings(struct an_get *g, struct an_ctx *c)
{
	struct an_finding *head = NULL, **tail = &head;

	for (uint64_t n = an_r_u64(&g->r); n && !g->r.bad; n--) {
		struct an_finding *f = an_get_finding(g);

		if (!f)
			break;
		*tail = f;
		tail = &f->all_next;
	}
	if (c->live) {
		g->found = head;
		return;
	}
	*tail = c->findings;
	c->findings = head;
}

static void an_get_fails(struct an_get *g, struct an_ctx *c)
{
	struct an_fail *head = NULL, **tail = &head;

	for (uint64_t n = an_r_u64(&g->r); n && !g->r.bad; n--) {
		struct an_fail *f = calloc(1, sizeof(*f));

		if (!f) {
			g->r.bad = true;
			break;
		}
		f->api = (uint8_t)an_r_u64(&g->r);
		f->rc = (int32_t)an_r_i64(&g->r);
		f->count = an_r_u64(&g->r);
		f->proc = an_get_proc_ref(g);
		f->no_gpu = an_r_u64(&g->r) != 0;
		*tail = f;
		tail = &f->next;
	}
	*tail = c->fails;
	c->fails = head;
}

static bool an_get_head(struct an_rbuf *r, int *rc, char **msgs)
{
	size_t m = strlen(AN_RESULT_MAGIC);
	const uint8_t *p = an_r_bytes(r, m);

	if (!p || memcmp(p, AN_RESULT_MAGIC, m) ||
	    an_r_u64(r) != AN_RESULT_VERSION)
		return false;
	*rc = (int)an_r_i64(r);
	*msgs = an_r_str(r);
	return !r->bad && *rc >= -1 && *rc <= 1;
}

int an_result_merge(struct an_ctx *c, const void *p, size_t n, FILE *err,
		    const char *what)
{
	struct an_get g = {.r = {p, (const uint8_t *)p + n}};
	char *msgs = NULL;
	size_t rows_from;
	int rc;

	if (!an_get_head(&g.r, &rc, &msgs)) {
		fprintf(err, "hipgrain report: %s: not a summary this hipgrain "
			     "reads (damaged, or written by another version)\n",
			what);
		free(msgs);
		return AN_RESULT_BAD;
	}
	if (msgs)
		fputs(msgs, err);
	free(msgs);
	an_get_counters(&g, c);
	if (an_get_procs(&g, c))
		g.r.bad = true;
	rows_from = c->exec.nrows;
	an_get_findings(&g, c);
	an_get_fails(&g, c);
	an_get_more(&g, c);
	an_get_tl(&g, c);
	free(g.procs);
	if (c->live && an_groups_arrive(c, g.found, rows_from))
		g.r.bad = true;
	if (g.r.bad || g.r.p != g.r.end) {
		fprintf(err, "hipgrain report: %s: damaged summary\n", what);
		return AN_RESULT_BAD;
	}
	return rc;
}
