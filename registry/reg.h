/* SPDX-License-Identifier: MIT */
/*
 * The registry, as the preload's hooks see it: what each intercepted call
 * means for the live allocations and the trace.  The hooks forward the
 * real call and report it here; they include this header and, on the
 * launch path only, reg_recent.h, whose table they search inline, and in
 * the allocator hooks reg_host_fast.h, whose front of a thread's table
 * they write inline.  Every other registry header is the engine's own
 * (tests/layout checks).
 */
#ifndef REG_H
#define REG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_tp_types.h"

/* --- configuration, set once at start ----------------------------------- */

struct reg_config {
	uint64_t stack_threshold;
	unsigned stack_depth;
	int host_all;	   /* trace every host block at allocation */
	int host_coherent; /* HIP_HOST_COHERENT, -1 when unset */
	int rocm_major;    /* the HIP runtime's, 0 until it is known */
};

extern struct reg_config reg_cfg;

void reg_track_init(const struct reg_config *cfg);
uint64_t reg_next_id(void);
/* fd is libunwind's address-check pipe, which a close() of the program's
 * must leave open (reg_unw.c). */
bool reg_unw_keeps(int fd);

/* --- allocations the GPU can reach ---------------------------------------- */

struct reg_dev_info {
	uintptr_t base;
	size_t size;
	uint64_t id;
	uint64_t site;
	uint32_t flags;
	uint8_t api;  /* enum hg_api */
	uint8_t mem;  /* enum hg_mem */
	uint8_t gran; /* enum hg_gran over [pointer, end) for lookups */
};

/* A launch's pointer: whether a range holds it, its id, the offset into
 * it, mem, and the granularity of the page it points into.  What a kernel reaches beyond that page the code object does not
 * say, and a launch is judged by where its pointers point: a pointer into the
 * coarse half of a split range is coarse (the report states the split). */
struct reg_dev_hit {
	uint64_t id, off;
	uint8_t found, mem, gran;
};
/* Changes whenever a range is added, removed or changes granularity: a
 * lookup result is still valid while the generation is the same. */
uint64_t reg_dev_generation(void);

/* --- what each call means ------------------------------------------------ */

/* Host allocator.  Frees must be reported before the memory is released so
 * a concurrent allocation of the same address cannot be confused with it. */
void reg_track_host_alloc(void *p, size_t size, uint8_t api, uintptr_t caller);
void reg_track_host_free(void *p, uint8_t api, uintptr_t caller);

/* HIP allocators.  A HIP free is split around the real call so the range
 * leaves the registry first and comes back if the runtime refused. */
void reg_track_hip_alloc(uint8_t api, int rc, void *p, size_t size,
			 uint32_t flags, uint64_t extra, int device);
struct reg_hip_free {
	struct reg_dev_info info;
	int found;
};
void reg_track_hip_free_begin(void *p, struct reg_hip_free *st);
/* caller: the hook's return address; a free is placed by one frame. */
void reg_track_hip_free_end(uint8_t api, int rc, void *p,
			    const struct reg_hip_free *st, uintptr_t caller);

/* What a pointer reaches; traces a host block the first time it matters. */
struct reg_ptr {
	uint64_t id;
	uint64_t off;
	uint8_t mem;
	uint8_t gran;
};
void reg_track_resolve(uintptr_t p, struct reg_ptr *out);
/* The same for a launch's pointer not in reg_recent.h's table (the launch
 * path looks there first, inline); `found` says whether a GPU range holds
 * it. */
void reg_track_resolve_far(uint64_t p, struct reg_dev_hit *out);

/* The pages of [p, p+n) change granularity (source: enum hg_gran_source),
 * a host block among them joining the ranges first. */
void reg_track_granularity(const void *p, size_t n, uint8_t gran,
			   uint8_t source);
/* Advice and prefetches are resolved before the real call, since the
 * runtime may end the process inside it (a refused prefetch aborts ROCm
 * builds with assertions): *op is what the call asks, rc 0; the record
 * is written with the call's rc once it returns. */
