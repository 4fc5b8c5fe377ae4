/* SPDX-License-Identifier: MIT */
/*
 * The engine behind the preload's hooks: what each intercepted call means
 * for the registry and the trace.  The hooks only forward and call these;
 * unit tests call them directly.
 */
#ifndef REG_TRACK_H
#define REG_TRACK_H

#include <stddef.h>
#include <stdint.h>

#include "reg_dev.h"

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
void reg_track_advise(uint8_t api, int rc, const void *p, size_t n,
		      int advice, int device);
void reg_track_prefetch(uint8_t api, int rc, const void *p, size_t n,
			int device, uint64_t stream);
void reg_track_memcpy(uint8_t api, int rc, void *dst, const void *src,
		      size_t n, int kind, uint64_t stream, int async);
void reg_track_memset(uint8_t api, int rc, void *dst, int value, size_t n,
		      uint64_t stream);

void reg_track_fork_prepare(void);
void reg_track_fork_parent(void);
void reg_track_fork_child(void);

#endif
