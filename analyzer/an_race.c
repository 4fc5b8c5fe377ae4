/* SPDX-License-Identifier: MIT */
/*
 * Races the virtual GPU saw between the waves of a work-group
 * (hg_observe.h): each row is a finding at once, of lds-race or
 * group-race, naming both lines, the kernel and the bytes.  Unlike a drop
 * it predicts nothing else, so it joins no other finding.
 */
#include <stdio.h>
#include <string.h>

#include "an_observed.h"
#include "an_race.h"
#include "an_rule.h"
#include "an_schema.h"
#include "an_state.h"
#include "hg_observe.h"

static const char *verb(uint64_t cls)
{
	return cls == HG_RACE_WRITE ? "wrote" : cls == HG_RACE_ATOMIC ? "updated atomically"
								     : "read";
}

void an_on_vgpu_race(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	bool lds = an_ev_u64(e, F_VR_LDS) != 0;
	const struct an_rule *r = an_rule_by_id(lds ? "lds-race" : "group-race");
	const char *kernel = p->obs_kd == an_ev_u64(e, F_VR_KD) ? p->obs_kernel : "";
	char at[2][96], shown[2][96];
	uint64_t lo = an_ev_u64(e, F_VR_LO), hi = an_ev_u64(e, F_VR_HI);

	if (!r)
		return;
	snprintf(at[0], sizeof(at[0]), "%s", an_ev_str(e, F_VR_LINE_A));
	snprintf(at[1], sizeof(at[1]), "%s", an_ev_str(e, F_VR_LINE_B));
	an_obs_place(shown[0], sizeof(shown[0]), at[0], an_ev_u64(e, F_VR_CODE_OFF_A));
	an_obs_place(shown[1], sizeof(shown[1]), at[1], an_ev_u64(e, F_VR_CODE_OFF_B));
	an_find_race(c, r, r->sev, p, an_obs_find_kernel(p, kernel), (const char (*)[96])at,
		     "kernel %s: one wave %s %s bytes [0x%llx, 0x%llx] at %s and "
		     "another wave of the same work-group %s them at %s, with no "
		     "barrier between (%llu accesses met): the order between waves "
		     "is not defined, so the result changes from run to run",
		     an_obs_label(p, kernel), verb(an_ev_u64(e, F_VR_CLS_A)),
		     lds ? "LDS" : "global memory", (unsigned long long)lo,
		     (unsigned long long)hi, shown[0], verb(an_ev_u64(e, F_VR_CLS_B)),
		     shown[1], (unsigned long long)an_ev_u64(e, F_VR_COUNT));
}
