/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain scan --format sarif`: each kernel whose atomics misbehave on
 * fine-grained memory on its own target is a result, located at each
 * source line that holds such an atomic when the code object has a line
 * table (never at a line whose atomics are safe, such as an add beside a
 * max), else at the file that carries it, and named by the kernel.
 * Without a trace nobody knows what memory the kernel will get, so these
 * are warnings, and notes where MI300 only downgrades the scope; a kernel
 * that synchronizes at system scope is a note (in co_scan_sync.c's words).
 */
#include <stdlib.h>
#include <string.h>

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
    {"coarse-sync", "synchronization at system scope, which coarse-grained "
     "memory does not carry while a kernel runs",
     "put the flag or the exchanged data in fine-grained memory "
     "(hipHostMalloc without hipHostMallocNonCoherent, or "
     "hipMemAdvise(UnsetCoarseGrain) on managed memory), or exchange it "
     "only between kernels"},
};
#define CO_SARIF_NRULES (sizeof(co_sarif_rules) / sizeof(co_sarif_rules[0]))

void co_sarif_begin(FILE *out)
{
	hg_sarif_head(out);
	for (size_t i = 0; i < CO_SARIF_NRULES; i++) {
		if (i)
			fputc(',', out);
		hg_sarif_rule(out, co_sarif_rules[i].id,
			      co_sarif_rules[i].summary, co_sarif_rules[i].fix,
			      i == CO_SARIF_NRULES - 1 ? "note" : "warning");
	}
	fputs("]}},\"results\":[", out);
}

/* An atomic of class cls the result is about: its operation has the
 * effect r found, and where that is MI300's downgrade, it asks for system
 * scope (an agent-scope one asked for device scope and gets it). */
static bool co_sarif_at_risk(const struct co_insn *in, int cls,
			     const struct co_rule_result *r)
{
	return in->cls == cls && in->space != CO_SP_LDS && (in->op & r->ops) &&
	       !(r->effect == CO_EFFECT_DOWNGRADED &&
		 in->scope == CO_SCOPE_AGENT);
}

static bool co_same_line(const struct co_insn *a, const struct co_insn *b)
{
	return a->line == b->line &&
	       (a->file == b->file ||
		(a->file && b->file && !strcmp(a->file, b->file)));
}

/* Whether an earlier atomic at risk shares insns[i]'s line (same file and
 * line), or, with mnemonic, its mnemonic and line. */
static bool co_sarif_seen(const struct co_kernel *k, uint32_t i, int cls,
			  const struct co_rule_result *r, bool mnemonic)
{
	const struct co_insn *in = &k->insns[i];

	for (uint32_t j = 0; j < i; j++) {
		const struct co_insn *o = &k->insns[j];

		if (co_sarif_at_risk(o, cls, r) && co_same_line(o, in) &&
		    (!mnemonic || !strcmp(o->mnemonic, in->mnemonic)))
			return true;
	}
	return false;
}

/* "hardware FP atomics (global_atomic_add_f32 at a.hip:5)": each atomic at
 * risk once, with its line where the code object has a line table.
 * Returns how many atomics are at risk (0: none, no result). */
static unsigned co_sarif_what(const struct co_kernel *k, int cls,
			      const struct co_rule_result *r, const char *words,
			      char *buf, size_t cap)
{
	size_t o = (size_t)snprintf(buf, cap, "%s (", words);
	unsigned n = 0;

	for (uint32_t i = 0; i < k->ninsns && o < cap; i++) {
		const struct co_insn *in = &k->insns[i];
		const char *base = in->file ? strrchr(in->file, '/') : NULL;

		if (!co_sarif_at_risk(in, cls, r) || co_sarif_seen(k, i, cls, r, true))
			continue;
		base = base ? base + 1 : in->file;
		if (base && in->line)
			o += (size_t)snprintf(buf + o, cap - o, "%s%s at %s:%u",
					      n ? ", " : "", in->mnemonic, base,
					      in->line);
		else
			o += (size_t)snprintf(buf + o, cap - o, "%s%s",
					      n ? ", " : "", in->mnemonic);
		n++;
	}
	if (o + 1 < cap)
		strcat(buf, ")");
	return n;
}

/* One location: the instruction's line, else the file that carries the
 * kernel, named by the kernel; its message the mnemonic, after label
 * ("acquire (buffer_invl2)") when label is not NULL. */
static void co_sarif_location(FILE *out, const char *path, const char *kernel,
			      const struct co_insn *at, const char *label)
{
	char norm[1024];

	fputs("{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
	if (at) {
		hg_sarif_uri(out, hg_path_norm(at->file, norm, sizeof(norm)));
		fprintf(out, "},\"region\":{\"startLine\":%u}", at->line);
	} else {
		hg_sarif_uri(out, path);
		fputc('}', out);
	}
	fputs("},\"logicalLocations\":[{\"name\":", out);
	hg_json_str(out, kernel);
	fputs(",\"kind\":\"function\"}]", out);
	if (at) {
		fputs(",\"message\":{\"text\":\"", out);
		if (label) {
			hg_json_chars(out, label);
			fputs(" (", out);
		}
		hg_json_chars(out, at->mnemonic);
		fputs(label ? ")\"}" : "\"}", out);
	}
	fputc('}', out);
}

/* One location per line that holds an atomic at risk, in the code's
 * order; the file alone when none has a line. */
static void co_sarif_locations(FILE *out, const char *path, const char *kernel,
			       const struct co_kernel *k, int cls,
			       const struct co_rule_result *r)
{
	unsigned n = 0;

	fputs("\"locations\":[", out);
	for (uint32_t i = 0; i < k->ninsns; i++) {
		const struct co_insn *in = &k->insns[i];

		if (!co_sarif_at_risk(in, cls, r) || !in->file || !in->line ||
		    co_sarif_seen(k, i, cls, r, false))
			continue;
		if (n++)
			fputc(',', out);
		co_sarif_location(out, path, kernel, in, NULL);
	}
	if (!n)
		co_sarif_location(out, path, kernel, NULL, NULL);
	fputc(']', out);
}

static void co_sarif_result(FILE *out, bool *first, unsigned rule,
			    const struct co_rule_result *r, const char *path,
			    const struct co_entry *en, const char *kernel,
			    const struct co_kernel *k, int cls)
{
	char what[512];

	if (!co_sarif_what(k, cls, r, rule ? "integer atomics"
					   : "hardware FP atomics",
			   what, sizeof(what)))
		return;
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
	fputs("\"},", out);
	co_sarif_locations(out, path, kernel, k, cls, r);
	fputs(",\"properties\":{\"target\":", out);
	hg_json_str(out, en->target);
	fprintf(out, ",\"bundle\":%u}}", en->bundle);
}

/* Whether an earlier sync of k has syncs[i]'s line. */
static bool co_sarif_sync_seen(const struct co_kernel *k, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (co_same_line(&k->syncs[j], &k->syncs[i]))
			return true;
	return false;
}

/* A note for a kernel that synchronizes at system scope, at each line. */
static void co_sarif_sync(FILE *out, bool *first, unsigned rule,
			  const char *path, const struct co_entry *en,
			  const char *kernel, const struct co_kernel *k)
{
	char *words = NULL;
	size_t len = 0, n = 0;
	FILE *m;

	if (!k->atomics.sys_count || !(m = open_memstream(&words, &len)))
		return;
	co_sync_words(m, k->atomics.sys_sites);
	fclose(m);
	fprintf(out, "%s{\"ruleId\":\"coarse-sync\",\"ruleIndex\":%u,"
		     "\"level\":\"note\",\"message\":{\"text\":\"",
		*first ? "" : ",", rule);
	*first = false;
	hg_json_chars(out, kernel);
	fputs(" (", out);
	hg_json_chars(out, en->target);
	fputs(") synchronizes at system scope: ", out);
	hg_json_chars(out, words ? words : "");
	fputs(": on coarse-grained memory the host and other GPUs do not see "
	      "it while the kernel runs\"},\"locations\":[", out);
	free(words);
	for (uint32_t i = 0; i < k->nsyncs; i++) {
		if (!k->syncs[i].file || !k->syncs[i].line ||
		    co_sarif_sync_seen(k, i))
			continue;
		fputs(n++ ? "," : "", out);
		co_sarif_location(out, path, kernel, &k->syncs[i],
				  co_sync_name(k->syncs[i].sync));
	}
	if (!n)
		co_sarif_location(out, path, kernel, NULL, NULL);
	fputs("],\"properties\":{\"target\":", out);
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

	if (a->fp_count &&
	    co_rule_lookup(p->target, NULL, a->fp_ops, HG_MEM_HOST_PINNED,
			   HG_GRAN_FINE, &r))
		co_sarif_result(out, first, 0, &r, path, en, name, k, CO_AC_FP);
	if (a->int_ops &&
	    co_rule_lookup(p->target, NULL, a->int_ops, HG_MEM_HOST_PINNED,
			   HG_GRAN_FINE, &r) &&
	    r.effect == CO_EFFECT_NOP)
		co_sarif_result(out, first, 1, &r, path, en, name, k, CO_AC_INT);
	co_sarif_sync(out, first, CO_SARIF_NRULES - 1, path, en, name, k);
	free(dm);
}

void co_sarif_end(FILE *out, bool ok)
{
	fprintf(out, "],\"invocations\":[{\"executionSuccessful\":%s}]}]}\n",
		ok ? "true" : "false");
}
