/* SPDX-License-Identifier: MIT */
/*
 * The `hipgrain` LTTng-UST provider: every event hipgrain writes.  The man
 * page hipgrain-events(7) documents each field; the preload suite's
 * events-doc test (tests/preload/test_events_doc.py) fails when an event or
 * field here is missing there, or one documented there is gone from here.
 * A change to what an event holds changes the trace format: bump
 * HG_TRACE_SCHEMA (hg_events.h), keep the analyzer reading the old form,
 * and add the change to the schema history in doc/design.md.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER hipgrain

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "hg_tp.h"

#if !defined(HG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define HG_TP_H

#include <lttng/tracepoint.h>
#include "hg_tp_types.h"

/*
 * An allocation, a free, a launch, a memcpy and a memset are each one
 * field: their words (hg_tp_pack_*) in the byte form of hg_pack.h, written as text
 * (hg_text.h, hg_tp_text.h).  LTTng-UST makes a call per field written and pays for
 * every byte, and these are the events a program writes by the thousand.
 * The field's name says the form, and a reader goes by it: `text` for an
 * alloc, a free, a memcpy or a memset, `reftext` for a launch, which refers to its head,
 * declared once by a `head` event (hg_pack_launch_ref).  Older traces
 * name other forms (`pack`, `ref`, `bytes`, `words`); the analyzer reads
 * them all (an_schema.h).
 *
 * The text is one string: a reader, babeltrace2 first, pays for each
 * element of an integer array, and reads a string whole with one scan for
 * its end.  The record is still widened to a multiple of four bytes
 * (hg_pack_widen), so that its text is whole groups of five characters.
 *
 * They come first: LTTng numbers a channel's events in the order they are
 * registered, and an event numbered 31 or more takes an extended header
 * (13 bytes, not 4).
 */
LTTNG_UST_TRACEPOINT_EVENT_CLASS(hipgrain, packed,
	LTTNG_UST_TP_ARGS(const char *, t),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(text, t)
	)
)
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(hipgrain, packed, hipgrain, alloc,
	LTTNG_UST_TP_ARGS(const char *, t))
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(hipgrain, packed, hipgrain, free,
	LTTNG_UST_TP_ARGS(const char *, t))
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, launch,
	LTTNG_UST_TP_ARGS(const char *, t),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(reftext, t)
	)
)

/* A memcpy and a memset too (schema 10): a program that copies or clears
 * in a loop writes them as often as it launches. */
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(hipgrain, packed, hipgrain, memcpy,
	LTTNG_UST_TP_ARGS(const char *, t))

LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(hipgrain, packed, hipgrain, memset,
	LTTNG_UST_TP_ARGS(const char *, t))

/* Any other intercepted HIP call: its return code is evidence too. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, call,
	LTTNG_UST_TP_ARGS(uint8_t, api, int32_t, rc, uint64_t, arg),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, api, api)
		lttng_ust_field_integer(int32_t, rc, rc)
		lttng_ust_field_integer_hex(uint64_t, arg, arg)
	)
)

/* A launch's head, declared once under a number its launches refer to
 * (hg_pack_launch_ref). */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, head,
	LTTNG_UST_TP_ARGS(uint32_t, id, const struct hg_tp_launch *, l),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, id, id)
		lttng_ust_field_integer(uint8_t, api, l->api)
		lttng_ust_field_integer_hex(uint64_t, handle, l->handle)
		lttng_ust_field_integer_hex(uint64_t, stream, l->stream)
		lttng_ust_field_array(uint32_t, grid, l->grid, 3)
		lttng_ust_field_array(uint32_t, block, l->block, 3)
		lttng_ust_field_integer(uint32_t, shmem, l->shmem)
		lttng_ust_field_integer(int32_t, rc, l->rc)
		lttng_ust_field_integer(uint64_t, callsite, l->callsite)
		lttng_ust_field_integer(int32_t, device, l->device)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, process,
	LTTNG_UST_TP_ARGS(const struct hg_tp_process *, p),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, ppid, p->ppid)
		lttng_ust_field_string(exe, p->exe)
		lttng_ust_field_string(version, p->version)
		lttng_ust_field_integer(uint8_t, host_mode, p->host_mode)
		lttng_ust_field_integer(uint64_t, stack_threshold, p->stack_threshold)
		lttng_ust_field_integer(uint32_t, stack_depth, p->stack_depth)
		lttng_ust_field_integer(uint16_t, schema, p->schema)
	)
)

