/* SPDX-License-Identifier: MIT */
/* The process died inside a hooked call, which never returned (an_died.c
 * finds it: no hook of replay's sees a call that has no record). */
#include "an_rule.h"

const struct an_rule an_rule_died_in_call = {
	.id = "died-in-call",
	.sev = AN_SEV_ERROR,
	.summary = "the process died inside a HIP call",
	.fix = "read the finding beside it at the same call, if any: it says "
	       "what the call could not do; else run the call under a "
	       "debugger, where the runtime stopped the process",
};
