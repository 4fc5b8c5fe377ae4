/* SPDX-License-Identifier: MIT */
/*
 * The machine's own word: what the driver's topology says of each GPU
 * node, recorded once per process when the runtime first learns the
 * driver's version (AMDKFD_IOC_GET_VERSION, before it reads the topology
 * itself).  The files are amdkfd's (kfd_topology.c: node_show,
 * iolink_show); on the virtual GPU its generated tree answers the same
 * paths.  A verdict about atomics to host memory rests on the GPU's link
 * to its CPU: its io_link type, and the flags amdkfd sets where atomics
 * do not cross a PCIe link (kfd_set_iolink_no_atomics).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pl_kfd.h"
#include "pl_topo.h"
#include "reg.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"
/* More than any machine hipgrain knows has: 8 GPUs, 8 NUMA nodes. */
#define PL_TOPO_NODES 64u
#define PL_TOPO_LINKS 32u

/* One value of a properties file, or 0 (the driver prints each as
 * "name value"). */
static uint64_t prop(const char *path, const char *name, int *found)
{
	char line[160];
	size_t n = strlen(name);
	uint64_t v = 0;
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ') {
			v = strtoull(line + n + 1, NULL, 10);
			if (found)
				*found = 1;
			break;
		}
	fclose(f);
	return v;
}

static void line_of(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "re");
	buf[0] = '\0';
	if (f && fgets(buf, (int)cap, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Its first io_link to a node with no GPU: the CPU it hangs from. */
static void cpu_link(uint32_t node, struct hg_tp_kfd_node *e)
{
	char path[160];
	for (uint32_t i = 0; i < PL_TOPO_LINKS; i++) {
		int found = 0;
		snprintf(path, sizeof(path), TOPO "/%u/io_links/%u/properties", node, i);
		uint32_t to = (uint32_t)prop(path, "node_to", &found);
		if (!found)
			return;
		char gpu[160];
		snprintf(gpu, sizeof(gpu), TOPO "/%u/properties", to);
		if (prop(gpu, "simd_count", NULL))
			continue; /* a peer GPU */
		e->cpu_node = to;
		e->link_type = (uint32_t)prop(path, "type", NULL);
		e->link_flags = (uint32_t)prop(path, "flags", NULL);
		return;
	}
}

void pl_topo_record(uint32_t major, uint32_t minor)
{
	char path[160], name[64], driver[64];
	line_of("/sys/module/amdgpu/version", driver, sizeof(driver));
	for (uint32_t node = 0; node < PL_TOPO_NODES; node++) {
		snprintf(path, sizeof(path), TOPO "/%u/properties", node);
		if (access(path, R_OK))
			break;
		if (!prop(path, "simd_count", NULL))
			continue; /* a CPU node */
		struct hg_tp_kfd_node e = {
			.node = node,
			.gfx_target_version = (uint32_t)prop(path, "gfx_target_version", NULL),
			.device_id = (uint32_t)prop(path, "device_id", NULL),
			.hive_id = prop(path, "hive_id", NULL),
			.capability = (uint32_t)prop(path, "capability", NULL),
			.kfd_major = major, .kfd_minor = minor,
			.name = name, .driver = driver,
		};
		char id[160];
		snprintf(id, sizeof(id), TOPO "/%u/gpu_id", node);
		line_of(id, name, sizeof(name));
		e.gpu_id = (uint32_t)strtoul(name, NULL, 10);
		snprintf(id, sizeof(id), TOPO "/%u/name", node);
		line_of(id, name, sizeof(name));
		cpu_link(node, &e);
		reg_emit_kfd_node(&e);
	}
}
