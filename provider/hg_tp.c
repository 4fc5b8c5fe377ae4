/* SPDX-License-Identifier: MIT */
/* The one place the `hipgrain` probes are instantiated; hidden so nothing
 * leaks into the traced program's symbol namespace. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION
#define LTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION
#include "hg_tp.h"

#include "hg_tp_init.h"

/*
 * The probes register from constructors, whose order against the preload's
 * own constructor is the linker's choice.  The preload calls this first so
 * its start-up events are not lost; every step is reference-counted.
 */
void hg_tp_init(void)
{
	lttng_ust__tracepoints__init();
	lttng_ust__tracepoints__ptrs_init();
	lttng_ust__events_init__hipgrain();
}