/* One per whitelisted environment variable that is set. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, env,
	LTTNG_UST_TP_ARGS(const char *, name, const char *, value),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(name, name)
		lttng_ust_field_string(value, value)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, runtime,
	LTTNG_UST_TP_ARGS(const char *, path, int32_t, version, int32_t, rc),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(path, path)
		lttng_ust_field_integer(int32_t, version, version)
		lttng_ust_field_integer(int32_t, rc, rc)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, device,
	LTTNG_UST_TP_ARGS(const struct hg_tp_device *, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, ordinal, d->ordinal)
		lttng_ust_field_integer(int32_t, rc, d->rc)
		lttng_ust_field_string(arch, d->arch)
		lttng_ust_field_string(name, d->name)
		lttng_ust_field_integer(uint8_t, xnack, d->xnack)
		lttng_ust_field_integer(uint8_t, sramecc, d->sramecc)
		lttng_ust_field_integer(int32_t, managed_memory, d->managed_memory)
		lttng_ust_field_integer(int32_t, runtime_version, d->runtime_version)
	)
)

/* A distinct stack, emitted once; other events refer to it by id. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, callsite,
	LTTNG_UST_TP_ARGS(uint64_t, id, const uint64_t *, frames, uint16_t, n),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, id, id)
		lttng_ust_field_sequence_hex(uint64_t, frames, frames, uint16_t, n)
	)
)

LTTNG_UST_TRACEPOINT_EVENT_CLASS(hipgrain, range_op,
	LTTNG_UST_TP_ARGS(const struct hg_tp_range_op *, r),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, api, r->api)
		lttng_ust_field_integer_hex(uint64_t, addr, r->addr)
		lttng_ust_field_integer(uint64_t, size, r->size)
		lttng_ust_field_integer(int32_t, advice, r->advice)
		lttng_ust_field_integer(int32_t, device, r->device)
		lttng_ust_field_integer_hex(uint64_t, stream, r->stream)
		lttng_ust_field_integer(int32_t, rc, r->rc)
		lttng_ust_field_integer(uint64_t, id, r->id)
		lttng_ust_field_integer(uint8_t, mem, r->mem)
		lttng_ust_field_integer(uint64_t, callsite, r->callsite)
	)
)
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(hipgrain, range_op, hipgrain, advise,
	LTTNG_UST_TP_ARGS(const struct hg_tp_range_op *, r))
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(hipgrain, range_op, hipgrain, prefetch,
	LTTNG_UST_TP_ARGS(const struct hg_tp_range_op *, r))

/* Granularity of a range changed (advice) or as the runtime reports it. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, granularity,
	LTTNG_UST_TP_ARGS(const struct hg_tp_granularity *, g),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, id, g->id)
		lttng_ust_field_integer_hex(uint64_t, addr, g->addr)
		lttng_ust_field_integer(uint64_t, size, g->size)
		lttng_ust_field_integer(uint8_t, gran, g->gran)
		lttng_ust_field_integer(uint8_t, source, g->source)
		lttng_ust_field_integer(int32_t, rc, g->rc)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, code_object,
	LTTNG_UST_TP_ARGS(const struct hg_tp_code_object *, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, api, c->api)
		lttng_ust_field_integer_hex(uint64_t, module, c->module)
		lttng_ust_field_integer_hex(uint64_t, image, c->image)
		lttng_ust_field_integer(uint64_t, size, c->size)
		lttng_ust_field_integer_hex(uint64_t, hash, c->hash)
		lttng_ust_field_string(targets, c->targets)
		lttng_ust_field_string(path, c->path)
		lttng_ust_field_integer(int32_t, rc, c->rc)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, function,
	LTTNG_UST_TP_ARGS(const struct hg_tp_function *, f),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, api, f->api)
		lttng_ust_field_integer_hex(uint64_t, module, f->module)
		lttng_ust_field_integer_hex(uint64_t, handle, f->handle)
		lttng_ust_field_string(name, f->name)
		lttng_ust_field_integer(int32_t, rc, f->rc)
	)
)

/* A kernel's facts, once per (handle, target), at its first launch. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kernel,
	LTTNG_UST_TP_ARGS(const struct hg_tp_kernel *, k),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, handle, k->handle)
		lttng_ust_field_integer_hex(uint64_t, module, k->module)
		lttng_ust_field_string(name, k->name)
		lttng_ust_field_string(target, k->target)
		lttng_ust_field_integer(int32_t, status, k->status)
		lttng_ust_field_integer_hex(uint64_t, co_hash, k->co_hash)
		lttng_ust_field_integer(uint8_t, xnack, k->xnack)
		lttng_ust_field_integer(uint32_t, kernarg_size, k->kernarg_size)
		lttng_ust_field_sequence(uint32_t, arg_offset, k->arg_offset, uint16_t, k->nargs)
		lttng_ust_field_sequence(uint32_t, arg_size, k->arg_size, uint16_t, k->nargs)
		lttng_ust_field_sequence(uint8_t, arg_kind, k->arg_kind, uint16_t, k->nargs)
		lttng_ust_field_sequence(uint8_t, arg_space, k->arg_space, uint16_t, k->nargs)
		lttng_ust_field_integer_hex(uint32_t, fp_ops, k->fp_ops)
		lttng_ust_field_integer(uint32_t, fp_count, k->fp_count)
		lttng_ust_field_string(fp_mnemonics, k->fp_mnemonics)
		lttng_ust_field_integer_hex(uint64_t, fp_first, k->fp_first)
		lttng_ust_field_integer_hex(uint32_t, int_ops, k->int_ops)
		lttng_ust_field_integer(uint32_t, int_count, k->int_count)
		lttng_ust_field_string(int_mnemonics, k->int_mnemonics)
		lttng_ust_field_integer(uint32_t, cas_count, k->cas_count)
		lttng_ust_field_integer(uint32_t, lds_count, k->lds_count)
		lttng_ust_field_string(fp_sites, k->fp_sites)
		lttng_ust_field_string(int_sites, k->int_sites)
		lttng_ust_field_string(sys_sites, k->sys_sites)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, warning,
	LTTNG_UST_TP_ARGS(uint16_t, code, const char *, message),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, code, code)
		lttng_ust_field_string(message, message)
	)
)

/* The process is ending normally (exit, or a return from main): what it
 * meant to free, it had the chance to.  Its absence lets no leak be
 * judged. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, exit,
	LTTNG_UST_TP_ARGS(uint8_t, normal),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, normal, normal)
	)
)

/* Written from the handler of a signal that ends the process (abort,
 * fault) for each hooked call then in the runtime: the call never
 * returned, so no other event says what it asked. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, died,
	LTTNG_UST_TP_ARGS(const struct hg_tp_died *, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(name, d->name)
		lttng_ust_field_integer(int32_t, signal, d->signal)
		lttng_ust_field_integer(uint8_t, here, d->here)
		lttng_ust_field_integer(uint64_t, callsite, d->callsite)
		lttng_ust_field_integer(uint8_t, api, d->op->api)
		lttng_ust_field_integer_hex(uint64_t, addr, d->op->addr)
		lttng_ust_field_integer(uint64_t, size, d->op->size)
		lttng_ust_field_integer(int32_t, advice, d->op->advice)
		lttng_ust_field_integer(int32_t, device, d->op->device)
		lttng_ust_field_integer(uint64_t, id, d->op->id)
		lttng_ust_field_integer(uint8_t, mem, d->op->mem)
	)
)

/*
 * The driver front end: what the KFD driver was told (/dev/kfd ioctls) and
 * what it reported (SMI events).  Rare next to allocations and launches,
 * so they come last, past the ids that fit the compact header.
 */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_alloc,
	LTTNG_UST_TP_ARGS(const struct hg_tp_kfd_alloc *, a),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, va, a->va)
		lttng_ust_field_integer(uint64_t, size, a->size)
		lttng_ust_field_integer_hex(uint64_t, handle, a->handle)
		lttng_ust_field_integer_hex(uint64_t, cpu, a->cpu)
		lttng_ust_field_integer_hex(uint32_t, flags, a->flags)
		lttng_ust_field_integer(uint32_t, gpu_id, a->gpu_id)
		lttng_ust_field_integer(int32_t, rc, a->rc)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_free,
	LTTNG_UST_TP_ARGS(uint64_t, handle, int32_t, rc),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, handle, handle)
		lttng_ust_field_integer(int32_t, rc, rc)
	)
)

