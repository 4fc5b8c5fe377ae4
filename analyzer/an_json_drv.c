/* SPDX-License-Identifier: MIT */
/* What the driver said of a block, as JSON members of its object. */
#include <string.h>

#include "an_drv.h"
#include "an_json.h"
#include "an_names.h"
#include "kd_flags.h"

/* kd_*_flag_names' "a|b|0x40" as ["a","b","0x40"]; its "0" (none) as []. */
static void an_json_flags(FILE *out, const char *names)
{
	bool first = true;

	fputc('[', out);
	while (strcmp(names, "0") && *names) {
		size_t n = strcspn(names, "|");

		fprintf(out, "%s\"%.*s\"", first ? "" : ",", (int)n, names);
		first = false;
		names += n + (names[n] == '|');
	}
	fputc(']', out);
}

void an_json_driver(FILE *out, const struct an_alloc *a)
{
	const struct an_drv *d = &a->drv;
	char names[256];

	if (!d->gran)
		return;
	fputs(",\"driver\":{\"granularity\":", out);
	hg_json_str(out, an_gran_name(d->gran));
	fputs(",\"domain\":", out);
	hg_json_str(out, an_drv_domain(d));
	fputs(",\"flags\":", out);
	if (d->domain == AN_DRV_SVM)
		kd_svm_flag_names(d->flags, names, sizeof(names));
	else
		kd_alloc_flag_names(d->flags, names, sizeof(names));
	an_json_flags(out, names);
	if (d->domain == AN_DRV_SVM && d->cleared) {
		kd_svm_flag_names(d->cleared, names, sizeof(names));
		fputs(",\"cleared\":", out);
		an_json_flags(out, names);
	}
	if (d->has_node)
		fprintf(out, ",\"node\":%u", d->node);
	/* The index the user counts GPUs by; node is the driver's id. */
	if (d->has_node && d->gpu)
		fprintf(out, ",\"gpu\":%u", d->gpu - 1u);
	fputc('}', out);
}

/* The keys, by KFD_MIGRATE_TRIGGER_*. */
static const char *const an_mig_keys[AN_MIG_TRIGGERS] = {
	"prefetch", "gpu_fault", "cpu_fault", "eviction",
};

void an_json_migrations(FILE *out, const struct an_alloc *a)
{
	if (!a->mig.bytes)
		return;
	fputs(",\"migrations\":{", out);
	for (unsigned i = 0; i < AN_MIG_TRIGGERS; i++)
		fprintf(out, "\"%s\":%u,", an_mig_keys[i], a->mig.n[i]);
	fprintf(out, "\"bytes\":%llu}", (unsigned long long)a->mig.bytes);
}
