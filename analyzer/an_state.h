/* SPDX-License-Identifier: MIT */
/*
 * What replay rebuilds: per process its allocations, kernels, call sites and
 * mappings; across processes the findings, failed calls and counters.
 * Memory grows with live allocations, kernels and distinct findings, never
 * with the number of events.
 */
#ifndef AN_STATE_H
#define AN_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "an.h"
#include "an_fate.h"
#include "hg_map.h"
#include "an_observed.h"
#include "an_traffic.h"
#include "an_slab.h"
#include "dec_freed.h"

#define AN_TOP_ALLOCS 10
#define AN_WARN_CODES 32

#define AN_GRAN_PIECES 8

struct an_gran_piece {
	uint64_t off; /* gran holds from here to the next piece */
	uint8_t gran;
};

/* What the KFD driver was told about a block (an_drv.c). */
struct an_drv {
	uint32_t flags;	  /* a BO's KFD_IOC_ALLOC_MEM_FLAGS_*; SVM: flags set */
	uint32_t cleared; /* SVM: the flags a CLR_FLAGS took away */
	uint32_t node;	  /* a BO's gpu id; SVM: the prefetch location */
	uint8_t gran;	  /* enum hg_gran; HG_GRAN_UNKNOWN: the driver never
			   * saw the block */
	uint8_t domain;	  /* enum kd_domain, or AN_DRV_SVM */
	bool has_node;	  /* SVM: a prefetch named a location */
	/* 1 + the node's GPU index (the order the driver lists its GPUs,
	 * the one ROCR_VISIBLE_DEVICES and rocm-smi count in); 0: unknown */
	uint8_t gpu;
};

/* Migrations the driver reported over a block: MIGRATE_START events by
 * trigger (KFD_MIGRATE_TRIGGER_*), and the bytes of the block they moved. */
#define AN_MIG_TRIGGERS 4

struct an_mig {
	uint32_t n[AN_MIG_TRIGGERS];
	uint64_t bytes;
};

/* A call of the program's (a free, a copy, a prefetch): its API and the
 * call site its event carries; callsite 0 when the trace gives none. */
struct an_call {
	uint64_t callsite;
	uint8_t api;
};

struct an_alloc {
	uint64_t id, addr, size, callsite;
	/* Granularity along the block once advice split it (an_gran.c);
	 * npieces 0: gran holds everywhere, or the split is not known. */
	struct an_gran_piece piece[AN_GRAN_PIECES];
	uint8_t npieces;
	uint32_t flags;
	int32_t device;
	uint8_t api, mem, gran, lazy;
	/* What the model says (allocator, advice, maps), and what a runtime
	 * itself set (0: nothing); `gran` follows the runtime when it spoke. */
	uint8_t model_gran, runtime_gran;
	bool prefetched; /* hipMemPrefetchAsync seen before first GPU use */
	bool on_gpu;	 /* last prefetch moved it to a GPU (managed memory) */
	bool gpu_touched;
	struct an_drv drv;
	struct an_mig mig;
};

struct an_kernel {
	uint64_t handle;
	char *name, *demangled, *target;
	char *fp_mnemonics, *int_mnemonics;
	/* Arguments the atomics reach, "0@app.hip:42;2;?" (codeobj's sites);
	 * "" from traces that do not say: every argument counts. */
	char *fp_sites, *int_sites;
	/* Where it synchronizes at system scope, "0+acquire^s@flag.hip:8;
	 * ?+release^s" (codeobj's sys_sites): "" when it does not, when its
	 * target's code cannot say (gfx908, gfx90a's relaxed atomics), and
	 * from traces that predate the field, so a rule asks co_sites_reach
	 * only of a list that is not empty (it takes "" as every argument). */
	char *sys_sites;
	int32_t status;
	uint32_t fp_ops, int_ops, cas_count;
	uint8_t xnack; /* enum hg_feature */
	bool profiled; /* a `kernel` event was seen, not just a `function` */
	bool launched; /* some launch of it succeeded */
	bool judged;   /* a finding merged away named it (an_group_live.c) */
};

struct an_callsite {
	uint64_t id;
	uint16_t n;
	uint64_t frames[];
};

struct an_bin {
	uint64_t baddr, memsz;
	char *path;
	bool is_pic;
};

struct an_kfd;