void reg_track_range_begin(uint8_t api, const void *p, size_t n, int device,
			   struct hg_tp_range_op *op);
void reg_track_advise(struct hg_tp_range_op *op, int rc);
void reg_track_prefetch(struct hg_tp_range_op *op, int rc);
void reg_track_memcpy(uint8_t api, int rc, void *dst, const void *src,
		      size_t n, int kind, uint64_t stream, int async);
void reg_track_memset(uint8_t api, int rc, void *dst, int value, size_t n,
		      uint64_t stream);
/* The calling thread's call site, hipgrain's frames dropped: a launch's,
 * taken only when the launch may need it (pl_launch.c). */
uint64_t reg_track_launch_site(void);
/* A one-frame call site for a hook's return address. */
uint64_t reg_track_caller_site(uintptr_t ip);

void reg_track_fork_prepare(void);
void reg_track_fork_parent(void);
void reg_track_fork_child(void);

/* --- code: modules and kernels ------------------------------------------- */

#define REG_KMAX_PTR 64

struct reg_module {
	uint64_t handle;
	const void *image; /* bundle or ELF in memory, NULL if from a file */
	char *path;	   /* hipModuleLoad's file, else NULL */
	uint8_t api;
	/* The module's code for the device, read at its first launch. */
	atomic_int state;  /* 0: not read, 1: reading, 2: read */
	void *profiles;	   /* owned by the reader (preload/core/pl_profile.c) */
	int status;	   /* 0, or -errno when no profile could be had */
};

struct reg_kernel {
	uint64_t handle;
	uint64_t module;
	char *name;
	atomic_int state; /* 0: not profiled, 1: profiling, 2: profiled */
	int status;	  /* 0, or why the profile is missing (-errno) */
	uint32_t kernarg_size;
	uint32_t atomic_ops;	  /* enum hg_aop bits reaching global memory */
	char fp_mnemonics[64];	  /* for the online warning */
	/* Which arguments the atomics reach, and in which scope (codeobj's
	 * sites form, co_sites_reach): the warning judges as the report. */
	char fp_sites[160], int_sites[160];
	uint16_t nexplicit; /* entries a launch's args array holds */
	uint16_t nptr;
	uint16_t ptr_index[REG_KMAX_PTR];  /* index in the args array */
	uint32_t ptr_offset[REG_KMAX_PTR]; /* offset in the kernarg segment */
};

struct reg_module *reg_module_add(uint64_t handle, const void *image,
				  const char *path, uint8_t api);
struct reg_module *reg_module_get(uint64_t handle);
void reg_module_forget(uint64_t handle);

struct reg_kernel *reg_kernel_add(uint64_t handle, uint64_t module,
				  const char *name);
struct reg_kernel *reg_kernel_get(uint64_t handle);
/* Up to max registered kernels, for a walk at exit. */
size_t reg_kernel_all(struct reg_kernel **out, size_t max);

/* --- what allocators and their flags say ---------------------------------- */

/* hipHostMalloc flags (hip_runtime_api.h, stable across ROCm 5 and 6). */
#define REG_HOST_MALLOC_MAPPED 0x2u
#define REG_HOST_MALLOC_NUMA_USER 0x20000000u
#define REG_HOST_MALLOC_COHERENT 0x40000000u
#define REG_HOST_MALLOC_NON_COHERENT 0x80000000u

/* hsa_amd_memory_pool_allocate: the pool's HSA global flags, and a bit of
 * hipgrain's own for a pool every agent can reach (system memory). */
#define REG_HSA_POOL_FINE 0x2u
#define REG_HSA_POOL_COARSE 0x4u
#define REG_HSA_POOL_ALL_AGENTS 0x100u

/* The flags hipgrain records for memory whose placement comes from
 * allocation properties (hipMemCreate then hipMemMap, pool allocations,
 * graph allocation nodes): the location type (hipMemLocationType: 1
 * device; 2, 3, 4 host, host NUMA node, current host NUMA node, ROCm 7)
 * and hipMemAllocationTypeUncached (ROCm 7), which is fine-grained device
 * memory.  0 is what ROCm 5 and 6 allow: pinned device memory, coarse. */
