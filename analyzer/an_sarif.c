/* SPDX-License-Identifier: MIT */
/*
 * The report as SARIF 2.1.0, for code-scanning views: one rule per hazard id
 * (its help from hipgrain-hazards(7)), one result per merged finding, at the
 * user's source line of the call it is about (the wrong free, the copy, the
 * prefetch), else of the free before it, else of the allocation; the
 * others are related locations.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_atomic.h"
#include "an_gpus.h"
#include "an_link.h"
#include "an_names.h"
#include "an_output.h"
#include "an_rule.h"
#include "hg_json.h"
#include "hg_sarif.h"

static const char *an_sarif_level(enum an_sev s)
{
	return s == AN_SEV_ERROR     ? "error"
	       : s == AN_SEV_WARNING ? "warning"
				     : "note";
}

static const struct an_frame *an_user_frame(const struct an_frame *fr, int n)
{
	int i = an_site_frame(fr, n);

	return i >= 0 && fr[i].line > 0 ? &fr[i] : NULL;
}

/* The places a finding has, in the order they are offered as its primary
 * location: the call it is about, the free before it, the allocation. */
enum { AN_AT_CALL, AN_AT_FREED, AN_AT_ALLOC, AN_AT_N };

static const struct an_frame *an_place_frame(const struct an_group *g, int k)
{
	switch (k) {
	case AN_AT_CALL:
		return an_user_frame(g->call.frames, g->call.nframes);
	case AN_AT_FREED:
		return an_user_frame(g->freed.frames, g->freed.nframes);
	default:
		return an_user_frame(g->frames, g->nframes);
	}
}

static void an_sarif_physical(FILE *out, const struct an_frame *f)
{
	char real[PATH_MAX];

	fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
	/* "build/../src/x.c" as a plain path, when the file is here. */
	hg_sarif_uri(out, realpath(f->file, real) ? real : f->file);
	fprintf(out, "},\"region\":{\"startLine\":%d}}", f->line);
}

/* A kernel line "app.hip:42" as a location: the file as the code object
 * names it (its base name), the line; false when it has none. */
static bool an_sarif_kernel_line(FILE *out, const char *at)
{
	const char *colon = strrchr(at, ':');
	char file[96];

	if (!colon || colon == at || atoi(colon + 1) <= 0)
		return false;
	snprintf(file, sizeof(file), "%.*s", (int)(colon - at), at);
	fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
	hg_sarif_uri(out, file);
	fprintf(out, "},\"region\":{\"startLine\":%d}}", atoi(colon + 1));
	return true;
}

/* A race's second line, the other wave's access, as its related
 * location (the first is its location). */
static void an_sarif_race_related(FILE *out, const struct an_finding *h)
{
	const char *colon = strrchr(h->race_at[1], ':');

	if (!colon || colon == h->race_at[1] || atoi(colon + 1) <= 0)
		return;
	fputs(",\"relatedLocations\":[{\"id\":1,", out);
	an_sarif_kernel_line(out, h->race_at[1]);
	fputs(",\"message\":{\"text\":\"the other wave's access\"}}]", out);
}

/* Which place is primary: the first that has a source line; -1 if none. */
static int an_sarif_primary(const struct an_group *g)
{
	for (int k = 0; k < AN_AT_N; k++)
		if (an_place_frame(g, k))
			return k;
	return -1;
}

static void an_sarif_location(FILE *out, const struct an_group *g, int k)
{
	const struct an_frame *f = k >= 0 ? an_place_frame(g, k) : NULL;
	const struct an_finding *h = g->first;

	fputs(",\"locations\":[{", out);
	if (f) {
		an_sarif_physical(out, f);
		fputc(',', out);
	} else if (an_sarif_kernel_line(out, h->race_at[0])) {
		fputc(',', out);
	}
	fputs("\"logicalLocations\":[{\"name\":", out);
	if (f && f->function)
		hg_json_str(out, f->function);
	else
		hg_json_str(out, h->kernel ? an_kernel_label(h->kernel)
					   : h->rule->id);
	fprintf(out, ",\"kind\":\"%s\"}]}]",
		f && f->function ? "function" : "module");
}

