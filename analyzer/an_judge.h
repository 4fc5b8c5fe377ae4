/* SPDX-License-Identifier: MIT */
/*
 * Judging: one input (a trace directory, or a summary file a run left) to
 * its result's bytes (an_result.h).
 */
#ifndef AN_JUDGE_H
#define AN_JUDGE_H

#include <stdio.h>

#include "an.h"
#include "an_fate.h"
#include "an_state.h"
#include "an_wire.h"

/* Whether path names a summary file, not a trace directory. */
bool an_is_summary(const char *path);

/*
 * A trace read into a state of its own, its processes ended, and its
 * result written to b; a summary file's bytes copied to b.  o says which
 * format the result is for (only the picture formats keep a timeline).
 */
void an_judge(const struct an_opts *o, const char *input,
	      const struct an_fate *fate, struct an_wbuf *b);

#endif
