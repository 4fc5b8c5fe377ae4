/* SPDX-License-Identifier: MIT */
/*
 * A trace with one damaged stream file (truncated, overwritten) fails as a
 * whole in source.ctf.fs.  Salvage rebuilds it in a temporary directory of
 * links to its metadata and to each stream file that reads on its own.
 */
#ifndef AN_SALVAGE_H
#define AN_SALVAGE_H

#include <stdio.h>

#include "an_state.h"

/*
 * On success replaces *dir by the salvaged directory, marks the report
 * partial and returns 0.  The directory is removed by an_salvage_cleanup().
 */
int an_salvage(struct an_ctx *c, char **dir, FILE *err);
void an_salvage_cleanup(const char *dir);

#endif
