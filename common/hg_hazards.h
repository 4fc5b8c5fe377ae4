/* SPDX-License-Identifier: MIT */
/*
 * Each hazard rule as hipgrain-hazards(7) explains it, generated from the
 * page at build time (common/gen_hazards.py): what the SARIF writers of
 * `report` and `scan` give a code-scanning view as the rule's help.
 */
#ifndef HG_HAZARDS_H
#define HG_HAZARDS_H

#include <stddef.h>

struct hg_hazard {
	const char *id;
	const char *severity; /* as the page's heading says it */
	const char *text;     /* what happens, and when */
	const char *example;  /* a minimal program excerpt */
	const char *fix;
};

/* NULL for an id the page does not have. */
const struct hg_hazard *hg_hazard_find(const char *id);

#endif
