/* SPDX-License-Identifier: MIT */
/*
 * Two waves of a work-group touched the same LDS (__shared__) bytes, one
 * of them writing, with no barrier between: the virtual GPU saw it
 * (an_race.c makes the finding).  On a card the waves' order changes
 * with timing, so the result is wrong now and then; the interpreter runs
 * each wave to its barrier in turn and gets it wrong every run.
 */
#include "an_rule.h"

const struct an_rule an_rule_lds_race = {
    .id = "lds-race",
    .sev = AN_SEV_ERROR,
    .summary = "waves of a work-group race on LDS with no barrier between",
    .fix = "put __syncthreads() between the write and the other wave's "
	   "read or write (for example after the loop that reads a tile, "
	   "before the next iteration rewrites it); atomics need none among "
	   "themselves",
};