#define REG_PROP_LOC_MASK 0xffu
#define REG_PROP_LOC_HOST 2u
#define REG_PROP_UNCACHED 0x40000000u
/* Properties no call would tell (an imported pool on ROCm 7, a handle the
 * runtime would not describe): device memory of unknown granularity. */
#define REG_PROP_UNREAD 0x100u

/* hipMemAllocationProp's type and location, read from its bytes in the
 * order of the runtime's release: ROCm 5.2's {compressionType, location,
 * requestedHandleType, type}, or the later {type, requestedHandleType,
 * location} (5.7, 6.x) when new_order. */
struct reg_prop {
	int32_t type, loc_type, loc_id;
};
void reg_prop_read(const void *prop, int new_order, struct reg_prop *out);
/* The REG_PROP_* flags of an allocation type and a location type. */
uint32_t reg_prop_flags(int32_t type, int32_t loc_type);

/* hipMemAdvise values that change granularity. */
#define REG_ADVISE_SET_COARSE 100
#define REG_ADVISE_UNSET_COARSE 101

/* --- the trace: the one door from the registry to LTTng -------------------- */

void reg_emit_callsite(uint64_t id, const uint64_t *frames, uint16_t n);
void reg_emit_alloc(const struct hg_tp_alloc *a);
void reg_emit_free(const struct hg_tp_free *f);
void reg_emit_advise(const struct hg_tp_range_op *r);
void reg_emit_prefetch(const struct hg_tp_range_op *r);
void reg_emit_exit(void);
/* From a fatal signal's handler: writes nothing that takes a lock. */
void reg_emit_died(const struct hg_tp_died *d);
void reg_emit_granularity(const struct hg_tp_granularity *g);
void reg_emit_memcpy(const struct hg_tp_memcpy *m);
void reg_emit_memset(const struct hg_tp_memset *m);
/* Writes into the HG_TP_LAUNCH_ROOM bytes before l->argb. */
void reg_emit_launch(const struct hg_tp_launch *l);
/* In a forked child: the heads its thread declared are its parent's. */
void reg_emit_forget_heads(void);
void reg_emit_kernel(const struct hg_tp_kernel *k);
void reg_emit_code_object(const struct hg_tp_code_object *c);
void reg_emit_function(const struct hg_tp_function *f);
void reg_emit_call(uint8_t api, int32_t rc, uint64_t arg);
void reg_emit_warning(uint16_t code, const char *message);
void reg_emit_process(const struct hg_tp_process *p);
void reg_emit_env(const char *name, const char *value);
void reg_emit_device(const struct hg_tp_device *d);
void reg_emit_runtime(const char *path, int32_t version, int32_t rc);
void reg_emit_kfd_alloc(const struct hg_tp_kfd_alloc *a);
void reg_emit_kfd_free(uint64_t handle, int32_t rc);
void reg_emit_kfd_svm(uint64_t start, uint64_t size, uint8_t op,
		      const uint32_t *attrs, uint16_t n, int32_t rc);
void reg_emit_kfd_xnack(int32_t requested, int32_t enabled, int32_t rc);
void reg_emit_kfd_node(const struct hg_tp_kfd_node *n);
void reg_emit_kfd_smi_open(uint32_t gpu_id, int32_t rc);
void reg_emit_kfd_smi(const struct hg_tp_kfd_smi *e);
void reg_emit_vgpu_dispatch(const struct hg_tp_vgpu_dispatch *d);
void reg_emit_vgpu_drop(const struct hg_tp_vgpu_drop *x);
void reg_emit_vgpu_traffic(const struct hg_tp_vgpu_traffic *t);
void reg_emit_vgpu_race(const struct hg_tp_vgpu_race *x);
void reg_emit_vgpu_stale(const struct hg_tp_vgpu_stale *x);
void reg_emit_vgpu_unwritten(const struct hg_tp_vgpu_unwritten *x);

#endif
