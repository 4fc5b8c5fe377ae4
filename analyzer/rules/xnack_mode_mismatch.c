/* SPDX-License-Identifier: MIT */
/*
 * A code object built xnack+ or xnack- launched under the other mode; or,
 * where no launch shows it, registered with every target in the other
 * mode: a runtime that cannot load it stops the program first (ROCm 5
 * aborts with hipErrorNoBinaryForGpu before the first launch).
 */
#include "an_rule.h"
#include "hg_events.h"

/* HG_FEAT_ON/OFF when the process's mode is known, else HG_FEAT_ANY. */
static uint8_t proc_mode(const struct an_proc *p)
{
	if (p->kfd_xnack == HG_FEAT_ON || p->kfd_xnack == HG_FEAT_OFF)
		return p->kfd_xnack; /* what the driver answered */
	if (p->have_device && (p->dev_xnack == HG_FEAT_ON ||
			       p->dev_xnack == HG_FEAT_OFF))
		return p->dev_xnack;
	if (p->xnack_env[0] == '1' && !p->xnack_env[1])
		return HG_FEAT_ON;
	if (p->xnack_env[0] == '0' && !p->xnack_env[1])
		return HG_FEAT_OFF;
	return HG_FEAT_ANY;
}

static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_launch *l)
{
	struct an_kernel *k = l->kernel;
	uint8_t mode = proc_mode(l->proc);

	if (!k || !k->profiled || mode == HG_FEAT_ANY)
		return;
	if (k->xnack != HG_FEAT_ON && k->xnack != HG_FEAT_OFF)
		return;
	if (k->xnack == mode)
		return;
	l->proc->xnack_reported = true;
	an_find(c, r, AN_SEV_ERROR, l->proc, k, NULL,
		"%s is built for %s (xnack%s) but the process runs with XNACK "
		"%s: the runtime cannot load this code object for the GPU",
		an_kernel_label(k), k->target, k->xnack == HG_FEAT_ON ? "+" : "-",
		mode == HG_FEAT_ON ? "on" : "off");
}

static void at_end(struct an_ctx *c, const struct an_rule *r, struct an_proc *p)
{
	uint8_t mode = proc_mode(p);

	if (p->xnack_reported || !p->co_xnack || mode == HG_FEAT_ANY ||
	    p->co_xnack == mode)
		return;
	an_find(c, r, AN_SEV_ERROR, p, NULL, NULL,
		"the program's code object is built only for %s but the process "
		"runs with XNACK %s: the runtime cannot load it for the GPU, and "
		"no kernel of it ran",
		p->co_targets, mode == HG_FEAT_ON ? "on" : "off");
}

const struct an_rule an_rule_xnack_mode_mismatch = {
	.id = "xnack-mode-mismatch",
	.sev = AN_SEV_ERROR,
	.summary = "code object XNACK mode differs from the process's",
	.fix = "build with --offload-arch=<gfx>  (xnack any) or both "
	       "<gfx>:xnack+ and <gfx>:xnack-, or set HSA_XNACK to match",
	.on_launch = check,
	.on_end = at_end,
};
