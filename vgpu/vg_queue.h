/* SPDX-License-Identifier: MIT */
/* A queue, and the two packet processors that serve one (vg_aql.c,
 * vg_sdma.c); each returns how many packets it retired. */
#ifndef VG_QUEUE_H
#define VG_QUEUE_H

#include <stdint.h>

struct vg_queue {
	int used;
	uint32_t type;
	uint64_t ring_va, ring_size, wptr_va, rptr_va;
	int unknown;	/* packets it could not serve: reported once; an SDMA
			 * queue stops at the first */
};

int vg_aql_serve(struct vg_queue *q);
int vg_sdma_serve(struct vg_queue *q);
/* A completion signal's decrement, with its mailbox and event. */
void vg_signal_done(uint64_t sig, int timestamps);
int64_t vg_signal_value(uint64_t sig);
/* An SDMA atomic wrote value_va.  ROCr ends a copy with an atomic on its
 * signal's value and adds the trap that raises the interrupt only for a
 * signal with a mailbox, which its signals here lack: where value_va is
 * laid out as such a signal's value, its event is raised, as a completed
 * dispatch raises it (a waiter woken for nothing re-reads and sleeps). */
void vg_signal_value_written(uint64_t value_va);
/* A kernel dispatch's effect, for the runtime's own copy and fill kernels
 * (vg_blit.c): kd is the kernel descriptor's address, grid the packet's
 * work items. */
void vg_blit_dispatch(uint64_t kd, uint64_t kernarg, uint32_t grid);

#endif
