/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain scan --format sarif`: each kernel whose atomics misbehave on
 * fine-grained memory on its own target is a result, located at its
 * atomic's source line when the code object has a line table, else at the
 * file that carries it, and named by the kernel.
 * Without a trace nobody knows what memory the kernel will get, so these
 * are warnings, and notes where MI300 only downgrades the scope.
 */
#include <stdlib.h>

#include "co_rules.h"
#include "co_demangle.h"
#include "co_scan.h"
#include "co_int.h"
#include "hg_json.h"
#include "hg_path.h"
#include "hg_sarif.h"

static const struct {
	const char *id, *summary, *fix;
} co_sarif_rules[] = {
    {"fp-atomic-fine-grain", "hardware FP atomics on fine-grained memory",
     "give the kernel only coarse-grained memory (hipMalloc, hipMemAdvise "
     "SetCoarseGrain), or build with -mno-unsafe-fp-atomics"},
    {"int-atomic-fine-host",
     "integer min/max/bitwise/inc/dec atomics on fine-grained host memory",
     "keep the target in hipMalloc memory, or use atomicAdd, atomicExch or "
     "atomicCAS"},
};

void co_sarif_begin(FILE *out)
{
	hg_sarif_head(out);
	for (size_t i = 0; i < 2; i++) {
		if (i)
			fputc(',', out);
		hg_sarif_rule(out, co_sarif_rules[i].id,
			      co_sarif_rules[i].summary, co_sarif_rules[i].fix,
			      "warning");
	}
	fputs("]}},\"results\":[", out);
}

/* The source line of the kernel's first atomic of class cls, when its code
 * object has a line table. */
static const struct co_insn *co_sarif_line(const struct co_kernel *k, int cls)
{
	for (uint32_t i = 0; i < k->ninsns; i++)
		if (k->insns[i].cls == cls && k->insns[i].space != CO_SP_LDS &&
		    k->insns[i].file && k->insns[i].line)
			return &k->insns[i];
	return NULL;
}

static void co_sarif_result(FILE *out, bool *first, unsigned rule,
			    const struct co_rule_result *r, const char *path,
			    const struct co_entry *en, const char *kernel,
			    const char *what, const struct co_insn *at)
{
	char norm[1024];

	fprintf(out,
		"%s{\"ruleId\":\"%s\",\"ruleIndex\":%u,\"level\":\"%s\","
		"\"message\":{\"text\":",
		*first ? "" : ",", co_sarif_rules[rule].id, rule,
		r->effect == CO_EFFECT_NOP ? "warning" : "note");
	*first = false;
	fputc('"', out);
	hg_json_chars(out, kernel);
	fputs(" (", out);
	hg_json_chars(out, en->target);
	fputs(") holds ", out);
	hg_json_chars(out, what);
	fputs(": ", out);
	hg_json_chars(out, r->rule->reason);
	fputs("\"},\"locations\":[{\"physicalLocation\":{"
	      "\"artifactLocation\":{\"uri\":",
	      out);
	if (at) {
		hg_sarif_uri(out, hg_path_norm(at->file, norm, sizeof(norm)));
		fprintf(out, "},\"region\":{\"startLine\":%u}", at->line);
	} else {
		hg_sarif_uri(out, path);
		fputc('}', out);
	}
	fputs("},\"logicalLocations\":[{\"name\":", out);
	hg_json_str(out, kernel);
	fputs(",\"kind\":\"function\"}]}],\"properties\":{\"target\":", out);
	hg_json_str(out, en->target);
	fprintf(out, ",\"bundle\":%u}}", en->bundle);
}

void co_sarif_kernel(FILE *out, bool *first, const char *path,
		     const struct co_entry *en, const struct co_profiles *p,
		     const struct co_kernel *k)
{
	const struct co_atomics *a = &k->atomics;
	struct co_rule_result r;
	char *dm = co_demangle(k->name);
	const char *name = dm ? dm : k->name;
	char what[256];

	if (a->fp_count &&
	    co_rule_lookup(p->target, NULL, a->fp_ops, HG_MEM_HOST_PINNED,
			   HG_GRAN_FINE, &r)) {
		snprintf(what, sizeof(what), "hardware FP atomics (%s)",
			 a->fp_mnemonics);
		co_sarif_result(out, first, 0, &r, path, en, name, what,
				co_sarif_line(k, CO_AC_FP));
	}
	if (a->int_ops &&
	    co_rule_lookup(p->target, NULL, a->int_ops, HG_MEM_HOST_PINNED,
			   HG_GRAN_FINE, &r) &&
	    r.effect == CO_EFFECT_NOP) {
		snprintf(what, sizeof(what), "integer atomics (%s)",
			 a->int_mnemonics);
		co_sarif_result(out, first, 1, &r, path, en, name, what,
				co_sarif_line(k, CO_AC_INT));
	}
	free(dm);
}

void co_sarif_end(FILE *out, bool ok)
{
	fprintf(out, "],\"invocations\":[{\"executionSuccessful\":%s}]}]}\n",
		ok ? "true" : "false");
}