/* attrs: the ioctl's (type, value) pairs, flattened. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_svm,
	LTTNG_UST_TP_ARGS(uint64_t, start, uint64_t, size, uint8_t, op,
			  const uint32_t *, attrs, uint16_t, n, int32_t, rc),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, start, start)
		lttng_ust_field_integer(uint64_t, size, size)
		lttng_ust_field_integer(uint8_t, op, op)
		lttng_ust_field_sequence_hex(uint32_t, attrs, attrs, uint16_t, n)
		lttng_ust_field_integer(int32_t, rc, rc)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_xnack,
	LTTNG_UST_TP_ARGS(int32_t, requested, int32_t, enabled, int32_t, rc),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, requested, requested)
		lttng_ust_field_integer(int32_t, enabled, enabled)
		lttng_ust_field_integer(int32_t, rc, rc)
	)
)

/*
 * One per GPU node of the KFD topology, when the runtime first asks the
 * driver its version: the node's target, PCI device, name, hive and
 * capability, its io_link to a CPU (type: 2 PCIe, 11 xGMI; flags: bits 2
 * and 3 say atomics do not cross it), and the driver's versions.
 */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_node,
	LTTNG_UST_TP_ARGS(const struct hg_tp_kfd_node *, n),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, node, n->node)
		lttng_ust_field_integer(uint32_t, gpu_id, n->gpu_id)
		lttng_ust_field_integer(uint32_t, gfx_target_version, n->gfx_target_version)
		lttng_ust_field_integer_hex(uint32_t, device_id, n->device_id)
		lttng_ust_field_string(name, n->name)
		lttng_ust_field_integer_hex(uint64_t, hive_id, n->hive_id)
		lttng_ust_field_integer_hex(uint32_t, capability, n->capability)
		lttng_ust_field_integer(uint32_t, cpu_node, n->cpu_node)
		lttng_ust_field_integer(uint32_t, link_type, n->link_type)
		lttng_ust_field_integer_hex(uint32_t, link_flags, n->link_flags)
		lttng_ust_field_integer(uint32_t, kfd_major, n->kfd_major)
		lttng_ust_field_integer(uint32_t, kfd_minor, n->kfd_minor)
		lttng_ust_field_string(driver, n->driver)
	)
)

