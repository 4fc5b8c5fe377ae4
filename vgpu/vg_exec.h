/* SPDX-License-Identifier: MIT */
/* A kernel dispatch packet (HSA's hsa_kernel_dispatch_packet_t), and its
 * execution on the interpreter. */
#ifndef VG_EXEC_H
#define VG_EXEC_H

#include <stdint.h>

/* gfx9's flat apertures, as AMDKFD_IOC_GET_PROCESS_APERTURES_NEW gives
 * them (kfd_flat_memory.c). */
#define VG_LDS_BASE (1ull << 48)
#define VG_SCRATCH_BASE (2ull << 48)

struct vg_dispatch {
	uint16_t header, setup;
	uint16_t workgroup_size[3];
	uint16_t reserved0;
	uint32_t grid_size[3];
	uint32_t private_segment_size, group_segment_size;
	uint64_t kernel_object, kernarg_address, reserved2, completion_signal;
	uint64_t packet_va;	/* where the packet was read, not part of it */
};

/* 1 when the dispatch retired; 0 when a fatal fault stopped the device,
 * which then runs nothing more of this process (vg.halted). */
int vg_exec_dispatch(const struct vg_dispatch *d, uint64_t queue_va);

#endif
