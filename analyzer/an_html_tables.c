/* SPDX-License-Identifier: MIT */
/*
 * The report's two tables.  Allocations are grouped by process, allocator,
 * granularity and call site before anything is written, so 100,000 blocks
 * from one loop make one row; the largest groups come first and the table
 * stops at AN_MAX_ROWS.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "an_fmt.h"
#include "an_html.h"
#include "an_names.h"
#include "an_rule.h"

#define AN_MAX_ROWS 1000
#define AN_MAX_ARGS 16

struct an_agroup {
	const struct an_view_proc *vp;
	uint64_t callsite, blocks, bytes, largest, launches;
	char *site; /* symbolised, for the rows shown */
	uint8_t api, gran;
};

struct an_kstat {
	const struct an_view_proc *vp;
	uint64_t handle, launches, failed;
	uint8_t grans[AN_MAX_ARGS]; /* per argument: bit per granularity seen */
	unsigned nargs;
};

struct an_tables {
	struct hg_map gidx, kidx; /* key → 1 + index */
	struct an_agroup *g;
	struct an_kstat *k;
	size_t ng, nk;
	bool failed;
};

static uint64_t an_gkey(const struct an_view_proc *vp,
			const struct an_tl_rec *r)
{
	uint64_t h = r->x * 0x9e3779b97f4a7c15ull;

	return h ^ ((uint64_t)vp->idx << 20) ^ ((uint64_t)r->api << 2) ^
	       r->gran;
}

static void *an_slot(struct hg_map *m, uint64_t key, void **arr, size_t *n,
		     size_t size, bool *fresh)
{
	uintptr_t i = (uintptr_t)hg_map_get(m, key);
	char *grown;

	*fresh = !i;
	if (i)
		return (char *)*arr + (i - 1) * size;
	grown = realloc(*arr, (*n + 1) * size);
	if (!grown)
		return NULL;
	*arr = grown;
	if (hg_map_put(m, key, (void *)(uintptr_t)(*n + 1)))
		return NULL;
	memset(grown + *n * size, 0, size);
	return grown + (*n)++ * size;
}

static struct an_agroup *an_group_of(struct an_tables *t,
				     const struct an_view_proc *vp,
				     const struct an_tl_rec *r)
{
	for (uint64_t key = an_gkey(vp, r);; key++) {
		bool fresh;
		struct an_agroup *g = an_slot(&t->gidx, key, (void **)&t->g,
					      &t->ng, sizeof(*g), &fresh);

		if (!g)
			return NULL;
		if (fresh)
			*g = (struct an_agroup){.vp = vp,
						.callsite = r->x,
						.api = r->api,
						.gran = r->gran};
		if (g->vp == vp && g->callsite == r->x && g->api == r->api &&
		    g->gran == r->gran)
			return g;
	}
}

static struct an_kstat *an_kernel_of(struct an_tables *t,
				     const struct an_view_proc *vp,
				     uint64_t handle)
{
	for (uint64_t key = handle * 31 + vp->idx;; key++) {
		bool fresh;
		struct an_kstat *k = an_slot(&t->kidx, key, (void **)&t->k,
					     &t->nk, sizeof(*k), &fresh);

		if (!k)
			return NULL;
		if (fresh)
			*k = (struct an_kstat){.vp = vp, .handle = handle};
		if (k->vp == vp && k->handle == handle)
			return k;
	}
}

static void an_tables_launch(struct an_tables *t, struct an_view *v,
			     const struct an_step *s)
{
	struct an_kstat *k = an_kernel_of(t, s->vp, s->r->id);

	if (!k) {
		t->failed = true;
		return;
	}
	k->launches += s->r->size;
	k->failed += s->r->rc ? s->r->size : 0;
	for (unsigned i = 0; i < s->r->nargs; i++) {
		const struct an_tl_arg *a = &s->args[i];
		const struct an_tl_rec *b = an_view_block(v, s->vp, a->alloc);
		struct an_agroup *g = b ? an_group_of(t, s->vp, b) : NULL;

		if (g)
			g->launches += s->r->size;
		if (a->index < AN_MAX_ARGS) {
			k->grans[a->index] |= (uint8_t)(1u << (a->gran & 3));
			if (a->index + 1u > k->nargs)
				k->nargs = a->index + 1u;
		}
	}
}

