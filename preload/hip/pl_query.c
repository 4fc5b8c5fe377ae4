/* SPDX-License-Identifier: MIT */
/*
 * Query, don't assume: after managed memory is made or advised, ask the
 * runtime what coherency it gives the range, and record the answer beside
 * the model's (the report says when they disagree).  Only after the
 * program's own call succeeded, and a failed question is cleared from the
 * runtime's last error, which belongs to the program (pl_query_failed, for
 * every question the preload asks).
 */
#include "hg_events.h"
#include "pl_boot.h"
#include "pl_hip.h"
#include "pl_query.h"
#include "reg.h"

void pl_query_failed(void)
{
	static __typeof__(&hipGetLastError) clear;

	if (!clear)
		clear = (__typeof__(clear))pl_next_sym("hipGetLastError");
	if (clear)
		clear();
}

void pl_query_coherency(const void *p, size_t n)
{
	static __typeof__(&hipMemRangeGetAttribute) get;
	struct hg_tp_granularity g = {.addr = (uintptr_t)p, .size = n,
				      .source = HG_GRAN_SRC_QUERY};
	struct reg_ptr r;
	int mode = -1;

	reg_track_resolve((uintptr_t)p, &r);
	if (!n || r.mem != HG_MEM_MANAGED)
		return;
	if (!get)
		get = (__typeof__(get))pl_next_sym("hipMemRangeGetAttribute");
	g.rc = get(&mode, sizeof(mode), hipMemRangeAttributeCoherencyMode,
		   p, n);
	if (g.rc)
		pl_query_failed();
	g.id = r.id;
	g.gran = g.rc ? HG_GRAN_UNKNOWN
	       : mode == hipMemRangeCoherencyModeFineGrain   ? HG_GRAN_FINE
	       : mode == hipMemRangeCoherencyModeCoarseGrain ? HG_GRAN_COARSE
							     : HG_GRAN_MIXED;
	reg_emit_granularity(&g);
}
