/* SPDX-License-Identifier: MIT */
/*
 * Stores to coarse-grained memory that a dispatch stopped at the virtual
 * GPU's instruction budget still held in its L2 (hg_observe.h): the
 * observed half of coarse-sync the other way round.  Such a kernel
 * usually waits for an answer to what it published, and the answer never
 * comes because the host, or another GPU, never saw the value: on the
 * card both wait for ever.  Rows of a dispatch cut short for another
 * reason (an instruction the interpreter lacks, a fault) are the
 * interpreter's doing, not the program's, and make no finding.
 */
#include <stdio.h>
#include <string.h>

#include "an_observed.h"
#include "an_rule.h"
#include "an_schema.h"
#include "an_unwritten.h"
#include "an_state.h"
#include "isa_coh.h"

/* What a system-scope release would have done for the store on the
 * process's product, by the table the virtual GPU ran by. */
static void release_said(const struct an_proc *p, const struct an_kernel *k, char *buf,
			 size_t cap)
{
	const char *arch = an_arch(p, k);
	char proc[32];

	snprintf(proc, sizeof(proc), "%.*s", (int)strcspn(arch, ":"), arch);
	if (!proc[0])
		buf[0] = '\0';
	else if (isa_coh_exchanges(isa_family_of(proc), ISA_COH_HOST, ISA_COH_WB))
		snprintf(buf, cap, "; on %s a system-scope release after the store "
			 "(__threadfence_system) writes the L2 back", proc);
	else
		snprintf(buf, cap, "; %s has no instruction that writes the L2 back "
			 "while the kernel runs", proc);
}

void an_on_vgpu_unwritten(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const struct an_rule *r = an_rule_by_id("coarse-sync");
	const char *kernel = p->obs_kd == an_ev_u64(e, F_VU_KD) ? p->obs_kernel : "";
	struct an_kernel *k = an_obs_find_kernel(p, kernel);
	uint64_t id = an_ev_u64(e, F_VU_ID), lost = an_ev_u64(e, F_VU_LOST);
	struct an_alloc *a = id ? an_alloc_get(p, id) : NULL;
	char at[96], off[48] = "", more[96] = "", release[128];

	if (!r || !an_ev_u64(e, F_VU_STOPPED))
		return;
	if (id && !a)
		a = an_freed_by_id(p, id);
	an_obs_place(at, sizeof(at), an_ev_str(e, F_VU_LINE), an_ev_u64(e, F_VU_CODE_OFF));
	if (a)
		snprintf(off, sizeof(off), " (offset 0x%llx of the block)",
			 (unsigned long long)an_ev_u64(e, F_VU_OFF));
	if (lost)
		snprintf(more, sizeof(more), ", and %llu bytes more in rows the "
			 "virtual GPU did not keep", (unsigned long long)lost);
	release_said(p, k, release, sizeof(release));
	an_find(c, r, r->sev, p, k, a,
		"kernel %s was stopped at the virtual GPU's instruction budget while "
		"%llu bytes it stored to coarse-grained memory, [0x%llx, 0x%llx]%s, at %s "
		"were still in the GPU's L2%s: the host and other GPUs do not see them "
		"until a write-back, so one that waits for them mid-kernel never does, "
		"as it would hang on the card%s",
		an_obs_label(p, kernel), (unsigned long long)an_ev_u64(e, F_VU_COUNT),
		(unsigned long long)an_ev_u64(e, F_VU_LO),
		(unsigned long long)an_ev_u64(e, F_VU_HI), off, at, more, release);
}
