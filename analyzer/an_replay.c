/* SPDX-License-Identifier: MIT */
/* Replay dispatch, and the events that describe a process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_died.h"
#include "an_gpus.h"
#include "an_names.h"
#include "an_output.h"
#include "an_race.h"
#include "an_stale.h"
#include "an_unwritten.h"
#include "an_replay.h"
#include "an_rule.h"
#include "an_timeline.h"
#include "hg_events.h"

static void an_copy_str(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src);
}

/* ROCR_VISIBLE_DEVICES picks among the node's GPUs, HIP_VISIBLE_DEVICES
 * among those ROCr shows: one HIP index into a ROCr list is that entry of
 * the list ("2,3" and "1": GPU 3), so the where line names the GPU the
 * driver's objects are on. */
static void an_visible(struct an_proc *p)
{
	const char *hip = p->vis_hip, *s = p->vis_rocr;
	char *end;
	unsigned long k = strtoul(hip, &end, 10);

	if (!hip[0] || hip[0] < '0' || hip[0] > '9' || *end || !s[0]) {
		an_copy_str(p->gpus, sizeof(p->gpus), s[0] ? s : hip);
		return;
	}
	for (unsigned long i = 0; i < k && s; i++)
		if ((s = strchr(s, ',')))
			s++;
	if (!s)
		an_copy_str(p->gpus, sizeof(p->gpus), p->vis_rocr);
	else
		snprintf(p->gpus, sizeof(p->gpus), "%.*s", (int)strcspn(s, ","), s);
}

static void an_on_env(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const char *name = an_ev_str(e, F_ENV_NAME);
	const char *value = an_ev_str(e, F_ENV_VALUE);

	if (!strcmp(name, "HSA_XNACK"))
		an_copy_str(p->xnack_env, sizeof(p->xnack_env), value);
	else if (!strcmp(name, "OMPI_COMM_WORLD_RANK") ||
		 !strcmp(name, "PMIX_RANK") || !strcmp(name, "PMI_RANK") ||
		 !strcmp(name, "SLURM_PROCID"))
		an_copy_str(p->rank, sizeof(p->rank), value);
	else if (!strcmp(name, "HIPGRAIN_VIRTUAL_GPU"))
		an_copy_str(p->vgpu, sizeof(p->vgpu), value);
	else if (!strcmp(name, "ROCR_VISIBLE_DEVICES") || !strcmp(name, "HIP_VISIBLE_DEVICES")) {
		if (name[0] == 'R')
			an_copy_str(p->vis_rocr, sizeof(p->vis_rocr), value);
		else
			an_copy_str(p->vis_hip, sizeof(p->vis_hip), value);
		an_visible(p);
	}
	else if (!strcmp(name, "HIPGRAIN_VGPU_EXEC"))
		p->vgpu_exec = !strcmp(value, "1");
	else if (!strcmp(name, "HIPGRAIN_VGPU_UNKNOWN"))
		an_set_why(p, value);
}

static void an_on_device(struct an_ctx *c, struct an_proc *p,
			 const struct an_ev *e)
{
	int32_t rc = (int32_t)an_ev_i64(e, F_DEV_RC);
	const char *arch = an_ev_str(e, F_DEV_ARCH);

	/* hipgrain's own question, not the program's call: it says there is
	 * no usable GPU, not that the program failed. */
	if (rc) {
		c->no_gpu = p->no_gpu = true;
		return;
	}
	if (p->have_device)
		return; /* the first device decides; multi-GPU: same arch */
	p->have_device = true;
	an_copy_str(p->arch, sizeof(p->arch), arch);
	an_copy_str(p->dev_name, sizeof(p->dev_name), an_ev_str(e, F_DEV_NAME));
	p->dev_xnack = (uint8_t)an_ev_u64(e, F_DEV_XNACK);
	if (p->dev_xnack != HG_FEAT_ON && p->dev_xnack != HG_FEAT_OFF)
		p->dev_xnack = strstr(arch, "xnack+") ? HG_FEAT_ON
			       : strstr(arch, "xnack-") ? HG_FEAT_OFF
							: p->dev_xnack;
}

static void an_on_callsite(struct an_proc *p, const struct an_ev *e)
{
	uint64_t n;
	const bt_field *fr = an_ev_arr(e, F_CS_FRAMES, &n);
	uint64_t id = an_ev_u64(e, F_CS_ID);
	struct an_callsite *cs;

	if (!fr || hg_map_get(&p->callsites, id))
		return;
	n = n > 256 ? 256 : n;
	cs = malloc(sizeof(*cs) + n * sizeof(cs->frames[0]));
	if (!cs)
		return;
	cs->id = id;
	cs->n = (uint16_t)n;
	for (uint64_t i = 0; i < n; i++)
		cs->frames[i] = an_arr_u64(fr, i);
	if (hg_map_put(&p->callsites, id, cs))
		free(cs);
}

