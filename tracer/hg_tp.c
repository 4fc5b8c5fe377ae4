/* SPDX-License-Identifier: MIT */
/* The one place the `hipgrain` probes are instantiated; hidden so nothing
 * leaks into the traced program's symbol namespace. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_HIDDEN_DEFINITION
#define LTTNG_UST_TRACEPOINT_PROVIDER_HIDDEN_DEFINITION
#include "hg_tp.h"
