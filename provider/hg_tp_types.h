/* SPDX-License-Identifier: MIT */
/*
 * Argument records of the `hipgrain` tracepoints.  Passing one record per
 * event keeps every tracepoint under the argument limit and gives the preload
 * and the unit tests one place to fill.
 */
#ifndef HG_TP_TYPES_H
#define HG_TP_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "hg_events.h"

struct hg_tp_process {
	int32_t ppid;
	const char *exe;
	const char *version;
	uint8_t host_mode;	  /* 0: lazy, 1: every host allocation */
	uint64_t stack_threshold; /* host blocks >= this get full stacks */
	uint32_t stack_depth;
	uint16_t schema; /* HG_TRACE_SCHEMA */
};

struct hg_tp_device {
	int32_t ordinal;
	int32_t rc;
	const char *arch; /* gcnArchName, e.g. "gfx90a:sramecc+:xnack-" */
	const char *name;
	uint8_t xnack;	  /* enum hg_feature as the device reports it */
	uint8_t sramecc;
	int32_t managed_memory;
	int32_t runtime_version;
};

struct hg_tp_alloc {
	uint64_t id;
	uint64_t addr;
	uint64_t size;
	uint64_t extra; /* pitch (hipMallocPitch) or alignment */
	uint64_t callsite;
	uint32_t flags;
	int32_t rc;
	int32_t device;
	uint8_t api;	  /* enum hg_api */
	uint8_t mem;	  /* enum hg_mem */
	uint8_t gran;	  /* enum hg_gran, as the model predicts */
	uint8_t lazy;	  /* 1: emitted at first GPU use, not at allocation */
};

struct hg_tp_free {
	uint64_t id; /* 0: the pointer was not a live allocation */
	uint64_t addr;
	uint64_t size;
	uint64_t callsite;
	int32_t rc;
	uint8_t api;
	uint8_t alloc_api; /* allocator of the block, HG_API_UNKNOWN if none */
};

/* hipMemAdvise, hipMemPrefetchAsync: a range, and what it resolved to. */
struct hg_tp_range_op {
	uint64_t addr;
	uint64_t size;
	uint64_t id;
	uint64_t stream;
	uint64_t callsite;
	int32_t advice; /* hipMemoryAdvise; 0 for prefetch */
	int32_t device;
	int32_t rc;
	uint8_t api;
	uint8_t mem;
};

/* A hooked call the process died in, or while it was in the runtime on
 * another thread (the runtime's own thread that aborted, say). */
struct hg_tp_died {
	const char *name;	/* the entry point the program called */
	uint64_t callsite;	/* where it called it */
	const struct hg_tp_range_op *op; /* advice, prefetch: what it asked */
	int32_t signal;
	uint8_t here;		/* the signal arrived on the call's thread */
};

struct hg_tp_granularity {
	uint64_t id;
	uint64_t addr;
	uint64_t size;
	int32_t rc;
	uint8_t gran;
	uint8_t source; /* enum hg_gran_source */
};

/* An AMDKFD_IOC_ALLOC_MEMORY_OF_GPU call as the driver answered it. */
struct hg_tp_kfd_alloc {
	uint64_t va, size, handle;
	uint64_t cpu; /* a userptr's CPU address, else 0 */
	uint32_t flags, gpu_id;
	int32_t rc;
};

/* What the driver's topology says of one GPU node, and the driver's
 * versions: the machine's own word on what a verdict rests on. */
struct hg_tp_kfd_node {
	uint64_t hive_id;
	uint32_t node, gpu_id, gfx_target_version, device_id, capability;
	uint32_t cpu_node, link_type, link_flags; /* its io_link to a CPU */
	uint32_t kfd_major, kfd_minor;		  /* AMDKFD_IOC_GET_VERSION */
	const char *name;			  /* the node's `name` file */
	const char *driver; /* /sys/module/amdgpu/version; "" in-tree */
};

/* One SMI event line, decoded (kfd/kd_smi.h). */
struct hg_tp_kfd_smi {
	uint64_t addr, size, ns;
	uint32_t from, to, node;
	int32_t trigger, error;
	uint8_t kind, rw;
};

/* What the virtual GPU's interpreter saw one dispatch do (hg_observe.h). */
struct hg_tp_vgpu_dispatch {
	uint64_t kd, code_off, fault_va, insns, drops_lost;
	const char *kernel, *what;
	uint32_t drops;
	int32_t status; /* enum hg_exec_status */
	uint8_t fault_write;
};