/* Each atomic at risk, at its own kernel line, as a related location;
 * n counts them with those before. */
static void an_sarif_atomics(FILE *out, const struct an_finding *h,
			     unsigned *n)
{
	const char *p = h->atomic_lines;
	struct an_aline e;
	char what[64];

	while (an_atomic_line_next(&p, &e)) {
		const char *colon = strrchr(e.at, ':');

		if (!colon || colon == e.at || atoi(colon + 1) <= 0)
			continue;
		fprintf(out, "%s{\"id\":%u,", *n ? "," : ",\"relatedLocations\":[",
			*n + 1);
		an_sarif_kernel_line(out, e.at);
		snprintf(what, sizeof(what), "the atomic%s%s%s",
			 e.op[0] ? " (" : "", e.op, e.op[0] ? ")" : "");
		fputs(",\"message\":{\"text\":", out);
		hg_json_str(out, what);
		fputs("}}", out);
		(*n)++;
	}
}

/* The places other than the primary one, each saying what it is. */
static void an_sarif_related(FILE *out, const struct an_group *g, int primary)
{
	const struct an_finding *h = g->first;
	char what[128];
	unsigned n = 0;

	for (int k = 0; k < AN_AT_N; k++) {
		const struct an_frame *f = an_place_frame(g, k);

		if (!f || k == primary)
			continue;
		if (k == AN_AT_CALL)
			snprintf(what, sizeof(what), "the call: %s",
				 an_api_name(h->call.api));
		else if (k == AN_AT_FREED)
			snprintf(what, sizeof(what), "freed here by %s",
				 an_api_name(h->freed.api));
		else
			snprintf(what, sizeof(what), "allocated here by %s",
				 an_api_name(h->alloc.api));
		fprintf(out, "%s{\"id\":%u,", n ? "," : ",\"relatedLocations\":[",
			n + 1);
		an_sarif_physical(out, f);
		fputs(",\"logicalLocations\":[{\"name\":", out);
		hg_json_str(out, f->function ? f->function : what);
		fputs(",\"kind\":\"function\"}],\"message\":{\"text\":", out);
		hg_json_str(out, what);
		fputs("}}", out);
		n++;
	}
	an_sarif_atomics(out, h, &n);
	if (n)
		fputc(']', out);
}

static void an_sarif_result(FILE *out, const struct an_ctx *c,
			    const struct an_group *g)
{
	const struct an_finding *f = g->first;
	char where[256], seen[512];
	unsigned idx = 0;

	while (idx < an_nrules && an_rules[idx] != f->rule)
		idx++;
	fputs("{\"ruleId\":", out);
	hg_json_str(out, f->rule->id);
	fprintf(out,
		",\"ruleIndex\":%u,\"level\":\"%s\",\"message\":{\"text\":",
		idx, an_sarif_level(f->sev));
	hg_json_str(out, an_group_message(g) ? an_group_message(g)
					     : f->rule->summary);
	fputc('}', out);
	an_sarif_location(out, g, an_sarif_primary(g));
	an_sarif_related(out, g, an_sarif_primary(g));
	if (an_sarif_primary(g) < 0)
		an_sarif_race_related(out, f);
	an_where(f->proc, where, sizeof(where));
	fprintf(out,
		",\"properties\":{\"count\":%llu,\"processes\":%u,\"where\":",
		(unsigned long long)g->count, g->nprocs);
	hg_json_str(out, where);
	if (an_observed_text(c, f, an_group_observed(g), seen, sizeof(seen))) {
		fprintf(out, ",\"observedDropped\":%llu,\"observed\":",
			(unsigned long long)an_group_observed(g));
		hg_json_str(out, seen);
	}
	fputs(",\"ranks\":[", out);
	for (unsigned i = 0; i < g->nranks; i++)
		fprintf(out, "%s%ld", i ? "," : "", g->ranks[i]);
	fputc(']', out);
	if (f->kernel) {
		fputs(",\"kernel\":", out);
		hg_json_str(out, an_kernel_label(f->kernel));
	}
	fputs("}}", out);
}