/* The SMI event file of one GPU: opened (rc 0) or why not. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_smi_open,
	LTTNG_UST_TP_ARGS(uint32_t, gpu_id, int32_t, rc),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, gpu_id, gpu_id)
		lttng_ust_field_integer(int32_t, rc, rc)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(hipgrain, kfd_smi,
	LTTNG_UST_TP_ARGS(const struct hg_tp_kfd_smi *, e),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, kind, e->kind)
		lttng_ust_field_integer(int32_t, trigger, e->trigger)
		lttng_ust_field_integer_hex(uint64_t, addr, e->addr)
		lttng_ust_field_integer(uint64_t, size, e->size)
		lttng_ust_field_integer(uint32_t, from, e->from)
		lttng_ust_field_integer(uint32_t, to, e->to)
		lttng_ust_field_integer(uint32_t, node, e->node)
		lttng_ust_field_integer(uint8_t, rw, e->rw)
		lttng_ust_field_integer(uint64_t, ns, e->ns)
		lttng_ust_field_integer(int32_t, error, e->error)
	)
)

/*
 * The virtual GPU's observations: facts no real driver reports, present
 * only when kernels ran on hipgrain's interpreter.  drops: the rows of
 * vgpu_drop that follow, for the same kd.
 */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, vgpu_dispatch,
	LTTNG_UST_TP_ARGS(const struct hg_tp_vgpu_dispatch *, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, kd, d->kd)
		lttng_ust_field_string(kernel, d->kernel)
		lttng_ust_field_integer(int32_t, status, d->status)
		lttng_ust_field_string(what, d->what)
		lttng_ust_field_integer_hex(uint64_t, code_off, d->code_off)
		lttng_ust_field_integer_hex(uint64_t, fault_va, d->fault_va)
		lttng_ust_field_integer(uint8_t, fault_write, d->fault_write)
		lttng_ust_field_integer(uint64_t, insns, d->insns)
		lttng_ust_field_integer(uint32_t, drops, d->drops)
		lttng_ust_field_integer(uint64_t, drops_lost, d->drops_lost)
	)
)