/* Lanes whose atomic did nothing, into the block the preload resolved. */
struct hg_tp_vgpu_drop {
	uint64_t kd, code_off, id, off, lo, hi, count;
	const char *op;
	uint8_t kind, mem, gran;
};

/* Bytes a dispatch moved in one block (hg_observe.h's traffic rows).
 * scope: 0 the row lies in block id (or in none known), 1 its bytes reach
 * past that block, 2 the rows that did not fit, summed. */
struct hg_tp_vgpu_traffic {
	uint64_t kd, id, off, lo, hi, read, written;
	uint8_t mem, gran, scope;
};

/* Two instructions of different waves of one work-group that met on the
 * same bytes with no barrier between (hg_observe.h's race rows); line_a,
 * line_b: "app.hip:42" each, "" where the code object does not say. */
struct hg_tp_vgpu_race {
	uint64_t kd, code_off_a, code_off_b, lo, hi, count;
	const char *line_a, *line_b;
	uint8_t cls_a, cls_b, lds;
};

/* Reads a dispatch's instruction took from lines the GPU's L2 held of
 * coarse-grained memory while memory held newer bytes (hg_observe.h's
 * stale rows); id and off: the block lo lies in, as the preload knows it;
 * line: "app.hip:42", "" where the code object does not say; stopped: 1
 * when the dispatch ended at the virtual GPU's instruction budget. */
struct hg_tp_vgpu_stale {
	uint64_t kd, code_off, id, off, lo, hi, count;
	const char *line;
	uint8_t stopped;
};

/* Bytes a dispatch that did not run to its end left in the GPU's L2,
 * stored to coarse-grained memory and never written back while it ran
 * (hg_observe.h's unwritten rows): code_off the store that first made
 * each line dirty, line its source line ("" where the code object does
 * not say); id and off: the block lo lies in, as the preload knows it;
 * lost: bytes in the dispatch's rows past those the virtual GPU keeps;
 * stopped: 1 when the dispatch ended at the virtual GPU's instruction
 * budget. */
struct hg_tp_vgpu_unwritten {
	uint64_t kd, code_off, id, off, lo, hi, count, lost;
	const char *line;
	uint8_t stopped;
};

struct hg_tp_memcpy {
	uint64_t dst, src, size;
	uint64_t dst_id, src_id;
	uint64_t stream;
	uint64_t callsite;
	int32_t kind;
	int32_t rc;
	uint8_t api;
	uint8_t dst_mem, src_mem;
	uint8_t async;
};

struct hg_tp_memset {
	uint64_t dst, size, dst_id, stream, callsite;
	int32_t value;
	int32_t rc;
	uint8_t api;
	uint8_t dst_mem;
};

struct hg_tp_code_object {
	uint64_t module; /* handle the runtime returned */
	uint64_t image;	 /* address of the fat binary or image */
	uint64_t size;
	uint64_t hash;
	const char *targets; /* comma-separated targets in the bundle */
	const char *path;    /* file for hipModuleLoad, "" otherwise */
	int32_t rc;
	uint8_t api;
};

struct hg_tp_function {
	uint64_t module;
	uint64_t handle; /* host stub or hipFunction_t */
	const char *name;
	int32_t rc;
	uint8_t api;
};

struct hg_tp_kernel {
	uint64_t handle;
	uint64_t module;
	uint64_t co_hash;
	const char *name;
	const char *target;
	const char *fp_mnemonics;  /* unique hardware FP atomic mnemonics */
	const char *int_mnemonics; /* unique integer atomic mnemonics */
	/* Arguments each class's atomics reach: "0@app.hip:42;2;?" (co.h) */
	const char *fp_sites, *int_sites;
	/* Synchronization at system scope: "0+acquire^s@flag.hip:8;?+release^s"
	 * (co.h's sys_sites) */
	const char *sys_sites;
	const uint32_t *arg_offset;
	const uint32_t *arg_size;
	const uint8_t *arg_kind;  /* enum hg_value_kind */
	const uint8_t *arg_space; /* enum hg_addr_space */
	uint64_t fp_first;	  /* offset of the first FP atomic in the kernel */
	int32_t status;		  /* 0, or negative errno when unreadable */
	uint32_t kernarg_size;
	uint32_t fp_ops, fp_count;   /* enum hg_aop bits, instruction count */
	uint32_t int_ops, int_count; /* integer atomics reaching global memory */
	uint32_t cas_count;
	uint32_t lds_count; /* ds_* atomics: never a granularity hazard */
	uint16_t nargs;
	uint8_t xnack; /* enum hg_feature of the code object */
};

