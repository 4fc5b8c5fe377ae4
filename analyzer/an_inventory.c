/* SPDX-License-Identifier: MIT */
#include "an_inventory.h"

#include "an_json.h"
#include "an_names.h"
#include "an_output.h"

void an_bytes_text(uint64_t b, char *buf, size_t cap)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

static int an_top_frames(struct an_ctx *c, int i, struct an_frame *fr)
{
	const struct an_finding *t = &c->top[i];

	return an_sym_callsite(t->proc, t->alloc.callsite, fr, AN_MAX_FRAMES);
}

void an_inventory_text(struct an_ctx *c, FILE *out)
{
	char size[32], site[1024], where[256];
	struct an_frame fr[AN_MAX_FRAMES];

	fprintf(out, "\nallocation inventory (blocks the trace saw; host blocks "
		     "only once the GPU used them, unless HIPGRAIN_HOST_EVENTS=all):\n");
	fprintf(out, "  %-26s %-8s %10s %12s\n", "allocator", "grain", "blocks",
		"bytes");
	for (int api = 0; api < 256; api++)
		for (int g = 0; g < 4; g++) {
			const struct an_inv_bucket *b = &c->inv[api][g];

			if (!b->count)
				continue;
			an_bytes_text(b->bytes, size, sizeof(size));
			fprintf(out, "  %-26s %-8s %10llu %12s\n", an_api_name((unsigned)api),
				an_gran_name((unsigned)g),
				(unsigned long long)b->count, size);
		}
	fprintf(out, "largest allocations:\n");
	for (int i = 0; i < AN_TOP_ALLOCS && c->top[i].has_alloc; i++) {
		int n = an_top_frames(c, i, fr);

		an_bytes_text(c->top[i].alloc.size, size, sizeof(size));
		an_site_text(fr, n, site, sizeof(site));
		an_where(c->top[i].proc, where, sizeof(where));
		fprintf(out, "  %10s  %-20s %-7s %s  [%s]\n", size,
			an_api_name(c->top[i].alloc.api),
			an_gran_name(c->top[i].alloc.gran), site[0] ? site : "-", where);
		an_frames_free(fr, n);
	}
}

void an_inventory_json(struct an_ctx *c, FILE *out)
{
	struct an_frame fr[AN_MAX_FRAMES];
	bool first = true;

	fputs("{\"by_allocator\":[", out);
	for (int api = 0; api < 256; api++)
		for (int g = 0; g < 4; g++) {
			const struct an_inv_bucket *b = &c->inv[api][g];

			if (!b->count)
				continue;
			fputs(first ? "{\"api\":" : ",{\"api\":", out);
			first = false;
			an_json_str(out, an_api_name((unsigned)api));
			fputs(",\"granularity\":", out);
			an_json_str(out, an_gran_name((unsigned)g));
			fprintf(out, ",\"count\":%llu,\"bytes\":%llu}",
				(unsigned long long)b->count,
				(unsigned long long)b->bytes);
		}
	fputs("],\"largest\":[", out);
	for (int i = 0; i < AN_TOP_ALLOCS && c->top[i].has_alloc; i++) {
		const struct an_alloc *a = &c->top[i].alloc;
		int n = an_top_frames(c, i, fr);

		fprintf(out, "%s{\"api\":", i ? "," : "");
		an_json_str(out, an_api_name(a->api));
		fprintf(out, ",\"size\":%llu,\"granularity\":", (unsigned long long)a->size);
		an_json_str(out, an_gran_name(a->gran));
		fputs(",\"callsite\":", out);
		an_json_frames(out, fr, n);
		fputc('}', out);
		an_frames_free(fr, n);
	}
	fputs("]}", out);
}
