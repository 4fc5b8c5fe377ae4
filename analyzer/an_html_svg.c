/* SPDX-License-Identifier: MIT */
/*
 * The placement map: per process, live bytes over time stacked by allocator
 * and granularity.  The timeline is cut into AN_BINS intervals before
 * anything is drawn, so a million allocations make the same small picture;
 * each interval shows the series as they were when that process's total was
 * highest in it (a peak is never averaged away).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "an_fmt.h"
#include "an_html.h"
#include "an_names.h"
#include "an_rule.h"

#define AN_BINS	     480
#define AN_BINS_TEXT "480"
#define AN_PLOT_W    960.0
#define AN_PLOT_H    200.0
#define AN_LEFT	     70.0
#define AN_TOP	     10.0

struct an_bins {
	uint64_t *v;	/* AN_BINS × nseries, the snapshot at the peak */
	uint64_t *tot;	/* AN_BINS totals */
	uint64_t *last; /* nseries: the state after the latest event */
	uint64_t last_tot;
	int cur; /* latest bin written, -1 before the first */
};

struct an_placement {
	struct an_bins *b;
	uint64_t t0, span;
};

static int an_bin_of(const struct an_placement *pl, uint64_t t)
{
	uint64_t d = t > pl->t0 ? t - pl->t0 : 0;

	return (int)(d * AN_BINS / pl->span < AN_BINS ? d * AN_BINS / pl->span
						      : AN_BINS - 1);
}

static void an_bin_fill(struct an_bins *b, unsigned ns, int upto)
{
	for (int i = b->cur + 1; i < upto; i++) {
		memcpy(&b->v[(size_t)i * ns], b->last, ns * sizeof(uint64_t));
		b->tot[i] = b->last_tot;
	}
}

static void an_bin_step(const struct an_step *s, void *arg)
{
	struct an_placement *pl = arg;
	struct an_bins *b = &pl->b[s->vp->idx];
	unsigned ns = s->vp->nseries;
	int i = an_bin_of(pl, s->r->t);

	if (s->r->kind != AN_TL_ALLOC && s->r->kind != AN_TL_FREE &&
	    s->r->kind != AN_TL_GRAN)
		return;
	if (i > b->cur) {
		an_bin_fill(b, ns, i + 1); /* bin i starts as the last state */
		b->cur = i;
	}
	if (s->vp->total >= b->tot[i]) {
		memcpy(&b->v[(size_t)i * ns], s->vp->live,
		       ns * sizeof(uint64_t));
		b->tot[i] = s->vp->total;
	}
	memcpy(b->last, s->vp->live, ns * sizeof(uint64_t));
	b->last_tot = s->vp->total;
}

/* Coarse in blues, fine in reds, mixed in purple; allocators vary the shade. */
static void an_color(unsigned series, unsigned nth, char *buf, size_t cap)
{
	static const int hue[4] = {0, 210, 12,
				   280}; /* unknown, coarse, fine, mixed */
	unsigned g = series % 4;

	snprintf(buf, cap, "hsl(%d,%d%%,%u%%)", hue[g], g ? 70 : 0,
		 38 + (nth * 13) % 40);
}

static double an_x(int i)
{
	return AN_LEFT + (i + 0.5) * AN_PLOT_W / AN_BINS;
}

static double an_y(uint64_t v, uint64_t ymax)
{
	return AN_TOP + AN_PLOT_H - (double)v / (double)ymax * AN_PLOT_H;
}

/* One series as a closed band between the series below it and its top. */
static void an_svg_band(FILE *out, const struct an_bins *b, unsigned ns,
			unsigned k, uint64_t ymax)
{
	fputs(" d=\"M", out);
	for (int i = 0; i < AN_BINS; i++) {
		uint64_t top = 0;

		for (unsigned j = 0; j <= k; j++)
			top += b->v[(size_t)i * ns + j];
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", an_x(i),
			an_y(top, ymax));
	}
	for (int i = AN_BINS - 1; i >= 0; i--) {
		uint64_t low = 0;

		for (unsigned j = 0; j < k; j++)
			low += b->v[(size_t)i * ns + j];
		fprintf(out, " %.1f,%.1f", an_x(i), an_y(low, ymax));
	}
	fputs("Z\"", out);
}

