/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain scan`'s words for synchronization at system scope (co.h's enum
 * co_sync): in text, each kind on its argument; and in JSON, each instruction
 * (co_scan_sarif.c writes the SARIF note).  Without a trace nobody knows whether the
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
