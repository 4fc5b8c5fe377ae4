/* SPDX-License-Identifier: MIT */
/*
 * The KFD topology tree that describes one product.  It is made by the
 * command that starts the program and removed by it after, so every
 * process of a job reads one tree and none is left behind by a crash.
 */
#ifndef VG_SYSFS_H
#define VG_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "vg_node.h"

/* The gpu_id the driver gives the first GPU node, and its render node;
 * the others follow. */
#define VG_GPU_ID 0x3a7cu
#define VG_RENDER_MINOR 128

static inline uint32_t vg_gpu_id(uint32_t gpu)
{
	return VG_GPU_ID + gpu;
}
/* The memory an APU's node reports, all of it the host's. */
#define VG_APU_MEMORY (8ull << 30)

/* A new tree for machine n under $TMPDIR (root gets its path); 0 or
 * -errno. */
int vg_sysfs_make(const struct vg_node *n, char *root, size_t cap);
void vg_sysfs_remove(const char *root);

#endif