static void an_svg_axes(FILE *out, uint64_t ymax, uint64_t span)
{
	char top[32];

	an_bytes_text(ymax, top, sizeof(top));
	fprintf(out,
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
		"class=\"axis\"/>"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
		"class=\"axis\"/>",
		AN_LEFT, AN_TOP, AN_LEFT, AN_TOP + AN_PLOT_H, AN_LEFT,
		AN_TOP + AN_PLOT_H, AN_LEFT + AN_PLOT_W, AN_TOP + AN_PLOT_H);
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" "
		"text-anchor=\"end\">%s</text>"
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" "
		"text-anchor=\"end\">0</text>",
		AN_LEFT - 4, AN_TOP + 10, top, AN_LEFT - 4, AN_TOP + AN_PLOT_H);
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">0 s</text>"
		"<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" "
		"text-anchor=\"end\">%.6f s</text>",
		AN_LEFT, AN_TOP + AN_PLOT_H + 14, AN_LEFT + AN_PLOT_W,
		AN_TOP + AN_PLOT_H + 14, (double)span / 1e9);
}

static void an_svg_marks(FILE *out, struct an_ctx *c,
			 const struct an_view_proc *vp,
			 const struct an_placement *pl)
{
	for (const struct an_finding *f = c->findings; f; f = f->all_next) {
		double x;

		if (f->proc != vp->p)
			continue;
		x = an_x(an_bin_of(pl, f->first_ns));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
			"class=\"mark sev-%s\"><title>",
			x, AN_TOP, x, AN_TOP + AN_PLOT_H, an_sev_name(f->sev));
		an_html_esc(out, f->rule->id);
		fputs("</title></line>", out);
	}
}

/* The driver's migrations as ticks under the plot, one per interval that
 * had some, its title the count and the bytes. */
static void an_svg_migrations(FILE *out, struct an_ctx *c,
			      const struct an_view_proc *vp,
			      const struct an_placement *pl)
{
	struct {
		uint32_t n;
		uint64_t bytes;
	} bin[AN_BINS] = {{0}};
	char moved[32];

	for (size_t i = 0; i < c->tl->nmig; i++) {
		const struct an_tl_mig *m = &c->tl->mig[i];

		if (m->proc != vp->p)
			continue;
		bin[an_bin_of(pl, m->t)].n++;
		bin[an_bin_of(pl, m->t)].bytes += m->size;
	}
	for (int i = 0; i < AN_BINS; i++) {
		if (!bin[i].n)
			continue;
		an_bytes_text(bin[i].bytes, moved, sizeof(moved));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
			"class=\"mig\"><title>%u migration%s, %s moved"
			"</title></line>",
			an_x(i), AN_TOP + AN_PLOT_H - 12, an_x(i),
			AN_TOP + AN_PLOT_H, bin[i].n, bin[i].n == 1 ? "" : "s",
			moved);
	}
}

static void an_svg_legend(FILE *out, const struct an_view_proc *vp)
{
	char name[96], color[48], peak[32];

	fputs("<ul class=\"legend\">", out);
	for (unsigned k = 0; k < vp->nseries; k++) {
		an_series_name(vp->key[k], name, sizeof(name));
		an_color(vp->key[k], k, color, sizeof(color));
		an_bytes_text(vp->speak[k], peak, sizeof(peak));
		fprintf(
		    out,
		    "<li><span class=\"swatch\" style=\"background:%s\"></span>"
		    "%s <small>(peak %s)</small></li>",
		    color, name, peak);
	}
	fputs("</ul>", out);
}

static uint64_t an_bins_max(const struct an_bins *b)
{
	uint64_t ymax = 0;

	for (int i = 0; i < AN_BINS; i++)
		ymax = b->tot[i] > ymax ? b->tot[i] : ymax;
	return ymax;
}

/* A process with no allocation live gets no map: an MPI job's launchers
 * and daemons (mpirun, orted) are named together in one line after the
 * maps, not given a section each saying "peak 0 B live". */