struct an_tables_walk {
	struct an_tables *t;
	struct an_view *v;
};

static void an_tables_step(const struct an_step *s, void *arg)
{
	struct an_tables_walk *w = arg;
	struct an_agroup *g;

	if (s->r->kind == AN_TL_LAUNCH) {
		an_tables_launch(w->t, w->v, s);
		return;
	}
	if (s->r->kind != AN_TL_ALLOC)
		return;
	g = an_group_of(w->t, s->vp, s->r);
	if (!g) {
		w->t->failed = true;
		return;
	}
	g->blocks++;
	g->bytes += s->r->size;
	g->largest = s->r->size > g->largest ? s->r->size : g->largest;
}

static int an_by_bytes(const void *a, const void *b)
{
	const struct an_agroup *x = a, *y = b;

	/* Largest first; ties in a fixed order, so every run shows the same. */
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->vp->idx != y->vp->idx)
		return x->vp->idx < y->vp->idx ? -1 : 1;
	if (x->callsite != y->callsite)
		return x->callsite < y->callsite ? -1 : 1;
	return (int)x->api * 4 + x->gran - ((int)y->api * 4 + y->gran);
}

/* A table cell that sorts by the number v, shown as text. */
static void an_num_cell(FILE *out, uint64_t v, const char *text)
{
	fprintf(out, "<td data-v=\"%" PRIu64 "\">%s</td>", v, text);
}

static int an_by_proc(const void *a, const void *b)
{
	const struct an_agroup *x = a, *y = b;

	return x->vp->idx < y->vp->idx ? -1 : x->vp->idx > y->vp->idx;
}

/*
 * Call sites of the rows shown, process by process: a symboliser holds a
 * process's objects and their DWARF, so each is let go after its process's
 * last row (as an_group_add does), and a job of many ranks holds one.
 */
static void an_symbolise(struct an_agroup *g, size_t n)
{
	struct an_frame fr[AN_MAX_FRAMES];
	char site[1024];

	qsort(g, n, sizeof(*g), an_by_proc);
	for (size_t i = 0; i < n; i++) {
		int nf = an_sym_site(g[i].vp->p, g[i].callsite, fr,
				     AN_MAX_FRAMES);

		an_site_text(fr, nf, site, sizeof(site));
		g[i].site = site[0] ? strdup(site) : NULL;
		an_frames_free(fr, nf);
		if (i + 1 == n || g[i + 1].vp != g[i].vp)
			an_sym_proc_fini(g[i].vp->p);
	}
	qsort(g, n, sizeof(*g), an_by_bytes);
}

static void an_site_cell(FILE *out, const struct an_agroup *g)
{
	fputs("<td class=\"site\">", out);
	if (g->site)
		an_html_esc(out, g->site);
	else
		fprintf(out, "call site #%" PRIu64 " (no symbols)",
			g->callsite);
	fputs("</td>", out);
}

static void an_alloc_row(FILE *out, const struct an_agroup *g)
{
	char where[256], bytes[32], largest[32], n[32];

	an_where(g->vp->p, where, sizeof(where));
	an_bytes_text(g->bytes, bytes, sizeof(bytes));
	an_bytes_text(g->largest, largest, sizeof(largest));
	fputs("<tr><td>", out);
	an_html_esc(out, where);
	fprintf(out, "</td><td>%s</td><td>%s</td>", an_api_name(g->api),
		an_gran_name(g->gran));
	snprintf(n, sizeof(n), "%" PRIu64, g->blocks);
	an_num_cell(out, g->blocks, n);
	an_num_cell(out, g->bytes, bytes);
	an_num_cell(out, g->largest, largest);
	an_site_cell(out, g);
	snprintf(n, sizeof(n), "%" PRIu64, g->launches);
	an_num_cell(out, g->launches, n);
	fputs("</tr>\n", out);
}

