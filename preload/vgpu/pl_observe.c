/* SPDX-License-Identifier: MIT */
/*
 * What a dispatch did on the virtual GPU, recorded as observed fact: how
 * it ended, which atomics the product's memory made do nothing, the
 * bytes it read and wrote, and what its L2 served stale or still held
 * unwritten when it stopped, each row tied to the block its lowest address
 * lies in, so that the report can set what happened beside what it
 * inferred.  Called on the virtual GPU's own thread, which the program
 * never sees.
 */
#include <stddef.h>

#include "hg_observe.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_launch.h"
#include "pl_profile.h"
#include "reg.h"

static void drop(const struct hg_observed *o, const struct hg_observed_drop *d)
{
	struct reg_ptr at = { 0 };
	reg_track_resolve((uintptr_t)d->lo, &at);
	struct hg_tp_vgpu_drop x = {
		.kd = o->kd, .code_off = d->code_off, .id = at.id, .off = at.off,
		.lo = d->lo, .hi = d->hi, .count = d->count, .op = d->op ? d->op : "",
		.kind = (uint8_t)d->kind, .mem = at.mem, .gran = at.gran,
	};
	reg_emit_vgpu_drop(&x);
}

/* A row is resolved by its lowest byte; its highest says whether the
 * bytes stayed in that block. */
static void traffic(const struct hg_observed *o, const struct hg_observed_traffic *t,
		    uint8_t scope)
{
	struct reg_ptr at = { 0 }, end = { 0 };
	reg_track_resolve((uintptr_t)t->lo, &at);
	if (scope == 0) {
		reg_track_resolve((uintptr_t)t->hi, &end);
		scope = (uint8_t)(end.id != at.id);
	}
	struct hg_tp_vgpu_traffic x = {
		.kd = o->kd, .id = at.id, .off = at.off, .lo = t->lo, .hi = t->hi,
		.read = t->read, .written = t->written, .mem = at.mem, .gran = at.gran,
		.scope = scope,
	};
	reg_emit_vgpu_traffic(&x);
}

static void traffics(const struct hg_observed *o)
{
	/* A caller older than the traffic rows has none to give. */
	if (o->size < offsetof(struct hg_observed, traffic_more) + sizeof(o->traffic_more))
		return;
	for (uint32_t i = 0; i < o->ntraffic && o->traffic; i++)
		traffic(o, &o->traffic[i], 0);
	if (o->traffic_more.read | o->traffic_more.written)
		traffic(o, &o->traffic_more, 2);
}

/* Each race names both its instructions' lines, looked up in the code
 * object the kernel came from: the trace carries no code. */
static void races(const struct hg_observed *o)
{
	if (o->size < offsetof(struct hg_observed, races_lost) + sizeof(o->races_lost))
		return;
	for (uint32_t i = 0; i < o->nraces && o->races; i++) {
		const struct hg_observed_race *r = &o->races[i];
		char lines[2][96];

		pl_profile_lines(o->kernel, r->code_off, 2, lines);
		struct hg_tp_vgpu_race x = {
			.kd = o->kd, .code_off_a = r->code_off[0], .code_off_b = r->code_off[1],
			.lo = r->lo, .hi = r->hi, .count = r->count, .line_a = lines[0],
			.line_b = lines[1], .cls_a = r->cls[0], .cls_b = r->cls[1],
			.lds = r->lds,
		};
		reg_emit_vgpu_race(&x);
	}
}

/* Each stale read names its line and the block it read. */
static void stales(const struct hg_observed *o)
{
	if (o->size < offsetof(struct hg_observed, stales_lost) + sizeof(o->stales_lost))
		return;
	for (uint32_t i = 0; i < o->nstales && o->stales; i++) {
		const struct hg_observed_stale *r = &o->stales[i];
		struct reg_ptr at = { 0 };
		char line[1][96];

		reg_track_resolve((uintptr_t)r->lo, &at);
		pl_profile_lines(o->kernel, &r->code_off, 1, line);
		struct hg_tp_vgpu_stale x = {
			.kd = o->kd, .code_off = r->code_off, .id = at.id, .off = at.off,
			.lo = r->lo, .hi = r->hi, .count = r->count, .line = line[0],
			.stopped = o->status == HG_EXEC_BUDGET,
		};
		reg_emit_vgpu_stale(&x);
	}
}

/* Each store a dispatch cut short left in the L2 names its line and the
 * block it stored to. */
static void unwritten(const struct hg_observed *o)
{
	if (o->size < offsetof(struct hg_observed, unwritten_lost) + sizeof(o->unwritten_lost))
		return;
	for (uint32_t i = 0; i < o->nunwritten && o->unwritten; i++) {
		const struct hg_observed_unwritten *r = &o->unwritten[i];
		struct reg_ptr at = { 0 };
		char line[1][96];

		reg_track_resolve((uintptr_t)r->lo, &at);
		pl_profile_lines(o->kernel, &r->code_off, 1, line);
		struct hg_tp_vgpu_unwritten x = {
			.kd = o->kd, .code_off = r->code_off, .id = at.id, .off = at.off,
			.lo = r->lo, .hi = r->hi, .count = r->count, .lost = o->unwritten_lost,
			.line = line[0], .stopped = o->status == HG_EXEC_BUDGET,
		};
		reg_emit_vgpu_unwritten(&x);
	}
}

PL_EXPORT uint64_t hipgrain_observe_block(uint64_t va);
PL_EXPORT uint64_t hipgrain_observe_block(uint64_t va)
{
	if (!pl_enabled)
		return 0;
	PL_NESTED();
	struct reg_ptr at = { 0 };
	reg_track_resolve((uintptr_t)va, &at);
	return at.id ? va - at.off : 0;
}

PL_EXPORT void hipgrain_observe_dispatch(const struct hg_observed *o);
PL_EXPORT void hipgrain_observe_dispatch(const struct hg_observed *o)
{
	/* A caller older than a field we read is not trusted with it. */
	if (!pl_enabled || !o || o->size < offsetof(struct hg_observed, drops_lost) +
					      sizeof(o->drops_lost))
		return;
	PL_NESTED();
	struct hg_tp_vgpu_dispatch e = {
		.kd = o->kd, .kernel = o->kernel ? o->kernel : "",
		.status = (int32_t)o->status, .what = o->what ? o->what : "",
		.code_off = o->code_off, .fault_va = o->fault_va,
		.fault_write = (uint8_t)!!o->fault_write, .insns = o->insns,
		.drops = o->ndrops, .drops_lost = o->drops_lost,
	};
	reg_emit_vgpu_dispatch(&e);
	for (uint32_t i = 0; i < o->ndrops && o->drops; i++)
		drop(o, &o->drops[i]);
	traffics(o);
	races(o);
	stales(o);
	unwritten(o);
	/* A fault ends the process once the device raises it: what the
	 * program launched is written first, on every run alike. */
	if (o->status == HG_EXEC_FAULT)
		pl_launch_settle();
}
