/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU's observations (vgpu_*): how a dispatch ended on the
 * interpreter, the atomics that did nothing, and the bytes it moved.  Keys
 * are the fields of provider/hg_tp.h.
 */
#include <errno.h>
#include <string.h>

#include "hg_tp.h"
#include "tg.h"

#define U(k) tg_u64(l, k, 0)
#define S(k) tg_str(l, k, "")

static void tg_vgpu_dispatch(const struct tg_line *l)
{
	struct hg_tp_vgpu_dispatch d = {
		.kd = U("kd"), .kernel = S("kernel"), .status = (int32_t)tg_i64(l, "status", 0),
		.what = S("what"), .code_off = U("code_off"), .fault_va = U("fault_va"),
		.fault_write = (uint8_t)U("fault_write"), .insns = U("insns"),
		.drops = (uint32_t)U("drops"), .drops_lost = U("drops_lost"),
	};

	lttng_ust_tracepoint(hipgrain, vgpu_dispatch, &d);
}

static void tg_vgpu_drop(const struct tg_line *l)
{
	struct hg_tp_vgpu_drop x = {
		.kd = U("kd"), .code_off = U("code_off"), .id = U("id"), .off = U("off"),
		.lo = U("lo"), .hi = U("hi"), .count = U("count"), .op = S("op"),
		.kind = (uint8_t)U("kind"), .mem = (uint8_t)U("mem"),
		.gran = (uint8_t)U("gran"),
	};

	lttng_ust_tracepoint(hipgrain, vgpu_drop, &x);
}

static void tg_vgpu_traffic(const struct tg_line *l)
{
	struct hg_tp_vgpu_traffic t = {
		.kd = U("kd"), .id = U("id"), .off = U("off"), .lo = U("lo"), .hi = U("hi"),
		.read = U("read"), .written = U("written"), .mem = (uint8_t)U("mem"),
		.gran = (uint8_t)U("gran"), .scope = (uint8_t)U("scope"),
	};

	lttng_ust_tracepoint(hipgrain, vgpu_traffic, &t);
}

int tg_emit_vgpu(const struct tg_line *l)
{
	if (!strcmp(l->event, "vgpu_dispatch"))
		tg_vgpu_dispatch(l);
	else if (!strcmp(l->event, "vgpu_drop"))
		tg_vgpu_drop(l);
	else if (!strcmp(l->event, "vgpu_traffic"))
		tg_vgpu_traffic(l);
	else
		return -ENOENT;
	return 0;
}
