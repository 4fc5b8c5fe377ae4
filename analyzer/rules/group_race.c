/* SPDX-License-Identifier: MIT */
/*
 * Two waves of a work-group touched the same global memory bytes, one of
 * them writing, with no barrier between: the virtual GPU saw it
 * (an_race.c makes the finding).  Within a work-group a barrier orders
 * global memory too; without one the waves' order is the hardware's
 * choice.
 */
#include "an_rule.h"

const struct an_rule an_rule_group_race = {
    .id = "group-race",
    .sev = AN_SEV_ERROR,
    .summary = "waves of a work-group race on global memory with no barrier "
	       "between",
    .fix = "put __syncthreads() between the write and the other wave's "
	   "read or write, or make both accesses atomic",
};
