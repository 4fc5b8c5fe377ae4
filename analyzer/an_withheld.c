/* SPDX-License-Identifier: MIT */
/*
 * Verdicts a report withholds because the trace lacks the events they
 * need: a leak needs every free and the process's own end, so lost
 * events, a cut trace or a process with no record of how it ended leave
 * its memory unjudged, and the report says so instead of guessing.
 */
#include <stdlib.h>

#include "an_leak_why.h"
#include "an_output.h"
#include "an_state.h"


bool an_unjudged(const struct an_ctx *c)
{
	struct an_proc **v;
	size_t n = an_procs_sorted(c, &v);
	bool any = c->partial || c->traces_failed || c->discarded_events ||
		   c->discarded_packets;

	for (size_t i = 0; !any && i < n; i++)
		any = an_leak_withheld(c, v[i]) != NULL;
	free(v);
	return any;
}

void an_withheld_text(const struct an_ctx *c, FILE *out, const char *on,
		      const char *off)
{
	struct an_proc **v;
	size_t n = an_procs_sorted(c, &v);

	for (size_t i = 0; i < n; i++) {
		const char *why = an_leak_withheld(c, v[i]);
		char where[256];

		if (!why)
			continue;
		an_where(v[i], where, sizeof(where));
		fprintf(out, "%snot judged:%s gpu-leak for %s: %s\n", on, off,
			where, why);
	}
	if (c->partial || c->discarded_events || c->discarded_packets)
		fprintf(out, "%snot judged:%s the absence of use-after-free, "
			     "dealloc-mismatch and the launches' findings in "
			     "what was lost\n", on, off);
	free(v);
}
