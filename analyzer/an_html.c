/* SPDX-License-Identifier: MIT */
/*
 * The report as one HTML page that needs nothing else: styles, the tables'
 * sorting script and the SVG pictures are inline, and its Content Security
 * Policy forbids every fetch, so it opens offline and never calls home.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_drv.h"
#include "an_gpus.h"
#include "an_fmt.h"
#include "an_html.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_json.h"

#define AN_MAX_SOURCE_LINE 1000000 /* deeper is not worth reading to */

static const char an_style[] =
    "body{font:14px/1.4 sans-serif;margin:1.5em auto;padding:0 "
    "1em;max-width:1100px;color:#222}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:1.6em}"
    "h3 small{font-weight:normal;color:#666}"
    ".finding{border-left:5px solid #999;padding:.3em .8em;margin:.8em "
    "0;background:#fafafa}"
    ".sev-error{border-color:#c62828}.sev-warning{border-color:#ef8f00}"
    ".sev-note{border-color:#1e88e5}.rule{font-family:monospace;font-weight:"
    "bold}"
    "pre.src{background:#f3f3f3;padding:.4em;overflow-x:auto}"
    "pre.src .hit{background:#ffe08a;display:inline-block;width:100%}"
    "table{border-collapse:collapse;width:100%;font-size:13px}"
    "th,td{border:1px solid #ddd;padding:3px "
    "6px;text-align:left;vertical-align:top}"
    "th{background:#eee;cursor:pointer}td[data-v]{text-align:right}"
    "td.site,td.kernel{font-family:monospace;word-break:break-all}"
    "svg.placement{width:100%;height:auto;background:#fff}"
    ".axis{stroke:#444}.tick{font-size:11px;fill:#444}"
    ".mark{stroke-width:1.5;stroke-dasharray:4 "
    "2}.mark.sev-error{stroke:#c62828}"
    ".mark.sev-warning{stroke:#ef8f00}.mark.sev-note{stroke:#1e88e5}"
    ".mig{stroke:#2e7d32;stroke-width:3}"
    "ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1em}"
    ".swatch{display:inline-block;width:12px;height:12px;margin-right:4px}"
    ".gran-fine{color:#c62828}.gran-coarse{color:#1565c0}.gran-mixed{color:#"
    "7b1fa2}"
    ".warn{color:#b35c00}";

/* Sorts a table by the clicked column: numbers by data-v, text otherwise. */
static const char an_script[] =
    "document.querySelectorAll('table.sortable th').forEach(function(th,i){"
    "th.addEventListener('click',function(){"
    "var b=th.closest('table').tBodies[0],rows=Array.from(b.rows),"
    "d=th.dataset.dir==='d'?1:-1,num=th.classList.contains('num');"
    "th.dataset.dir=d>0?'a':'d';"
    "function key(r){var c=r.cells[i];return "
    "c?(num?+(c.dataset.v||0):c.textContent):''}"
    "rows.sort(function(x,y){var a=key(x),c=key(y);"
    "return d*(num?a-c:String(a).localeCompare(String(c)))});"
    "rows.forEach(function(r){b.appendChild(r)})})});";

/*
 * A source file the trace names, opened only if it is a regular file: a
 * FIFO or a device there would block the report or read forever.
 */
