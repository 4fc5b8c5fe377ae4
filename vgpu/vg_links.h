/* SPDX-License-Identifier: MIT */
/* The topology tree's io_links (vg_links.c).  Nodes are numbered as the
 * driver lists them: the CPU (NUMA) nodes, then the GPUs. */
#ifndef VG_LINKS_H
#define VG_LINKS_H

#include <stdint.h>

#include "vg_node.h"

/* The NUMA node GPU gpu hangs from. */
uint32_t vg_links_numa_of(const struct vg_node *n, uint32_t gpu);
/* How many io_links node has: its io_links_count. */
uint32_t vg_links_count(const struct vg_node *n, uint32_t node);
/* Its io_links under root's topology: 0 or nonzero. */
int vg_links_write(const char *root, const struct vg_node *n, uint32_t node);

#endif
