/* SPDX-License-Identifier: MIT */
#include "an_inventory.h"

#include "an_fmt.h"
#include "an_inv_alloc.h"
#include "an_json.h"
#include "an_names.h"
#include "an_output.h"
#include "an_traffic.h"
#include "kd_smi.h"

/* "1 prefetch, 2 gpu_fault" */
static void an_mig_text(const struct an_mig *m, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned t = 0; t < AN_MIG_TRIGGERS && o < cap; t++) {
		const char *why =
			kd_smi_trigger_name(KFD_SMI_EVENT_MIGRATE_START, (int)t);

		if (m->n[t])
			o += (size_t)snprintf(buf + o, cap - o, "%s%u %s",
					      o ? ", " : "", m->n[t], why);
	}
}

static void an_inv_text_migrated(struct an_ctx *c, FILE *out)
{
	char moved[32], why[128], tail[200];

	if (c->nmigrated)
		fprintf(out, "migrations the driver reported:\n");
	for (size_t i = 0; i < c->nmigrated; i++) {
		const struct an_alloc *a = &c->migrated[i].alloc;

		an_bytes_text(a->mig.bytes, moved, sizeof(moved));
		an_mig_text(&a->mig, why, sizeof(why));
		snprintf(tail, sizeof(tail), ": %s, %s moved", why, moved);
		an_inv_text_alloc(out, c->migrated[i].proc, a, tail);
	}
	if (c->migrated_more)
		fprintf(out, "  ... and %llu more blocks\n",
			(unsigned long long)c->migrated_more);
}

void an_inventory_text(struct an_ctx *c, FILE *out)
{
	char size[32];

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
	for (int i = 0; i < AN_TOP_ALLOCS && c->top[i].has_alloc; i++)
		an_inv_text_alloc(out, c->top[i].proc, &c->top[i].alloc, "");
	an_inv_text_migrated(c, out);
	an_traffic_text(c, out);
}

static void an_inv_json_buckets(struct an_ctx *c, FILE *out)
{
	bool first = true;

	fputs("{\"by_allocator\":[", out);
	for (int api = 0; api < 256; api++)
		for (int g = 0; g < 4; g++) {
			const struct an_inv_bucket *b = &c->inv[api][g];

			if (!b->count)
				continue;
			fputs(first ? "{\"api\":" : ",{\"api\":", out);
			first = false;
			hg_json_str(out, an_api_name((unsigned)api));
			fputs(",\"granularity\":", out);
			hg_json_str(out, an_gran_name((unsigned)g));
			fprintf(out, ",\"count\":%llu,\"bytes\":%llu}",
				(unsigned long long)b->count,
				(unsigned long long)b->bytes);
		}
	fputc(']', out);
}

void an_inventory_json(struct an_ctx *c, FILE *out)
{
	an_inv_json_buckets(c, out);
	fputs(",\"largest\":[", out);
	for (int i = 0; i < AN_TOP_ALLOCS && c->top[i].has_alloc; i++) {
		fputs(i ? "," : "", out);
		an_inv_json_alloc(out, c->top[i].proc, &c->top[i].alloc);
	}
	fputs("],\"migrated\":[", out);
	for (size_t i = 0; i < c->nmigrated; i++) {
		fputs(i ? "," : "", out);
		an_inv_json_alloc(out, c->migrated[i].proc, &c->migrated[i].alloc);
	}
	fprintf(out, "],\"migrated_unlisted\":%llu",
		(unsigned long long)c->migrated_more);
	an_traffic_json(c, out);
	fputc('}', out);
}
