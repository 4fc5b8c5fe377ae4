/* SPDX-License-Identifier: MIT */
/* One input's result merged into the report, and the score kept. */
#include "an_result.h"
#include "an_tally.h"

void an_tally_merge(struct an_tally *t, size_t i, const void *p, size_t n)
{
	an_tally_merge_named(t, t->inputs[i], p, n);
}

void an_tally_merge_named(struct an_tally *t, const char *name, const void *p,
			  size_t n)
{
	int rc;

	if (t->bad)
		return;
	rc = an_result_merge(t->c, p, n, t->err, name);
	if (rc == AN_RESULT_BAD)
		t->bad = true;
	else if (rc < 0)
		t->c->partial = true; /* said why; the others still count */
	t->any |= rc == 0;
}