/* Where a process keeps its live blocks (an_state_blocks.c). */
#define AN_HOT_BLOCKS 64

struct an_block_store {
	struct an_alloc **hot; /* AN_HOT_BLOCKS live blocks, by id modulo;
				* NULL until the first block */
	struct an_slab slab;
	uint64_t top_id; /* the highest id ever mapped */
};

/* Launch heads by number (an_state_heads.c). */
struct an_heads {
	struct an_head **by_num; /* NULL: no head of that number */
	size_t cap;
	struct hg_map far; /* numbers beyond by_num */
	struct an_slab slab; /* what both point into */
};

#define AN_WHY_MAX 320

struct an_proc {
	uint64_t key;
	const void *trace; /* the bt_trace it came from, as a key */
	int64_t vpid;
	char procname[32];
	char host[64];
	char rank[16];
	char gpus[16];	/* the GPUs a rank was given, as the node counts them */
	/* ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES as recorded, which
	 * replay composes into gpus. */
	char vis_rocr[16], vis_hip[16];
	char xnack_env[8]; /* HSA_XNACK as recorded; "" when unset */
	char arch[64];	   /* device gcnArchName; "" without a device */
	char dev_name[32]; /* the device's name as the runtime gave it */
	/* The GPU it ran on, its own in a report that merges runs: a virtual
	 * GPU's profile ("" on hardware) and whether its kernels ran on the
	 * interpreter; no_gpu: hipgrain's device query failed. */
	char vgpu[48];
	bool vgpu_exec, no_gpu;
	/* Why the ROCm runtime could not drive it, as `hipgrain run
	 * --force-gpu` recorded it; "" when it could. */
	char *vgpu_why; /* NULL when it could (AN_WHY_MAX bytes at most) */
	/* What the driver's topology said of each GPU (kfd_node events, in
	 * node order; ntopo 0 in a trace without them), and its versions. */
#define AN_TOPO_GPUS 8
	struct an_topo_gpu {
		uint64_t hive;
		uint32_t gpu_id, target, device_id, cap, link_type, link_flags;
	} topo[AN_TOPO_GPUS];
	uint8_t ntopo;
	uint32_t kfd_major, kfd_minor;
	char driver[24];
	uint8_t dev_xnack; /* enum hg_feature reported by the device */
	uint8_t kfd_xnack; /* HG_FEAT_ON/OFF as the driver answered; 0 if not */
	/* A registered code object whose every target asks one XNACK mode
	 * (HG_FEAT_ON/OFF, 0: none seen), with its targets: a runtime that
	 * cannot load it stops the program before any launch shows it. */
	uint8_t co_xnack;
	char co_targets[96];
	bool xnack_reported; /* xnack-mode-mismatch fired for a launch */
	bool have_device;
	/* The last hipSetDevice's ordinal (0 before one): the GPU a launch
	 * runs on, as far as a trace without its threads tells (a stream made
	 * on another GPU is not followed either). */
	int32_t cur_device;
	uint64_t omp_requires; /* __tgt_register_requires flags, or-ed */
	bool omp_offload; /* made an OpenMP offload call or registered a
			   * target region */
	bool discarded; /* some of its stream lost events */
	bool died_in;	/* it died inside a hooked call (an_died.c) */
	bool gpu_faulted; /* a kernel of it stopped at a memory access fault */
	bool exited;	/* its `exit` event: it ended by exit or main's return */
	uint16_t schema; /* its process event's */
	uint64_t epoch;	/* the an_read() it came from */
	struct an_fate fate; /* how it ended, when `hipgrain run` saw it */
	/* Which image-start events it has seen: a second one of either kind
	 * means the pid exec'd a new image, a new process of the report. */
	uint8_t image_marks;
	unsigned image; /* 0 for the pid's first image, then one per exec */
	struct hg_map allocs, kernels, callsites;
	struct an_block_store blocks; /* what allocs points into */
	/* Kernels asked for lately, by handle hashed (an_kernel_get). */
#define AN_HOT_KERNELS 16
	struct an_kernel *kernel_hot[AN_HOT_KERNELS];
	struct an_heads heads;
	struct an_bin *bins;
	size_t nbins;
	void *dwfl; /* symboliser state, built on first use */
	/* Recently freed blocks; NULL until the first free (a process merged
	 * from a trace's result has none, and thousands of ranks' processes
	 * stay small). */
	struct an_gone *gone;
	struct an_kfd *kfd; /* the driver's view (an_drv.h); NULL until a
			     * kfd_* event */
	/* The virtual GPU's last dispatch, which its drop rows follow. */
	uint64_t obs_kd;
	char obs_kernel[96];
};