/* id, off: the block the lowest address aimed at lies in (0: none). */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, vgpu_drop,
	LTTNG_UST_TP_ARGS(const struct hg_tp_vgpu_drop *, x),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, kd, x->kd)
		lttng_ust_field_integer_hex(uint64_t, code_off, x->code_off)
		lttng_ust_field_string(op, x->op)
		lttng_ust_field_integer(uint64_t, count, x->count)
		lttng_ust_field_integer(uint64_t, id, x->id)
		lttng_ust_field_integer(uint64_t, off, x->off)
		lttng_ust_field_integer_hex(uint64_t, lo, x->lo)
		lttng_ust_field_integer_hex(uint64_t, hi, x->hi)
		lttng_ust_field_integer(uint8_t, kind, x->kind)
		lttng_ust_field_integer(uint8_t, mem, x->mem)
		lttng_ust_field_integer(uint8_t, gran, x->gran)
	)
)

/* Bytes a dispatch's loads, stores and atomics moved in one block:
 * struct hg_tp_vgpu_traffic. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, vgpu_traffic,
	LTTNG_UST_TP_ARGS(const struct hg_tp_vgpu_traffic *, t),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, kd, t->kd)
		lttng_ust_field_integer(uint64_t, id, t->id)
		lttng_ust_field_integer(uint64_t, off, t->off)
		lttng_ust_field_integer_hex(uint64_t, lo, t->lo)
		lttng_ust_field_integer_hex(uint64_t, hi, t->hi)
		lttng_ust_field_integer(uint64_t, read, t->read)
		lttng_ust_field_integer(uint64_t, written, t->written)
		lttng_ust_field_integer(uint8_t, mem, t->mem)
		lttng_ust_field_integer(uint8_t, gran, t->gran)
		lttng_ust_field_integer(uint8_t, scope, t->scope)
	)
)

/* A race between waves of a work-group: struct hg_tp_vgpu_race.  cls_*:
 * 0 read, 1 write, 2 atomic; lds: 1 for LDS (lo and hi offsets in it), 0
 * for global memory (addresses). */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, vgpu_race,
	LTTNG_UST_TP_ARGS(const struct hg_tp_vgpu_race *, x),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, kd, x->kd)
		lttng_ust_field_integer_hex(uint64_t, code_off_a, x->code_off_a)
		lttng_ust_field_integer_hex(uint64_t, code_off_b, x->code_off_b)
		lttng_ust_field_string(line_a, x->line_a)
		lttng_ust_field_string(line_b, x->line_b)
		lttng_ust_field_integer(uint8_t, cls_a, x->cls_a)
		lttng_ust_field_integer(uint8_t, cls_b, x->cls_b)
		lttng_ust_field_integer(uint8_t, lds, x->lds)
		lttng_ust_field_integer_hex(uint64_t, lo, x->lo)
		lttng_ust_field_integer_hex(uint64_t, hi, x->hi)
		lttng_ust_field_integer(uint64_t, count, x->count)
	)
)

/* Stale reads through the GPU's L2: struct hg_tp_vgpu_stale. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, vgpu_stale,
	LTTNG_UST_TP_ARGS(const struct hg_tp_vgpu_stale *, x),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, kd, x->kd)
		lttng_ust_field_integer_hex(uint64_t, code_off, x->code_off)
		lttng_ust_field_integer(uint64_t, id, x->id)
		lttng_ust_field_integer_hex(uint64_t, off, x->off)
		lttng_ust_field_integer_hex(uint64_t, lo, x->lo)
		lttng_ust_field_integer_hex(uint64_t, hi, x->hi)
		lttng_ust_field_integer(uint64_t, count, x->count)
		lttng_ust_field_string(line, x->line)
		lttng_ust_field_integer(uint8_t, stopped, x->stopped)
	)
)

/* Stores a dispatch cut short left in the GPU's L2:
 * struct hg_tp_vgpu_unwritten. */
LTTNG_UST_TRACEPOINT_EVENT(hipgrain, vgpu_unwritten,
	LTTNG_UST_TP_ARGS(const struct hg_tp_vgpu_unwritten *, x),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, kd, x->kd)
		lttng_ust_field_integer_hex(uint64_t, code_off, x->code_off)
		lttng_ust_field_integer(uint64_t, id, x->id)
		lttng_ust_field_integer_hex(uint64_t, off, x->off)
		lttng_ust_field_integer_hex(uint64_t, lo, x->lo)
		lttng_ust_field_integer_hex(uint64_t, hi, x->hi)
		lttng_ust_field_integer(uint64_t, count, x->count)
		lttng_ust_field_integer(uint64_t, lost, x->lost)
		lttng_ust_field_string(line, x->line)
		lttng_ust_field_integer(uint8_t, stopped, x->stopped)
	)
)

#endif /* HG_TP_H */

#include <lttng/tracepoint-event.h>
