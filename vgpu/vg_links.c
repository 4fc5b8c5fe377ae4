/* SPDX-License-Identifier: MIT */
/*
 * The topology's io_links, each way, as kfd_crat.c builds them and
 * kfd_topology.c prints them.  A GPU's first link is to its NUMA node's
 * CPU (kfd_fill_gpu_direct_io_link_to_cpu): xGMI for a GPU wired to its
 * CPU that way, at the xGMI weight, or inside an APU's package at the
 * intra-socket weight and memory bandwidth; PCIe otherwise, as the
 * variant chose (vg_variant.c).  kfd_topology.c (kfd_set_iolink_no_atomics)
 * never marks an xGMI link as lacking atomics, and marks a GPU's PCIe
 * link to its CPU where amdgpu could not enable AtomicOps up to the root
 * port (pci_atomic_requested), which is the no-pcie-atomics variant; the
 * CPU's link back is marked only for a GPU that cannot complete them,
 * which these all can.  ROCr's link info follows, and from HIP 6 so does
 * hipDeviceAttributeHostNativeAtomicSupported; HIP 5.2 has no answer for
 * that attribute on any GPU (tests/vgpu/hg_vgpu_hipattr.c).  The links are bidirectional: xGMI always, PCIe with the
 * large BAR these cards have.  Then come its xGMI peers in the hive
 * (kfd_fill_gpu_xgmi_link_to_gpu: the xGMI weight times the hops).  A CPU
 * node links to the other NUMA nodes (kfd_fill_iolink_info_for_cpu, at
 * the NUMA distance) and back to its GPUs.
 */
#include <stdio.h>
#include <linux/kfd_sysfs.h>

#include "vg_links.h"
#include "vg_sysfs.h"
#include "vg_sysfs_io.h"

struct link {
	int type, weight;
	unsigned min_bw, max_bw, flags;
};

#define VG_LINK_BIDIRECTIONAL (1u << 31)
/* kfd_crat.h, KFD_CRAT_XGMI_WEIGHT: one xGMI hop. */
#define VG_XGMI_WEIGHT 15

/* out: the GPU's link to its CPU, else the CPU's to the GPU. */
static struct link cpu_link(const struct vg_node *n, int out)
{
	const struct vg_profile *p = n->gpu;
	unsigned none = HSA_IOLINK_FLAGS_NO_ATOMICS_32_BIT | HSA_IOLINK_FLAGS_NO_ATOMICS_64_BIT;
	if (n->cpu_xgmi && p->apu)
		return (struct link){ HSA_IOLINK_TYPE_XGMI, 13, 819200, 819200, 0 };
	if (n->cpu_xgmi)
		return (struct link){ HSA_IOLINK_TYPE_XGMI, VG_XGMI_WEIGHT, 36000, 36000, 0 };
	return (struct link){ HSA_IOLINK_TYPE_PCIEXPRESS, 20, 312, 64000,
			      out && !n->pcie_atomics ? none : 0 };
}

/* Two GPUs of one package are one hop apart; of two packages, two. */
static struct link peer_link(const struct vg_node *n, uint32_t a, uint32_t b)
{
	int near = a / n->per_package == b / n->per_package;
	unsigned hops = near || n->per_package == 1 ? 1 : 2;
	unsigned bw = near ? n->near_mbps : n->far_mbps;
	return (struct link){ HSA_IOLINK_TYPE_XGMI, (int)(VG_XGMI_WEIGHT * hops), bw, bw, 0 };
}

/* NUMA distance: ACPI's SLIT values for another node of the socket and
 * for another socket. */
static struct link numa_link(const struct vg_node *n, uint32_t a, uint32_t b)
{
	uint32_t per_socket = n->numa / n->sockets;
	int weight = a / per_socket == b / per_socket ? 12 : 32;
	return (struct link){ HSA_IOLINK_TYPE_HYPERTRANSPORT, weight, 0, 0, 0 };
}

static int put_link(const char *r, uint32_t node, uint32_t idx, const struct link *l,
		    uint32_t to)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "topology/nodes/%u/io_links/%u", node, idx);
	int rc = vg_sysfs_dir_in(r, rel);
	snprintf(rel, sizeof(rel), "topology/nodes/%u/io_links/%u/properties", node, idx);
	return rc | vg_sysfs_put(r, rel,
				 "type %d\nversion_major 0\nversion_minor 0\nnode_from %u\n"
				 "node_to %u\nweight %d\nmin_latency 0\nmax_latency 0\n"
				 "min_bandwidth %u\nmax_bandwidth %u\n"
				 "recommended_transfer_size 0\nflags %u\n",
				 l->type, node, to, l->weight, l->min_bw, l->max_bw,
				 HSA_IOLINK_FLAGS_ENABLED | VG_LINK_BIDIRECTIONAL | l->flags);
}

uint32_t vg_links_numa_of(const struct vg_node *n, uint32_t gpu)
{
	return gpu * n->numa / n->gpus;
}

uint32_t vg_links_count(const struct vg_node *n, uint32_t node)
{
	if (node >= n->numa)
		return n->gpus;
	uint32_t mine = 0;
	for (uint32_t g = 0; g < n->gpus; g++)
		mine += vg_links_numa_of(n, g) == node;
	return n->numa - 1 + mine;
}

int vg_links_write(const char *r, const struct vg_node *n, uint32_t node)
{
	int rc = 0;
	uint32_t idx = 0;
	if (node >= n->numa) {
		uint32_t me = node - n->numa;
		struct link c = cpu_link(n, 1);
		rc |= put_link(r, node, idx++, &c, vg_links_numa_of(n, me));
		for (uint32_t g = 0; g < n->gpus; g++) {
			if (g == me)
				continue;
			struct link l = peer_link(n, me, g);
			rc |= put_link(r, node, idx++, &l, n->numa + g);
		}
		return rc;
	}
	for (uint32_t c = 0; c < n->numa; c++) {
		if (c == node)
			continue;
		struct link l = numa_link(n, node, c);
		rc |= put_link(r, node, idx++, &l, c);
	}
	struct link g = cpu_link(n, 0);
	for (uint32_t i = 0; i < n->gpus; i++)
		if (vg_links_numa_of(n, i) == node)
			rc |= put_link(r, node, idx++, &g, n->numa + i);
	return rc;
}
