/* SPDX-License-Identifier: MIT */
/*
 * One block as the inventory's sections write it, in a leaf of its own:
 * the inventory and the traffic it lists both call it.
 */
#include "an_inv_alloc.h"

#include "an_fmt.h"
#include "an_json.h"
#include "an_names.h"
#include "an_output.h"
#include "hg_json.h"

/* A block as "   1.0 MiB  hipMallocManaged  coarse  app.hip:9 (main)  [..]" */
void an_inv_text_alloc(FILE *out, struct an_proc *p, const struct an_alloc *a,
		       const char *tail)
{
	char size[32], site[1024], where[256];
	struct an_frame fr[AN_MAX_FRAMES];
	int n = an_sym_site(p, a->callsite, fr, AN_MAX_FRAMES);

	an_bytes_text(a->size, size, sizeof(size));
	an_site_text(fr, n, site, sizeof(site));
	an_where(p, where, sizeof(where));
	fprintf(out, "  %10s  %-20s %-7s %s  [%s]%s\n", size,
		an_api_name(a->api), an_gran_name(a->gran), site[0] ? site : "-",
		where, tail);
	an_frames_free(fr, n);
}

/* One block: what "largest" and "migrated" list. */
void an_inv_json_alloc(FILE *out, struct an_proc *p, const struct an_alloc *a)
{
	struct an_frame fr[AN_MAX_FRAMES];
	int n = an_sym_callsite(p, a->callsite, fr, AN_MAX_FRAMES);

	fputs("{\"api\":", out);
	hg_json_str(out, an_api_name(a->api));
	fprintf(out, ",\"size\":%llu,\"granularity\":",
		(unsigned long long)a->size);
	hg_json_str(out, an_gran_name(a->gran));
	an_json_driver(out, a);
	an_json_migrations(out, a);
	an_json_site(out, fr, n);
	fputs(",\"callsite\":", out);
	an_json_frames(out, fr, n);
	fputc('}', out);
	an_frames_free(fr, n);
}
