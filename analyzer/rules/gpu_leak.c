/* SPDX-License-Identifier: MIT */
/* HIP allocations still live when the process's trace ends, and another
 * process's memory still mapped (an IPC handle opened and never closed
 * keeps the exporter's allocation alive after the exporter frees it). */
#include "an_leak_why.h"
#include "an_names.h"
#include "an_output.h"
#include "an_rule.h"
#include "hg_events.h"

struct leak_walk {
	struct an_ctx *c;
	const struct an_rule *r;
	struct an_proc *p;
};

static void each(void *val, void *arg)
{
	const struct an_alloc *a = val;
	struct leak_walk *w = arg;

	if (a->api == HG_API_HIP_IPC_OPEN_MEM_HANDLE) {
		an_find(w->c, w->r, AN_SEV_WARNING, w->p, NULL, a,
			"%zu bytes of another process's memory, mapped by "
			"hipIpcOpenMemHandle, are never unmapped with "
			"hipIpcCloseMemHandle", (size_t)a->size);
		return;
	}
	if (!hg_api_hip_alloc(a->api))
		return;
	an_find(w->c, w->r, AN_SEV_WARNING, w->p, NULL, a,
		"%zu bytes from %s are never freed", (size_t)a->size,
		an_api_name(a->api));
}

static void check(struct an_ctx *c, const struct an_rule *r, struct an_proc *p)
{
	struct leak_walk w = {c, r, p};

	/* A lost free event would look like a leak: say nothing then, nor
	 * for a process killed before it could free or whose end the trace
	 * lacks: the report's header says it was not judged. */
	if (an_leak_withheld(c, p))
		return;
	hg_map_each(&p->allocs, each, &w);
}

const struct an_rule an_rule_gpu_leak = {
	.id = "gpu-leak",
	.sev = AN_SEV_WARNING,
	.summary = "HIP allocations never freed, IPC mappings never closed",
	.fix = "hipFree / hipHostFree each block when done with it, "
	       "hipIpcCloseMemHandle each mapping hipIpcOpenMemHandle made",
	.fix_omp = "omp_target_free each block omp_target_alloc made, and "
		   "end each target enter data with a target exit data",
	.on_end = check,
};
