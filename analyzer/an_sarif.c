/* SPDX-License-Identifier: MIT */
/*
 * The report as SARIF 2.1.0, for code-scanning views: one rule per hazard id
 * (its help from hipgrain-hazards(7)), one result per merged finding, at the
 * user's source line when the call site has one.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

static const struct an_frame *an_user_frame(const struct an_group *g)
{
	int i = an_site_frame(g->frames, g->nframes);

	return i >= 0 && g->frames[i].line > 0 ? &g->frames[i] : NULL;
}

static void an_sarif_location(FILE *out, const struct an_group *g)
{
	const struct an_frame *f = an_user_frame(g);
	const struct an_finding *h = g->first;
	char real[PATH_MAX];

	fputs(",\"locations\":[{", out);
	if (f) {
		fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":",
		      out);
		/* "build/../src/x.c" as a plain path, when the file is here. */
		hg_sarif_uri(out, realpath(f->file, real) ? real : f->file);
		fprintf(out, "},\"region\":{\"startLine\":%d}},", f->line);
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
	an_sarif_location(out, g);
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
	if (c->vgpu[0]) {
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