/* A report over runs on different GPUs: one notification per GPU, naming
 * its processes. */
static void an_sarif_gpus(FILE *out, const struct an_ctx *c)
{
	struct an_gpu_line *l;
	size_t n = an_gpu_lines(c, &l);

	for (size_t i = 0; i < n; i++) {
		char where[256], msg[640];

		an_where(l[i].first, where, sizeof(where));
		if (l[i].others)
			snprintf(msg, sizeof(msg), "%s and %u other process%s: %s",
				 where, l[i].others, l[i].others == 1 ? "" : "es",
				 l[i].text);
		else
			snprintf(msg, sizeof(msg), "%s: %s", where, l[i].text);
		fputs("{\"level\":\"warning\",\"message\":{\"text\":", out);
		hg_json_str(out, msg);
		fputs(i + 1 < n || c->nwarnings ? "}}," : "}}", out);
	}
	free(l);
}

/* What the verdicts rest on: a note per machine, its facts also as
 * properties for tools that read them. */
static void an_sarif_judged(FILE *out, const struct an_ctx *c, bool more)
{
	static const char *const links[] = { "unknown", "pcie", "xgmi" };
	struct an_gpu_line *l;
	size_t n = an_judged_lines(c, &l);

	for (size_t i = 0; i < n; i++) {
		struct an_machine m;

		an_link_facts(l[i].first, &m);
		fputs("{\"level\":\"note\",\"message\":{\"text\":", out);
		hg_json_str(out, l[i].text);
		fputs("},\"properties\":{\"hipgrain/column\":", out);
		hg_json_str(out, an_column_name(m.column));
		fprintf(out, ",\"hipgrain/cpuLink\":\"%s\",\"hipgrain/cpuLinkFrom\":\"%s\","
			     "\"hipgrain/pcieAtomics\":%s,\"hipgrain/xnack\":%s}}",
			links[m.link], an_src_name(m.link_src),
			m.link == AN_LINK_XGMI ? "null"
			: m.pcie_atomics == AN_TRI_YES ? "true" : "false",
			m.xnack == AN_TRI_YES ? "true" : "false");
		if (i + 1 < n || more)
			fputc(',', out);
	}
	free(l);
}

void an_write_sarif(struct an_ctx *c, const struct an_groups *gs, FILE *out)
{
	hg_sarif_head(out);
	for (unsigned i = 0; i < an_nrules; i++) {
		if (i)
			fputc(',', out);
		hg_sarif_rule(out, an_rules[i]->id, an_rules[i]->summary,
			      an_rules[i]->fix,
			      an_sarif_level(an_rules[i]->sev));
	}
	fputs("]}},\"results\":[", out);
	for (size_t i = 0; i < gs->n; i++) {
		if (i)
			fputc(',', out);
		an_sarif_result(out, c, &gs->g[i]);
	}
	fprintf(out, "],\"invocations\":[{\"executionSuccessful\":%s",
		c->partial || c->traces_failed ? "false" : "true");
	fputs(",\"toolExecutionNotifications\":[", out);
	an_sarif_judged(out, c, an_gpus_mixed(c) || c->vgpu[0] || c->nwarnings);
	if (an_gpus_mixed(c))
		an_sarif_gpus(out, c);
	else if (c->vgpu[0]) {
		char msg[640];
		an_exec_sentence(c, msg, sizeof(msg));
		fputs("{\"level\":\"warning\",\"message\":{\"text\":", out);
		hg_json_str(out, msg);
		fputs(c->nwarnings ? "}}," : "}}", out);
	}
	for (size_t i = 0; i < c->nwarnings; i++) {
		fputs(i ? ",{\"level\":\"note\",\"message\":{\"text\":"
			: "{\"level\":\"note\",\"message\":{\"text\":",
		      out);
		hg_json_str(out, c->warnings[i]);
		fputs("}}", out);
	}
	fputs("]}]}]}\n", out);
}
