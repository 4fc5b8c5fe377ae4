/* SPDX-License-Identifier: MIT */
/*
 * A hooked call the process died in: the preload's signal handler names
 * each call then in the runtime (`died`), since none of them returns to
 * write its own record.  The call gets a finding of its own at the
 * program's line, and advice or a prefetch is judged by the range rules
 * as if it had returned, each saying that the runtime died there.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "an_died.h"
#include "an_drv.h"
#include "an_names.h"
#include "an_replay.h"
#include "an_rule.h"
#include "hg_events.h"

extern const struct an_rule an_rule_died_in_call;

static const char *sig_name(int sig, char *buf, size_t cap)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, cap, "SIG%s", abbrev);
	else
		snprintf(buf, cap, "signal %d", sig);
	return buf;
}

static void judge_range(struct an_ctx *c, struct an_proc *p,
			const struct an_ev *e, unsigned api, int sig)
{
	struct an_range_op o = {
		.proc = p, .addr = an_ev_u64(e, F_RO_ADDR),
		.size = an_ev_u64(e, F_RO_SIZE), .id = an_ev_u64(e, F_RO_ID),
		.advice = (int32_t)an_ev_i64(e, F_RO_ADVICE),
		.api = (uint8_t)api, .mem = (uint8_t)an_ev_u64(e, F_RO_MEM),
		.prefetch = api == HG_API_HIP_MEM_PREFETCH_ASYNC ||
			    api == HG_API_HIP_MEM_PREFETCH_ASYNC_V2,
		.callsite = an_ev_u64(e, F_RO_CALLSITE), .died = sig,
	};

	an_range_judge(c, p, &o);
}

void an_on_died(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const char *name = an_ev_str(e, F_DI_NAME);
	unsigned range_api = (unsigned)an_ev_u64(e, F_RO_API);
	unsigned api = range_api ? range_api : an_api_by_name(name);
	int sig = (int)an_ev_i64(e, F_DI_SIGNAL);
	struct an_call at = {an_ev_u64(e, F_RO_CALLSITE), (uint8_t)api};
	char sn[32];

	if (!name[0])
		return;
	p->died_in = true;
	/* A kernel's memory access fault ends the process in whatever call
	 * waits on it: the rules that explain the fault say where it was, and
	 * the call that happened to wait is no finding of its own. */
	if (p->gpu_faulted && !range_api)
		return;
	an_find_at(c, &an_rule_died_in_call, AN_SEV_ERROR, p, NULL, NULL, &at,
		   NULL, "the process was killed by %s inside %s, which never "
		   "returned%s", sig_name(sig, sn, sizeof(sn)), name,
		   an_ev_u64(e, F_DI_HERE)
			   ? ""
			   : " (the signal came on another thread, the "
			     "runtime's own, while this call was in it)");
	if (range_api)
		judge_range(c, p, e, range_api, sig);
}
