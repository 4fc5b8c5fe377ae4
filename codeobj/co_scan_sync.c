/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain scan`'s words for synchronization at system scope (co.h's enum
 * co_sync): in text, each kind on its argument; in JSON, each instruction;
 * in SARIF, a note at each line.  Without a trace nobody knows whether the
 * memory is coarse-grained, where such synchronization reaches neither the
 * host nor another GPU while the kernel runs: a note, not a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "co_int.h"
#include "co_scan.h"
#include "hg_json.h"
#include "hg_path.h"
#include "hg_sarif.h"

void co_sync_words(FILE *f, const char *sites)
{
	bool first = true;

	for (const char *p = sites; p && *p;) {
		size_t n = strcspn(p, ";"), at = strcspn(p, "@");
		size_t plus = strcspn(p, "+"), caret = strcspn(p, "^");
		size_t arg_end = plus < n ? plus : caret < n ? caret : at < n ? at : n;
		size_t kind_end = caret < at ? caret : at;

		fputs(first ? "" : ", ", f);
		if (plus < kind_end && kind_end <= n)
			fprintf(f, "%.*s on ", (int)(kind_end - plus - 1),
				p + plus + 1);
		if (*p == '?')
			fputs("unknown", f);
		else
			fprintf(f, "%.*s", (int)arg_end, p);
		if (at < n)
			fprintf(f, " (%.*s)", (int)(n - at - 1), p + at + 1);
		first = false;
		p += n + (p[n] == ';');
	}
}

void co_sync_json(FILE *f, const struct co_kernel *k)
{
	char path[1024];

	fputs(",\"system_sync\":[", f);
	for (uint32_t i = 0; i < k->nsyncs; i++) {
		const struct co_insn *in = &k->syncs[i];

		fprintf(f, "%s{\"kind\":\"%s\",\"mnemonic\":", i ? "," : "",
			co_sync_name(in->sync));
		hg_json_str(f, in->mnemonic);
		fprintf(f, ",\"offset\":%llu,\"arg\":", (unsigned long long)in->addr);
		if (in->arg >= 0)
			fprintf(f, "%d", in->arg);
		else
			fputs("null", f);
		fputs(",\"file\":", f);
		if (in->file && in->line) {
			hg_json_str(f, hg_path_norm(in->file, path, sizeof(path)));
			fprintf(f, ",\"line\":%u}", in->line);
		} else
			fputs("null,\"line\":null}", f);
	}
	fputc(']', f);
}

/* Whether an earlier sync of k has syncs[i]'s line. */
static bool line_seen(const struct co_kernel *k, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (co_same_line(&k->syncs[j], &k->syncs[i]))
			return true;
	return false;
}

void co_sarif_sync(FILE *out, bool *first, unsigned rule, const char *path,
		   const struct co_entry *en, const char *kernel,
		   const struct co_kernel *k)
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
		if (!k->syncs[i].file || !k->syncs[i].line || line_seen(k, i))
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
