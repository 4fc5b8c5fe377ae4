/* SPDX-License-Identifier: MIT */
/* The report's score as the inputs' results are merged into it. */
#ifndef AN_TALLY_H
#define AN_TALLY_H

#include <stdbool.h>
#include <stdio.h>

#include "an_state.h"

/* Merges one input's result into c (its messages to err), and keeps score:
 * any read, bad when a summary was damaged. */
struct an_tally {
	struct an_ctx *c;
	char **inputs;
	FILE *err;
	bool any, bad;
};
void an_tally_merge(struct an_tally *t, size_t i, const void *p, size_t n);
void an_tally_merge_named(struct an_tally *t, const char *name, const void *p,
			  size_t n);

#endif