static void an_on_bin(struct an_proc *p, const struct an_ev *e, bool is_pic)
{
	struct an_bin *grown = realloc(p->bins, (p->nbins + 1) * sizeof(*grown));

	if (!grown)
		return;
	p->bins = grown;
	grown[p->nbins] = (struct an_bin){
		.baddr = an_ev_u64(e, F_BIN_BADDR),
		.memsz = an_ev_u64(e, F_BIN_MEMSZ),
		.path = strdup(an_ev_str(e, F_BIN_PATH)), .is_pic = is_pic,
	};
	if (grown[p->nbins].path)
		p->nbins++;
}

/*
 * RTLD_DEEPBIND makes a library bind to its own dependencies first: its
 * calls to the HIP runtime and to malloc never reach the preload.  Say which
 * library, since nothing it allocates or launches is in the trace.
 */
static void an_on_dlopen(struct an_ctx *c, const struct an_ev *e)
{
	const int rtld_deepbind = 0x8; /* <dlfcn.h>, glibc */

	if (an_ev_u64(e, F_DL_FLAGS) & rtld_deepbind)
		an_warn(c, "%s was opened with RTLD_DEEPBIND: its own calls to "
			   "the HIP runtime and to malloc bypass hipgrain, so "
			   "what it allocates and launches is not in this trace",
			an_ev_str(e, F_BIN_PATH));
}

static void an_on_warning(struct an_ctx *c, const struct an_ev *e)
{
	unsigned code = (unsigned)an_ev_u64(e, F_WARN_CODE);

	if (code < AN_WARN_CODES && !c->hg_warn[code]++)
		an_warn(c, "the preload warned: %s", an_ev_str(e, F_WARN_MSG));
}

/*
 * A process is named by the image it runs: the `process` event's exe, not
 * a context field (traces of schema 2 and later carry none but vpid; comm
 * is cut at 15).
 */
static void an_on_process(struct an_ctx *c, struct an_proc *p,
			  const struct an_ev *e)
{
	uint64_t schema = an_ev_u64(e, F_PROCESS_SCHEMA);
	const char *exe = an_ev_str(e, F_PROCESS_EXE);
	const char *base = strrchr(exe, '/');

	p->schema = (uint16_t)schema;
	if (schema > c->newest_schema)
		c->newest_schema = schema; /* none: 0, schema 1 */
	base = base ? base + 1 : exe;
	if (base[0])
		snprintf(p->procname, sizeof(p->procname), "%s", base);
}

/* The XNACK mode every target of a registered code object asks for, if
 * they agree: "gfx90a:xnack+,gfx908:xnack+" asks for on; one target
 * without a mode, or both modes, ask for none. */
static uint8_t targets_xnack(const char *t)
{
	uint8_t mode = 0;
	while (t && *t) {
		const char *end = strchr(t, ',');
		size_t n = end ? (size_t)(end - t) : strlen(t);
		uint8_t m = memmem(t, n, ":xnack+", 7) ? HG_FEAT_ON
			    : memmem(t, n, ":xnack-", 7) ? HG_FEAT_OFF : 0;
		if (!m || (mode && m != mode))
			return 0;
		mode = m;
		t = end ? end + 1 : NULL;
	}
	return mode;
}

void an_on_code_object(struct an_proc *p, const char *targets)
{
	uint8_t mode = targets_xnack(targets);
	if (mode && !p->co_xnack) {
		p->co_xnack = mode;
		an_copy_str(p->co_targets, sizeof(p->co_targets), targets);
	}
}