static FILE *an_open_source(const char *path, int line)
{
	struct stat st;
	int fd;
	FILE *f;

	if (!path || line < 1 || line > AN_MAX_SOURCE_LINE)
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

/* The lines around a call site, when its source file is still on disk. */
static void an_html_source(FILE *out, const char *path, int line)
{
	FILE *f = an_open_source(path, line);
	char *buf = NULL;
	size_t cap = 0;
	int no = 0;

	if (!f)
		return;
	fputs("<pre class=\"src\">", out);
	while (no < line + 3 && getline(&buf, &cap, f) >= 0) {
		if (++no < line - 3)
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		if (strlen(buf) > 240)
			buf[240] = '\0';
		fprintf(out, "%s%5d  ",
			no == line ? "<span class=\"hit\">" : "", no);
		an_html_esc(out, buf);
		fputs(no == line ? "</span>\n" : "\n", out);
	}
	fputs("</pre>", out);
	free(buf);
	fclose(f);
}

/* The call a finding is about, or the free before it: its line is the
 * one shown, where the source is still on disk (true when it was). */
static bool an_html_call(FILE *out, const char *label, const struct an_call *c,
			 const struct an_place *pl, bool source)
{
	int i;

	if (!c->api)
		return false;
	fprintf(out, "<div class=\"call\">%s: %s", label, an_api_name(c->api));
	if (pl->site[0]) {
		fputs(", at <code class=\"site\">", out);
		an_html_esc(out, pl->site);
		fputs("</code>", out);
	}
	fputs("</div>", out);
	i = an_site_frame(pl->frames, pl->nframes);
	if (!source || i < 0 || pl->frames[i].line <= 0)
		return false;
	an_html_source(out, pl->frames[i].file, pl->frames[i].line);
	return true;
}

static void an_html_alloc(FILE *out, const struct an_group *g, bool source)
{
	const struct an_alloc *a = &g->first->alloc;
	char site[1024], size[32], why[128], gpu[96];

	an_bytes_text(a->size, size, sizeof(size));
	fprintf(out,
		"<div class=\"alloc\">allocation: %s, %s (%" PRIu64 " bytes), "
		"%s-grained %s memory",
		an_api_name(a->api), size, a->size, an_gran_name(a->gran),
		an_mem_name(a->mem));
	if (a->drv.gran) {
		fprintf(out, " (the driver was told %s-grained: ",
			an_gran_name(a->drv.gran));
		an_html_esc(out, an_drv_why(&a->drv, why, sizeof(why)));
		if (a->drv.has_node && a->drv.node) {
			fputs(", ", out);
			an_html_esc(out, an_gpu_name(g->first->proc,
						     a->drv.node, a->drv.gpu,
						     gpu, sizeof(gpu)));
		} else if (a->drv.has_node) {
			fputs(", system memory", out);
		}
		fputc(')', out);
	}
	an_site_text(g->frames, g->nframes, site, sizeof(site));
	if (site[0]) {
		fputs(", at <code class=\"site\">", out);
		an_html_esc(out, site);
		fputs("</code>", out);
	}
	fputs("</div>", out);
	int i = an_site_frame(g->frames, g->nframes);

	if (source && i >= 0 && g->frames[i].line > 0)
		an_html_source(out, g->frames[i].file, g->frames[i].line);
}

static void an_html_finding(FILE *out, const struct an_ctx *c,
			    const struct an_group *g)
{
	const struct an_finding *f = g->first;
	char where[256], seen[512];

	fprintf(out,
		"<div class=\"finding sev-%s\" data-rule=\"%s\"><div>"
		"<b>%s</b> <span class=\"rule\">%s</span> ×%" PRIu64 ": ",
		an_sev_name(f->sev), f->rule->id, an_sev_name(f->sev),
		f->rule->id, g->count);
	an_html_esc(out, f->rule->summary);
	fputs("</div><p class=\"msg\">", out);
	an_html_esc(out, an_group_message(g));
	fputs("</p>", out);
	if (an_observed_text(c, f, an_group_observed(g), seen, sizeof(seen))) {
		fputs("<div class=\"observed\">observed: ", out);
		an_html_esc(out, seen);
		fputs("</div>", out);
	}
	if (f->kernel) {
		fputs("<div>kernel: <code class=\"kernel\">", out);
		an_html_esc(out, an_kernel_label(f->kernel));
		fputs("</code></div>", out);
	}
	bool shown = an_html_call(out, "call", &f->call, &g->call, true);

	shown |= an_html_call(out, "freed", &f->freed, &g->freed, !shown);
	if (f->has_alloc)
		an_html_alloc(out, g, !shown);
	if (f->rule->fix_at) {
		char fix[1024];

		f->rule->fix_at(f, g->site, g->call.site, fix, sizeof(fix));
		if (fix[0]) {
			fputs("<div class=\"fix-at\">fix: ", out);
			an_html_esc(out, fix);
			fputs("</div>", out);
		}
	}
	an_where(f->proc, where, sizeof(where));
	if (g->nranks > 1) {
		char ranks[256];

		an_ranks_text(g, ranks, sizeof(ranks));
		fprintf(out, "<div class=\"ranks\">ranks: ×%u (%s)</div>",
			g->nranks, ranks);
	}
	fputs("<div>where: ", out);
	an_html_esc(out, where);
	if (g->nranks > 1)
		fputs(" (one example)", out);
	else if (g->nprocs > 1)
		fprintf(out, " and %u other process%s", g->nprocs - 1,
			g->nprocs == 2 ? "" : "es");
	fputs("</div><div>fix: ", out);
	an_html_esc(out, an_rule_fix(f));
	fputs("</div></div>\n", out);
}

/* A report over runs on different GPUs: each GPU with its processes. */
static void an_html_gpus(FILE *out, const struct an_ctx *c)
{
	struct an_gpu_line *l;
	size_t n = an_gpu_lines(c, &l);

	for (size_t i = 0; i < n; i++) {
		char where[256];

		an_where(l[i].first, where, sizeof(where));
		fputs("<p class=\"warn\">", out);
		an_html_esc(out, where);
		if (l[i].others)
			fprintf(out, " and %u other process%s", l[i].others,
				l[i].others == 1 ? "" : "es");
		fputs(": ", out);
		an_html_esc(out, l[i].text);
		fputs("</p>", out);
	}
	free(l);
}

static void an_html_summary(FILE *out, struct an_ctx *c,
			    const struct an_groups *gs)
{
	fputs("<section id=\"summary\">", out);
	char line[640];

	if (an_gpus_mixed(c)) {
		an_html_gpus(out, c);
	} else if (an_exec_sentence(c, line, sizeof(line))) {
		fputs("<p class=\"warn\">", out);
		an_html_esc(out, line);
		fputs(".</p>", out);
	}
	fprintf(out,
		"<p><b>%zu finding%s</b> (%u error, "
		"%u warning, %u note) in %u process%s; %" PRIu64
		" events read.</p>",
		gs->n, gs->n == 1 ? "" : "s", gs->by_sev[AN_SEV_ERROR],
		gs->by_sev[AN_SEV_WARNING], gs->by_sev[AN_SEV_NOTE],
		an_nprocs(c), an_nprocs(c) == 1 ? "" : "es", c->events);
	if (c->discarded_events || c->discarded_packets)
		fprintf(out,
			"<p class=\"warn\">Incomplete trace: %" PRIu64
			" events and "
			"%" PRIu64 " packets were discarded while tracing.</p>",
			c->discarded_events, c->discarded_packets);
	if (c->partial || c->traces_failed)
		fputs(
		    "<p class=\"warn\">Partial report: some input could not be "
		    "read to its end.</p>",
		    out);
	if (c->tl && c->tl->failed)
		fputs("<p class=\"warn\">Out of memory: the timeline is "
		      "partial.</p>",
		      out);
	fputs("</section>\n", out);
}

static void an_html_notes(FILE *out, struct an_ctx *c)
{
	char buf[512];

	fputs("<section id=\"notes\"><h2>Failed calls and notes</h2><ul>", out);
	if (!c->fails && !c->nwarnings)
		fputs("<li>None.</li>", out);
	for (const struct an_fail *f = c->fails; f; f = f->next) {
		an_fail_text(c, f, buf, sizeof(buf));
		fputs("<li>", out);
		an_html_esc(out, buf);
		fputs("</li>", out);
	}
	for (size_t i = 0; i < c->nwarnings; i++) {
		fputs("<li>", out);
		an_html_esc(out, c->warnings[i]);
		fputs("</li>", out);
	}
	fputs("</ul></section>\n", out);
}

void an_write_html(struct an_ctx *c, const struct an_groups *gs, FILE *out)
{
	struct an_view v;

	fprintf(
	    out,
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta http-equiv=\"Content-Security-Policy\" "
	    "content=\"default-src "
	    "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
	    "<title>hipgrain report</title><style>%s</style></head><body>"
	    "<h1>hipgrain report</h1>\n",
	    an_style);
	an_html_summary(out, c, gs);
	fputs("<section id=\"findings\"><h2>Findings</h2>\n", out);
	for (size_t i = 0; i < gs->n; i++)
		an_html_finding(out, c, &gs->g[i]);
	if (!gs->n)
		fputs("<p>No hazard found.</p>", out);
	fputs("</section>\n", out);
	if (an_view_build(c, &v) == 0) {
		an_html_placement(c, &v, out);
		an_html_tables(c, &v, out);
	}
	an_view_fini(&v);
	an_html_notes(out, c);
	fprintf(out, "<script>%s</script></body></html>\n", an_script);
}
