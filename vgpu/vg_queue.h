/* SPDX-License-Identifier: MIT */
/* A queue: its ring and pointers, and what its packet processor
 * (vg_aql.c, vg_sdma.c) could not serve. */
#ifndef VG_QUEUE_H
#define VG_QUEUE_H

#include <stdint.h>

struct vg_queue {
	int used;
	uint32_t type;
	uint32_t gpu_id;	/* the GPU it feeds */
	unsigned gpu;		/* its index, whose poller serves it */
	uint64_t ring_va, ring_size, wptr_va, rptr_va;
	int unknown;	/* packets it could not serve: reported once; an SDMA
			 * queue stops at the first */
};

#endif