static void an_svg_folded(FILE *out, const struct an_view *v,
			  const struct an_placement *pl)
{
	char where[256];
	unsigned n = 0;

	for (size_t i = 0; i < v->n; i++) {
		if (an_bins_max(&pl->b[v->procs[i].idx]))
			continue;
		fputs(n++ ? ", " : "<p class=\"idle\">No allocation the trace "
				   "saw was live in ", out);
		an_where(v->procs[i].p, where, sizeof(where));
		an_html_esc(out, where);
	}
	if (n)
		fputs(".</p>", out);
}

static void an_svg_proc(FILE *out, struct an_ctx *c,
			const struct an_view_proc *vp,
			const struct an_placement *pl)
{
	const struct an_bins *b = &pl->b[vp->idx];
	char where[256], peak[32], name[96], color[48];
	uint64_t ymax = an_bins_max(b);

	if (!ymax)
		return; /* an_svg_folded names it */
	an_where(vp->p, where, sizeof(where));
	an_bytes_text(vp->peak, peak, sizeof(peak));
	fputs("<div class=\"proc\"><h3>", out);
	an_html_esc(out, where);
	fprintf(out, " <small>peak %s live</small></h3>", peak);
	fprintf(out,
		"<svg class=\"placement\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\" data-pid=\"%" PRId64 "\">",
		AN_LEFT + AN_PLOT_W + 10, AN_TOP + AN_PLOT_H + 20, vp->pid);
	for (unsigned k = 0; k < vp->nseries; k++) {
		an_series_name(vp->key[k], name, sizeof(name));
		an_color(vp->key[k], k, color, sizeof(color));
		fprintf(out,
			"<path class=\"series\" data-series=\"%s\" fill=\"%s\"",
			name, color);
		an_svg_band(out, b, vp->nseries, k, ymax);
		fprintf(out, "><title>%s</title></path>", name);
	}
	an_svg_marks(out, c, vp, pl);
	an_svg_migrations(out, c, vp, pl);
	an_svg_axes(out, ymax, pl->span);
	fputs("</svg>", out);
	an_svg_legend(out, vp);
	fputs("</div>", out);
}

static int an_bins_alloc(struct an_placement *pl, const struct an_view *v)
{
	pl->b = calloc(v->n ? v->n : 1, sizeof(*pl->b));
	if (!pl->b)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		size_t ns = v->procs[i].nseries + 1;

		pl->b[i].cur = -1;
		pl->b[i].v = calloc(AN_BINS * ns, sizeof(uint64_t));
		pl->b[i].tot = calloc(AN_BINS, sizeof(uint64_t));
		pl->b[i].last = calloc(ns, sizeof(uint64_t));
		if (!pl->b[i].v || !pl->b[i].tot || !pl->b[i].last)
			return -1;
	}
	return 0;
}

static void an_bins_free(struct an_placement *pl, size_t n)
{
	for (size_t i = 0; pl->b && i < n; i++) {
		free(pl->b[i].v);
		free(pl->b[i].tot);
		free(pl->b[i].last);
	}
	free(pl->b);
}

void an_html_placement(struct an_ctx *c, struct an_view *v, FILE *out)
{
	struct an_placement pl = {0};

	fputs("<section id=\"placement\"><h2>Placement map</h2><p>Bytes live "
	      "over "
	      "time in each process, stacked by allocator and granularity "
	      "(each of " AN_BINS_TEXT
	      " intervals shows the moment its total peaked); "
	      "vertical lines are findings, ticks on the time axis the "
	      "driver's page migrations.</p>",
	      out);
	if (!c->tl || an_bins_alloc(&pl, v)) {
		fputs("<p>No timeline.</p></section>", out);
		an_bins_free(&pl, v->n);
		return;
	}
	pl.t0 = c->tl->t0;
	pl.span = c->tl->t1 - c->tl->t0 + 1;
	an_view_walk(c, v, an_bin_step, &pl);
	for (size_t i = 0; i < v->n; i++) {
		an_bin_fill(&pl.b[i], v->procs[i].nseries, AN_BINS);
		an_svg_proc(out, c, &v->procs[i], &pl);
	}
	an_svg_folded(out, v, &pl);
	fputs("</section>", out);
	an_bins_free(&pl, v->n);
}
