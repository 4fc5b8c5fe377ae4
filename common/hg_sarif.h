/* SPDX-License-Identifier: MIT */
/*
 * SARIF 2.1.0 pieces both `hipgrain report` and `hipgrain scan` write: the
 * run's head and a rule described by hipgrain-hazards(7).
 */
#ifndef HG_SARIF_H
#define HG_SARIF_H

#include <stdio.h>

/* Opens the log, the run and the driver, up to and including "rules":[ */
void hg_sarif_head(FILE *out);
/* A reportingDescriptor; summary and fix stand in where the page has none. */
void hg_sarif_rule(FILE *out, const char *id, const char *summary,
		   const char *fix, const char *level);
/* A file name as a URI reference (file:// for absolute paths), quoted. */
void hg_sarif_uri(FILE *out, const char *path);

#endif