void an_replay(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	switch (e->cls->kind) {
	case AN_EV_PROCESS: an_on_process(c, p, e); break;
	case AN_EV_ENV: an_on_env(c, p, e); break;
	case AN_EV_DEVICE: an_on_device(c, p, e); break;
	case AN_EV_CALLSITE: an_on_callsite(p, e); break;
	case AN_EV_ALLOC: an_on_alloc(c, p, e); break;
	case AN_EV_FREE: an_on_free(c, p, e); break;
	case AN_EV_ADVISE: an_on_range(c, p, e, false); break;
	case AN_EV_PREFETCH: an_on_range(c, p, e, true); break;
	case AN_EV_DIED: an_on_died(c, p, e); break;
	case AN_EV_EXIT: p->exited = true; break;
	case AN_EV_GRANULARITY: an_on_granularity(c, p, e); break;
	case AN_EV_MEMCPY: an_on_memcpy(c, p, e); break;
	case AN_EV_MEMSET: an_on_memset(c, p, e); break;
	case AN_EV_FUNCTION: an_on_function(c, p, e); break;
	case AN_EV_KERNEL: an_on_kernel(c, p, e); break;
	case AN_EV_LAUNCH: an_on_launch(c, p, e); break;
	case AN_EV_HEAD: an_on_head(p, e); break;
	case AN_EV_BIN_INFO:
		an_on_bin(p, e, an_ev_u64(e, F_BIN_IS_PIC) != 0);
		break;
	case AN_EV_DLOPEN:
		an_on_bin(p, e, true);
		an_on_dlopen(c, e);
		break;
	case AN_EV_WARNING: an_on_warning(c, e); break;
	case AN_EV_CODE_OBJECT:
		if (an_ev_i64(e, F_CO_RC))
			an_fail_add(c, p, (unsigned)an_ev_u64(e, F_CO_API),
				    (int32_t)an_ev_i64(e, F_CO_RC));
		else
			an_on_code_object(p, an_ev_str(e, F_CO_TARGETS));
		break;
	case AN_EV_CALL:
		if (c->tl)
			an_tl_call(c, p, (unsigned)an_ev_u64(e, F_CALL_API),
				   (int32_t)an_ev_i64(e, F_CALL_RC), 0);
		if (an_ev_u64(e, F_CALL_API) == HG_API_HIP_SET_DEVICE &&
		    !an_ev_i64(e, F_CALL_RC))
			p->cur_device = (int32_t)an_ev_u64(e, F_CALL_ARG);
		if (an_ev_u64(e, F_CALL_API) == HG_API_OMP_REGISTER_REQUIRES)
			p->omp_requires |= an_ev_u64(e, F_CALL_ARG);
		if (!strcmp(an_api_lib((unsigned)an_ev_u64(e, F_CALL_API)),
			    "OpenMP"))
			p->omp_offload = true;
		if (an_ev_i64(e, F_CALL_RC))
			an_fail_add(c, p, (unsigned)an_ev_u64(e, F_CALL_API),
				    (int32_t)an_ev_i64(e, F_CALL_RC));
		break;
	case AN_EV_KFD_ALLOC: an_on_kfd_alloc(p, e); break;
	case AN_EV_KFD_FREE: an_on_kfd_free(p, e); break;
	case AN_EV_KFD_SVM: an_on_kfd_svm(p, e); break;
	case AN_EV_KFD_XNACK: an_on_kfd_xnack(p, e); break;
	case AN_EV_KFD_SMI_OPEN: an_on_kfd_smi_open(p, e); break;
	case AN_EV_KFD_NODE: an_on_kfd_node(p, e); break;
	case AN_EV_KFD_SMI: an_on_kfd_smi(c, p, e); break;
	case AN_EV_VGPU_DISPATCH: an_on_vgpu_dispatch(c, p, e); break;
	case AN_EV_VGPU_DROP: an_on_vgpu_drop(c, p, e); break;
	case AN_EV_VGPU_TRAFFIC: an_on_vgpu_traffic(c, p, e); break;
	case AN_EV_VGPU_RACE: an_on_vgpu_race(c, p, e); break;
	case AN_EV_VGPU_STALE: an_on_vgpu_stale(c, p, e); break;
	case AN_EV_VGPU_UNWRITTEN: an_on_vgpu_unwritten(c, p, e); break;
	case AN_EV_RUNTIME:
		if (an_ev_i64(e, F_RT_RC))
			an_warn(c, "the HIP runtime %s could not be loaded "
				   "(rc %d)", an_ev_str(e, F_RT_PATH),
				(int)an_ev_i64(e, F_RT_RC));
		break;
	default:
		break;
	}
}

static void an_end_refresh(void *val, void *arg)
{
	void **pair = arg;

	an_drv_refresh(pair[0], pair[1], val);
}

static void an_end_proc(void *val, void *arg)
{
	struct an_proc *p = val;
	struct an_ctx *c = arg;
	void *pair[2] = {c, p};

	hg_map_each(&p->allocs, an_end_refresh, pair);
	for (unsigned i = 0; i < an_nrules; i++)
		if (an_rules[i]->on_end)
			an_rules[i]->on_end(c, an_rules[i], p);
}

static void an_inv_live(void *val, void *arg)
{
	struct an_ctx *c = ((void **)arg)[0];
	struct an_proc *p = ((void **)arg)[1];

	an_inv_add(c, p, val);
}

static void an_inv_proc(void *val, void *arg)
{
	void *pair[2] = {arg, val};

	hg_map_each(&((struct an_proc *)val)->allocs, an_inv_live, pair);
}

void an_replay_end_procs(struct an_ctx *c)
{
	struct an_proc **v;
	/* In a fixed order: the map's follows addresses, and the findings
	 * and the inventory keep the order they are made in. */
	size_t n = an_procs_sorted(c, &v);

	for (size_t i = 0; i < n; i++)
		an_end_proc(v[i], c);
	for (size_t i = 0; i < n; i++)
		an_inv_proc(v[i], c);
	free(v);
}

void an_replay_end(struct an_ctx *c)
{
	an_gpus_settle(c);
	an_observed_join(c);
}