/* Recently freed blocks, whole, in the slots `ring` gives, and the free
 * of each. */
struct an_gone {
	struct an_alloc freed[DEC_FREED_RING];
	struct an_call freed_by[DEC_FREED_RING];
	struct dec_freed_ring ring;
};

/* What a `head` event declares that a launch uses. */
struct an_head {
	uint64_t handle;
	uint64_t callsite; /* 0: not taken (most launches) or older traces */
	int32_t rc;
	/* The GPU the launching thread was on; -1 where the trace does not
	 * say (a head before the field), and the process's last
	 * hipSetDevice stands in. */
	int32_t device;
	uint8_t api;
};

/* A finding as rules record it; equal ones merge into groups, as each
 * trace arrives or at output (an_group_live.c). */
struct an_finding {
	const struct an_rule *rule;
	enum an_sev sev;
	struct an_proc *proc;	 /* first process it happened in */
	unsigned nprocs;	 /* distinct processes */
	struct an_kernel *kernel; /* NULL when no kernel is involved */
	bool has_alloc;
	struct an_alloc alloc; /* copy: the block may be freed later */
	uint64_t count;
	uint64_t first_ns; /* when it first happened (timeline formats) */
	int32_t first_tid;
	char *message;
	char atomic_at[96]; /* the kernel line of the atomic: "app.hip:42" */
	/* Each atomic at risk at its own line, "max@hist.hip:17;or@hist.hip:18"
	 * (co_sites_lines); atomic_at is the first. */
	char atomic_lines[192];
	/* A race's two kernel lines, the write first; part of its key, so
	 * that each pair of lines is a finding of its own. */
	char race_at[2][96];
	/* The call the finding is about, where it is not the allocation (the
	 * wrong free, the copy, the prefetch), and the free that made a
	 * block stale (use-after-free); api 0: none. */
	struct an_call call, freed;
	/* The launch argument a finding about one argument is of, + 1 (0:
	 * none): part of its key (an_find_arg). */
	uint32_t arg;
	/* Lanes the virtual GPU saw this atomic do nothing (an_observed.c). */
	uint64_t observed;
	char observed_op[96]; /* each mnemonic seen, "global_atomic_umax, ..." */
	struct an_finding *next;     /* same index key */
	struct an_finding *all_next; /* every finding */
	bool kept; /* a group's first, while a trace merges (an_group_live.c) */
};

struct an_fail {
	uint8_t api;
	int32_t rc;
	uint64_t count;
	/* The process it failed in, until an_fails_settle merges the
	 * processes alike: then NULL, and no_gpu says whether they had none. */
	const struct an_proc *proc;
	bool no_gpu;
	struct an_fail *next;
};

struct an_inv_bucket {
	uint64_t count, bytes;
};

/* A block the inventory lists for its migrations. */
struct an_inv_mig {
	struct an_proc *proc;
	struct an_alloc alloc;
};

#define AN_INV_MIGRATED 256

struct an_groups;

