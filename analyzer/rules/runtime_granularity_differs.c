/* SPDX-License-Identifier: MIT */
/*
 * What the driver was told (the BO's flags, the SVM range's COHERENT flag)
 * or what a runtime did (its own hsa_amd_svm_attributes_set, inside a HIP
 * or OpenMP call) disagrees with hipgrain's model of the block (allocator,
 * flags, advice, maps).  The report follows the driver where it spoke,
 * else the runtime, so the other findings stand; this one says the
 * program's assumption does not hold.  Judged when the block is freed, or
 * at the end: granularity is set before the call that made it so returns,
 * so the model's own change may come just after.
 */
#include "an_drv.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

/* The driver decides where it was told; a model that knows nothing, or a
 * split both sides see only as mixed, cannot be compared. */
static bool driver_differs(const struct an_alloc *a)
{
	const struct an_drv *d = &a->drv;

	return d->gran && a->model_gran && d->gran != a->model_gran &&
	       !(d->gran == HG_GRAN_MIXED && a->model_gran == HG_GRAN_MIXED);
}

static void judge(struct an_ctx *c, const struct an_rule *r, struct an_proc *p,
		  const struct an_alloc *a)
{
	char why[128];

	if (driver_differs(a))
		an_find(c, r, AN_SEV_WARNING, p, NULL, a,
			"the driver was told %s-grained (%s) for this %s block "
			"where hipgrain's model says %s-grained; the report "
			"follows the driver",
			an_gran_name(a->drv.gran),
			an_drv_why(&a->drv, why, sizeof(why)),
			an_api_name(a->api), an_gran_name(a->model_gran));
	else if (!a->drv.gran && a->runtime_gran &&
		 a->runtime_gran != a->model_gran)
		an_find(c, r, AN_SEV_WARNING, p, NULL, a,
			"the runtime made this %s block %s-grained (its own "
			"hsa_amd_svm_attributes_set) where hipgrain's model "
			"says %s-grained; the report follows the runtime",
			an_api_name(a->api), an_gran_name(a->runtime_gran),
			an_gran_name(a->model_gran));
}

static void on_free(struct an_ctx *c, const struct an_rule *r,
		    const struct an_free_ev *f)
{
	if (f->alloc && !f->rc)
		judge(c, r, f->proc, f->alloc);
}

struct walk {
	struct an_ctx *c;
	const struct an_rule *r;
	struct an_proc *p;
};

static void each(void *val, void *arg)
{
	struct walk *w = arg;

	judge(w->c, w->r, w->p, val);
}

static void on_end(struct an_ctx *c, const struct an_rule *r, struct an_proc *p)
{
	struct walk w = {c, r, p};

	hg_map_each(&p->allocs, each, &w);
}

const struct an_rule an_rule_runtime_granularity_differs = {
    .id = "runtime-granularity-differs",
    .sev = AN_SEV_WARNING,
    .summary = "the driver or the runtime set a granularity other than "
	       "the model's",
    .fix = "find the call that made the runtime change placement (a map "
	   "under unified_shared_memory, hipMemAdvise, an allocator "
	   "flag, HIP_HOST_COHERENT) and make the program say what it "
	   "relies on: "
	   "hipMemAdvise(SetCoarseGrain / UnsetCoarseGrain), a "
	   "hipHostMalloc flag, or an explicit map",
    .on_free = on_free,
    .on_end = on_end,
};
