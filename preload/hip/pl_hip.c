/* SPDX-License-Identifier: MIT */
/* The HIP hooks, generated from pl_hip_table.h. */
#include "pl_module.h"
#include "pl_device.h"
#include "pl_hip.h"

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_array_table.h"
#include "pl_copy_table.h"
#include "pl_export.h"
#include "pl_graph.h"
#include "pl_hip_table.h"
#include "pl_inflight.h"
#include "pl_ipc.h"
#include "pl_kernel_forms.h"
#include "pl_launch.h"
#include "pl_legacy.h"
#include "pl_stream.h"
#include "pl_query.h"
#include "pl_vm.h"
#include "pl_warn.h"
#include "reg.h"

/* *ptr is ours to read only when the call succeeded. */
static void rec_alloc(uint8_t api, hipError_t rc, void **ptr, size_t size,
		      unsigned int flags)
{
	void *p = (rc == hipSuccess && ptr) ? *ptr : NULL;

	reg_track_hip_alloc(api, rc, p, size, flags, 0, pl_device_current());
	if (p && api == HG_API_HIP_MALLOC_MANAGED)
		pl_query_coherency(p, size);
}

/* Advice and prefetches: what they ask is resolved, and warned about,
 * before the real call, which may not return. */
static void range_begin(struct pl_inflight *fl, uint8_t api, const void *p,
			size_t n, int advice, int dev)
{
	pl_launch_flush();
	reg_track_range_begin(api, p, n, dev, &fl->op);
	fl->op.advice = advice;
	pl_warn_range(&fl->op);
}

static void rec_advise(struct pl_inflight *fl, hipError_t rc)
{
	const void *p = (const void *)(uintptr_t)fl->op.addr;
	int advice = fl->op.advice;

	reg_track_advise(&fl->op, rc);
	if (rc == hipSuccess && (advice == hipMemAdviseSetCoarseGrain ||
				 advice == hipMemAdviseUnsetCoarseGrain))
		pl_query_coherency(p, fl->op.size);
}

static void rec_prefetch(struct pl_inflight *fl, hipError_t rc,
			 hipStream_t st)
{
	fl->op.stream = (uint64_t)(uintptr_t)st;
	reg_track_prefetch(&fl->op, rc);
}

static void rec_pitch(uint8_t api, hipError_t rc, void **ptr, size_t *pitch,
		      size_t height)
{
	int ok = rc == hipSuccess && ptr && pitch;
	size_t pt = ok ? *pitch : 0;

	reg_track_hip_alloc(api, rc, ok ? *ptr : NULL,
			    pt * height, 0, pt, pl_device_current());
}

static void rec_3d(hipError_t rc, hipPitchedPtr *pp, hipExtent e)
{
	int ok = rc == hipSuccess && pp;

	reg_track_hip_alloc(HG_API_HIP_MALLOC_3D, rc, ok ? pp->ptr : NULL,
			    ok ? pp->pitch * e.height * e.depth : 0, 0,
			    ok ? pp->pitch : 0, pl_device_current());
}

/* One launch per device's entry, each on its own stream. */
static void rec_multi_device(hipError_t rc, hipLaunchParams *l, int n)
{
	for (int i = 0; l && i < n; i++)
		pl_graph_launch_or_capture(
			HG_API_HIP_LAUNCH_COOPERATIVE_KERNEL_MULTI_DEVICE, rc,
			l[i].func, l[i].gridDim, l[i].blockDim, l[i].args,
			NULL, l[i].sharedMem, l[i].stream);
}

static void rec_module_multi_device(hipError_t rc,
				    hipFunctionLaunchParams *l,
				    unsigned int n)
{
	for (unsigned int i = 0; l && i < n; i++)
		pl_graph_launch_or_capture(
			HG_API_HIP_MODULE_LAUNCH_COOPERATIVE_KERNEL_MULTI_DEVICE,
			rc, l[i].function,
			(dim3){l[i].gridDimX, l[i].gridDimY, l[i].gridDimZ},
			(dim3){l[i].blockDimX, l[i].blockDimY, l[i].blockDimZ},
			l[i].kernelParams, NULL, l[i].sharedMemBytes,
			l[i].hStream);
}

#define PL_HIP_WRAP(name, params, args, query, pre, post)                      \
	PL_EXPORT hipError_t name params                                       \
	{                                                                      \
		static __typeof__(&name) real;                                 \
		struct reg_hip_free fst __attribute__((unused)) = {0};         \
		struct pl_inflight *pl_fl = NULL;                              \
		int tr = pl_hip_enter(query);                                  \
		int pl_launching = (query) == PL_Q_LAUNCH && pl_launch_watched;\
		hipError_t rc;                                                 \
		if (pl_launching)                                              \
			pl_launch_begin();                                     \
		if (!real)                                                     \
			real = (__typeof__(&name))pl_next_sym(PL_NAME(name));  \
		if (tr) {                                                      \
			pl_fl = pl_inflight_enter(#name, PL_CALLER());         \
			pre;                                                   \
		}                                                              \
		pl_in_runtime += tr;                                           \
		rc = real args;                                                \
		pl_in_runtime -= tr;                                           \
		if (pl_fl)                                                     \
			pl_inflight_leave(pl_fl);                              \
		if (tr)                                                        \
			post;                                                  \
		if (pl_launching)                                              \
			pl_launch_end();                                       \
		pl_hip_leave();                                                \
		return rc;                                                     \
	}

PL_HIP_TABLE(PL_HIP_WRAP)
PL_COPY_MORE_TABLE(PL_HIP_WRAP)
PL_ARRAY_COPY_TABLE(PL_HIP_WRAP)
PL_IPC_TABLE(PL_HIP_WRAP)
PL_KERNEL_FORMS_TABLE(PL_HIP_WRAP)