struct an_ctx {
	const struct an_opts *opts;
	uint32_t weight; /* launches the event being replayed stands for (0: 1) */
	struct hg_map procs;
	/* One per an_read(): a trace's address may be reused by the next
	 * graph's, so processes are keyed by (epoch, trace, vpid). */
	uint64_t epoch;
	struct hg_map finding_index; /* key hash → first finding of chain */
	/* Every finding, newest first; when `live`, only each group's
	 * first, the others merged into `live` as their trace arrived. */
	struct an_finding *findings;
	struct an_groups *live;
	struct an_fail *fails;
	char **warnings;
	size_t nwarnings;
	struct hg_map warn_seen; /* the notes said, by hash: each said once */
	uint64_t events, hg_events, discarded_events, discarded_packets;
	uint64_t newest_schema; /* highest `process` schema seen; 1 if none */
	uint64_t gran_disagree; /* runtime's granularity ≠ the model's */
	uint64_t unknown_launches; /* launches of never-named kernels */
	uint64_t hg_warn[AN_WARN_CODES]; /* preload `warning` events by code */
	bool no_gpu; /* some process found no usable GPU */
	/* The first process's virtual GPU, as an_gpus_settle found it (each
	 * process has its own: an_proc's vgpu). */
	char vgpu[48];
	bool vgpu_exec; /* and its kernels ran on the interpreter */
	char vgpu_why[320]; /* and why its runtime could not drive it */
	struct an_exec exec; /* what the interpreter saw (an_observed.h) */
	struct an_traffic traffic; /* and the bytes it moved (an_traffic.h) */
	unsigned traces_read, traces_failed;
	bool partial;
	struct an_inv_bucket inv[256][4]; /* [api][granularity] */
	struct an_finding top[AN_TOP_ALLOCS]; /* largest allocations */
	struct an_inv_mig *migrated; /* blocks that migrated, the first ones */
	size_t nmigrated;
	uint64_t migrated_more; /* ... and how many more there were */
	uint64_t now_ns; /* the event being replayed: time, thread */
	int32_t now_tid;
	struct an_tl *tl; /* NULL unless a timeline format was asked for */
};

/* How many launches the event being replayed counts for. */
static inline uint32_t an_weight(const struct an_ctx *c)
{
	return c->weight ? c->weight : 1;
}

struct an_tl;

struct an_proc *an_proc_get(struct an_ctx *c, const void *trace, int64_t vpid);
/* A new process for the same pid after an exec: p keeps what it was,
 * under a key of its own, and the new one takes the pid's place. */
struct an_proc *an_proc_exec(struct an_ctx *c, struct an_proc *p);
/* The live block with this id, or NULL: the cache (an_state_blocks.c), else
 * an_alloc_lookup's map. */
struct an_alloc *an_alloc_lookup(struct an_proc *p, uint64_t id);
/* Why the runtime could not drive the process's GPU (HIPGRAIN_VGPU_UNKNOWN),
 * cut to AN_WHY_MAX bytes; "" forgets it. */
void an_set_why(struct an_proc *p, const char *why);

static inline struct an_alloc *an_alloc_get(struct an_proc *p, uint64_t id)
{
	struct an_alloc *a = p->blocks.hot ? p->blocks.hot[id & (AN_HOT_BLOCKS - 1)] : NULL;

	/* A cached block is live, and its id (never 0) is its key. */
	return a && a->id == id ? a : an_alloc_lookup(p, id);
}

/* A new live block mapped by id (not mapped yet), its other fields the
 * caller's to fill; NULL when out of memory. */
struct an_alloc *an_alloc_new(struct an_proc *p, uint64_t id);
/* A block leaves the live set; a must not be used after. */
void an_alloc_drop(struct an_proc *p, struct an_alloc *a);
void an_blocks_fini(struct an_proc *p);
struct an_kernel *an_kernel_get(struct an_proc *p, uint64_t handle,
				bool create);
/* The head of this number, or NULL. */
const struct an_head *an_head_get(const struct an_heads *hs, uint64_t id);
/* The head of this number to fill in, new or declared before; NULL when
 * out of memory. */
struct an_head *an_head_put(struct an_heads *hs, uint64_t id);
void an_heads_fini(struct an_heads *hs);
/* p's ring of freed blocks, made on first use; NULL out of memory. */
struct an_gone *an_gone_of(struct an_proc *p);
/* Recently freed block that held addr, or NULL. */
const struct an_alloc *an_freed_find(const struct an_proc *p, uint64_t addr);
/* The free that released a block an_freed_find or an_freed_by_id gave. */
const struct an_call *an_freed_call(const struct an_proc *p,
				    const struct an_alloc *old);
/* A recently freed block by id: launches counted before its free may be
 * written after it (another thread freed it). */
struct an_alloc *an_freed_by_id(struct an_proc *p, uint64_t id);
void an_warn(struct an_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void an_state_fini(struct an_ctx *c);

/* Process is on XNACK: the driver says so, else the device, else
 * HSA_XNACK=1. */
bool an_proc_xnack_on(const struct an_proc *p);
/* The arch that decides hardware behaviour: device, else kernel target. */
const char *an_arch(const struct an_proc *p, const struct an_kernel *k);

#endif
