/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU's observations (vgpu_*): how a dispatch ended on the
 * interpreter, the atomics that did nothing, the bytes it moved, the
 * races between its waves, and what its L2 served stale or still held
 * unwritten.  Keys are the fields of provider/hg_tp.h.
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

static void tg_vgpu_race(const struct tg_line *l)
{
	struct hg_tp_vgpu_race x = {
		.kd = U("kd"), .code_off_a = U("code_off_a"), .code_off_b = U("code_off_b"),
		.line_a = S("line_a"), .line_b = S("line_b"), .cls_a = (uint8_t)U("cls_a"),
		.cls_b = (uint8_t)U("cls_b"), .lds = (uint8_t)U("lds"), .lo = U("lo"),
		.hi = U("hi"), .count = U("count"),
	};

	lttng_ust_tracepoint(hipgrain, vgpu_race, &x);
}

static void tg_vgpu_stale(const struct tg_line *l)
{
	struct hg_tp_vgpu_stale x = {
		.kd = U("kd"), .code_off = U("code_off"), .id = U("id"), .off = U("off"),
		.lo = U("lo"), .hi = U("hi"), .count = U("count"), .line = S("line"),
		.stopped = (uint8_t)U("stopped"),
	};

	lttng_ust_tracepoint(hipgrain, vgpu_stale, &x);
}

static void tg_vgpu_unwritten(const struct tg_line *l)
{
	struct hg_tp_vgpu_unwritten x = {
		.kd = U("kd"), .code_off = U("code_off"), .id = U("id"), .off = U("off"),
		.lo = U("lo"), .hi = U("hi"), .count = U("count"), .lost = U("lost"),
		.line = S("line"), .stopped = (uint8_t)U("stopped"),
	};

	lttng_ust_tracepoint(hipgrain, vgpu_unwritten, &x);
}

int tg_emit_vgpu(const struct tg_line *l)
{
	if (!strcmp(l->event, "vgpu_dispatch"))
		tg_vgpu_dispatch(l);
	else if (!strcmp(l->event, "vgpu_drop"))
		tg_vgpu_drop(l);
	else if (!strcmp(l->event, "vgpu_traffic"))
		tg_vgpu_traffic(l);
	else if (!strcmp(l->event, "vgpu_race"))
		tg_vgpu_race(l);
	else if (!strcmp(l->event, "vgpu_stale"))
		tg_vgpu_stale(l);
	else if (!strcmp(l->event, "vgpu_unwritten"))
		tg_vgpu_unwritten(l);
	else
		return -ENOENT;
	return 0;
}