struct hg_tp_launch {
	/* The head: what a `head` event declares, HG_TP_LAUNCH_KEY bytes
	 * with no gap, then the repeat and api. */
	uint64_t handle;
	uint64_t stream;
	uint32_t grid[3], block[3];
	uint32_t shmem;
	int32_t rc;
	/* Where the program launched, for a launch that may use freed memory
	 * (an argument in no live block); 0 for the rest, whose heads stay
	 * shared: an unwind is too dear for every launch. */
	uint64_t callsite;
	/* The GPU it runs on, by the program's ordinal: the launching
	 * thread's device (HIP's per-thread current device), in the head so
	 * that one thread per GPU is told apart. */
	int32_t device;
	uint32_t repeat; /* identical launches this event stands for */
	uint32_t api;	 /* enum hg_api */
	/*
	 * The pointer arguments, packed (hg_argpack_put): nargb bytes,
	 * after HG_TP_LAUNCH_ROOM bytes that are the emitter's, for the
	 * head's number and the repeat (hg_pack_launch_ref).
	 */
	uint8_t *argb;
	uint16_t nargb;
	uint16_t nptr;
};

#define HG_TP_LAUNCH_ROOM 16 /* HG_PACK_REF_MAX */
/* Where a launch's key for its head ends: the fields a `head` event
 * declares are those before it, and api. */
#define HG_TP_LAUNCH_KEY offsetof(struct hg_tp_launch, repeat)

/* The words, at the positions hg_events.h names (hg_pack.h writes them as
 * bytes). */
static inline void hg_tp_pack_alloc(const struct hg_tp_alloc *a,
				    uint64_t w[HG_ALLOC_WORDS])
{
	w[HG_AW_ID] = a->id;
	w[HG_AW_ADDR] = a->addr;
	w[HG_AW_SIZE] = a->size;
	w[HG_AW_EXTRA] = a->extra;
	w[HG_AW_CALLSITE] = a->callsite;
	w[HG_AW_FLAGS_RC] = a->flags | (uint64_t)(uint32_t)a->rc << 32;
	w[HG_AW_CODES] = (uint32_t)a->device | (uint64_t)a->api << 32 |
			 (uint64_t)a->mem << 40 | (uint64_t)a->gran << 48 |
			 (uint64_t)a->lazy << 56;
}

static inline void hg_tp_pack_free(const struct hg_tp_free *f,
				   uint64_t w[HG_FREE_WORDS])
{
	w[HG_FW_ID] = f->id;
	w[HG_FW_ADDR] = f->addr;
	w[HG_FW_SIZE] = f->size;
	w[HG_FW_CALLSITE] = f->callsite;
	w[HG_FW_CODES] = (uint32_t)f->rc | (uint64_t)f->api << 32 |
			 (uint64_t)f->alloc_api << 40;
}

static inline void hg_tp_pack_memcpy(const struct hg_tp_memcpy *m,
				     uint64_t w[HG_MEMCPY_WORDS])
{
	w[HG_MW_DST] = m->dst;
	w[HG_MW_SRC] = m->src;
	w[HG_MW_SIZE] = m->size;
	w[HG_MW_DST_ID] = m->dst_id;
	w[HG_MW_SRC_ID] = m->src_id;
	w[HG_MW_STREAM] = m->stream;
	w[HG_MW_CALLSITE] = m->callsite;
	w[HG_MW_KIND_RC] = (uint32_t)m->kind | (uint64_t)(uint32_t)m->rc << 32;
	w[HG_MW_CODES] = (uint64_t)m->api | (uint64_t)m->dst_mem << 8 |
			 (uint64_t)m->src_mem << 16 | (uint64_t)m->async << 24;
}

static inline void hg_tp_pack_memset(const struct hg_tp_memset *m,
				     uint64_t w[HG_MEMSET_WORDS])
{
	w[HG_SW_DST] = m->dst;
	w[HG_SW_SIZE] = m->size;
	w[HG_SW_DST_ID] = m->dst_id;
	w[HG_SW_STREAM] = m->stream;
	w[HG_SW_CALLSITE] = m->callsite;
	w[HG_SW_VALUE_RC] = (uint32_t)m->value | (uint64_t)(uint32_t)m->rc << 32;
	w[HG_SW_CODES] = (uint64_t)m->api | (uint64_t)m->dst_mem << 8;
}

#endif /* HG_TP_TYPES_H */
