/* SPDX-License-Identifier: MIT */
/* The machines a virtual GPU can be (vg_node.c). */
#ifndef VG_NODE_H
#define VG_NODE_H

#include <stddef.h>
#include <stdint.h>

#include "vg_profile.h"

/* A machine as sites build them: GPUs of one product, each a KFD node
 * of its own (an MI250X card is two), in one xGMI hive, hanging from the
 * host's NUMA nodes in equal shares.  A product alone is a machine of one
 * GPU on one NUMA node. */
struct vg_node {
	const char *name;	/* 4xMI250X, or a product's own name */
	const struct vg_profile *gpu;
	uint32_t gpus;		/* GPU nodes */
	uint32_t numa;		/* the host's NUMA nodes: CPU nodes */
	uint32_t sockets;	/* the CPU sockets they are split over */
	uint32_t per_package;	/* GPU nodes in one package: the nearest peers */
	uint32_t near_mbps, far_mbps; /* xGMI to a peer in the package, beyond */
	const char *where;	/* the systems built so */
	/* The variant (vg_variant.c): how its GPUs reach the CPU (the
	 * product's way unless an option chose the other), whether a PCIe
	 * root port carries AtomicOps (1 on xGMI, where the question does not
	 * arise), and whether amdgpu was booted with retry on (noretry=0),
	 * which starts every process with XNACK on. */
	uint8_t cpu_xgmi, pcie_atomics, retry;
	char spec[48];		/* its name with the options that differ */
};

/* The most GPU nodes a machine has. */
#define VG_MAX_GPUS 8u

/* The i-th machine (the products alone first), NULL past the last. */
const struct vg_node *vg_node_at(size_t i);
/* By name, case-insensitive: a product or a machine, as it is deployed;
 * NULL when none. */
const struct vg_node *vg_node_find(const char *name);
/* Its variants: vg_variant.h. */

#include "vg_variant.h"

#endif
