/* SPDX-License-Identifier: MIT */
/*
 * Reads the virtual GPU's L2 served from a line of coarse-grained memory
 * while the host had written newer bytes there (hg_observe.h): the
 * observed half of coarse-sync.  Each row is a finding at once, naming
 * the kernel, the read's line, the block with its allocation and whether
 * the dispatch stopped at the instruction budget (a wait that would hang
 * on the card).
 */
#include <stdio.h>
#include <string.h>

#include "an_observed.h"
#include "hg_events.h"
#include "an_rule.h"
#include "an_schema.h"
#include "an_stale.h"
#include "an_state.h"

void an_on_vgpu_stale(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const struct an_rule *r = an_rule_by_id("coarse-sync");
	const char *kernel = p->obs_kd == an_ev_u64(e, F_VS_KD) ? p->obs_kernel : "";
	uint64_t id = an_ev_u64(e, F_VS_ID);
	struct an_alloc *a = id ? an_alloc_get(p, id) : NULL;
	const char *line = an_ev_str(e, F_VS_LINE);
	char at[96], who[96];

	if (!r)
		return;
	if (id && !a)
		a = an_freed_by_id(p, id);
	an_obs_place(at, sizeof(at), line, an_ev_u64(e, F_VS_CODE_OFF));
	/* Device memory held stale was reached through peer access: a GPU's
	 * own is not held (vx_hold.c), so the newer bytes came past the
	 * reader's L2, from the memory's own GPU or a copy. */
	if (a && a->mem == HG_MEM_DEVICE)
		snprintf(who, sizeof(who), "GPU %d's memory, reached as a peer, "
			 "had newer bytes", (int)a->device);
	else
		snprintf(who, sizeof(who), "the host had written newer bytes");
	an_find(c, r, r->sev, p, an_obs_find_kernel(p, kernel), a,
		"kernel %s read bytes [0x%llx, 0x%llx] of coarse-grained memory at %s "
		"from a line the GPU's L2 held while %s "
		"(%llu reads)%s: coarse-grained memory is coherent with the host and "
		"other GPUs only at kernel boundaries",
		an_obs_label(p, kernel), (unsigned long long)an_ev_u64(e, F_VS_LO),
		(unsigned long long)an_ev_u64(e, F_VS_HI), at, who,
		(unsigned long long)an_ev_u64(e, F_VS_COUNT),
		an_ev_u64(e, F_VS_STOPPED)
			? "; the kernel never saw the write and was stopped at the "
			  "virtual GPU's instruction budget, as it would hang on the card"
			: "");
}