static void an_alloc_table(FILE *out, struct an_tables *t)
{
	size_t shown = t->ng < AN_MAX_ROWS ? t->ng : AN_MAX_ROWS;

	if (t->ng)
		qsort(t->g, t->ng, sizeof(*t->g), an_by_bytes);
	if (shown)
		an_symbolise(t->g, shown);
	fputs("<section id=\"allocations\"><h2>Allocations</h2><p>Blocks "
	      "grouped by "
	      "process, allocator, granularity at allocation and call site; "
	      "launches counts the launches that passed a pointer into one of "
	      "them. Click a heading to sort.</p>"
	      "<table class=\"sortable\" id=\"alloc-table\"><thead><tr>"
	      "<th>process</th><th>allocator</th><th>granularity</th>"
	      "<th class=\"num\">blocks</th><th class=\"num\">bytes</th>"
	      "<th class=\"num\">largest</th><th>call site</th>"
	      "<th class=\"num\">launches</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < shown; i++)
		an_alloc_row(out, &t->g[i]);
	fputs("</tbody></table>", out);
	if (shown < t->ng)
		fprintf(out, "<p>%zu smaller groups are not shown.</p>",
			t->ng - shown);
	fputs("</section>\n", out);
}

static void an_grans_cell(FILE *out, const struct an_kstat *k)
{
	fputs("<td>", out);
	for (unsigned i = 0; i < k->nargs; i++) {
		if (!k->grans[i])
			continue;
		fprintf(out, "<span class=\"arg\">%u:", i);
		for (unsigned g = 0; g < 4; g++)
			if (k->grans[i] & (1u << g))
				fprintf(out,
					" <span class=\"gran-%s\">%s</span>",
					an_gran_name(g), an_gran_name(g));
		fputs("</span> ", out);
	}
	fputs("</td>", out);
}

static void an_kernel_row(FILE *out, const struct an_kstat *k)
{
	const struct an_kernel *kn = an_kernel_get(k->vp->p, k->handle, false);
	char where[256], n[32];

	an_where(k->vp->p, where, sizeof(where));
	fputs("<tr><td class=\"kernel\">", out);
	an_html_esc(out, an_kernel_label(kn));
	fputs("</td><td>", out);
	an_html_esc(out, where);
	fputs("</td>", out);
	snprintf(n, sizeof(n), "%" PRIu64, k->launches);
	an_num_cell(out, k->launches, n);
	snprintf(n, sizeof(n), "%" PRIu64, k->failed);
	an_num_cell(out, k->failed, n);
	fputs("<td>", out);
	if (kn && kn->profiled) {
		an_html_esc(out, kn->target);
		fputs("</td><td>", out);
		an_html_esc(out, kn->fp_ops ? kn->fp_mnemonics : "-");
		fputs("</td><td>", out);
		an_html_esc(out, kn->int_ops ? kn->int_mnemonics : "-");
		fprintf(out, "</td><td data-v=\"%u\">%u</td>", kn->cas_count,
			kn->cas_count);
	} else {
		fputs(
		    "</td><td>not profiled</td><td></td><td data-v=\"0\"></td>",
		    out);
	}
	an_grans_cell(out, k);
	fputs("</tr>\n", out);
}

static void an_kernel_table(FILE *out, const struct an_tables *t)
{
	fputs(
	    "<section id=\"kernels\"><h2>Kernels</h2><table class=\"sortable\" "
	    "id=\"kernel-table\"><thead><tr><th>kernel</th><th>process</th>"
	    "<th class=\"num\">launches</th><th class=\"num\">failed</th>"
	    "<th>target</th><th>hardware FP atomics</th><th>integer "
	    "atomics</th>"
	    "<th class=\"num\">CAS</th><th>arguments' granularity</th></tr>"
	    "</thead><tbody>\n",
	    out);
	for (size_t i = 0; i < t->nk && i < AN_MAX_ROWS; i++)
		an_kernel_row(out, &t->k[i]);
	fputs("</tbody></table></section>\n", out);
}

void an_html_tables(struct an_ctx *c, struct an_view *v, FILE *out)
{
	struct an_tables t = {0};
	struct an_tables_walk w = {&t, v};

	an_view_walk(c, v, an_tables_step, &w);
	an_alloc_table(out, &t);
	an_kernel_table(out, &t);
	if (t.failed)
		fputs("<p class=\"warn\">Out of memory: the tables are "
		      "incomplete.</p>",
		      out);
	for (size_t i = 0; i < t.ng; i++)
		free(t.g[i].site);
	free(t.g);
	free(t.k);
	hg_map_fini(&t.gidx);
	hg_map_fini(&t.kidx);
}
