/* SPDX-License-Identifier: MIT */
/*
 * The machines a virtual GPU can be: each product alone, and the nodes
 * HPC centres run.  4xMI250X is four cards, eight GCDs, on a CPU whose
 * memory is split in four NUMA domains (NPS4), a GCD pair on each, as in
 * Frontier and LUMI-G; the two GCDs of a card are joined by four xGMI
 * links, GCDs of different cards by one.  8xMI300X is the eight-OAM
 * platform: two sockets, four GPUs each, every GPU joined to every other
 * by one xGMI link.  4xMI300A is El Capitan's node: four APUs, each with
 * its CPU cores and memory a NUMA node of its own, all joined by xGMI.
 * Bandwidths are the published per-link figures, in MB/s.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "isa_atab.h"
#include "vg_node.h"

static struct vg_node nodes[] = {
	{ "MI100", NULL, 1, 1, 1, 1, 0, 0, "a PCIe card", 0, 0, 0, "" },
	{ "MI210", NULL, 1, 1, 1, 1, 0, 0, "a PCIe card", 0, 0, 0, "" },
	{ "MI250X", NULL, 1, 1, 1, 1, 0, 0, "one GCD of an OAM module", 0, 0, 0, "" },
	{ "MI300X", NULL, 1, 1, 1, 1, 0, 0, "one OAM module", 0, 0, 0, "" },
	{ "MI300A", NULL, 1, 1, 1, 1, 0, 0, "one APU", 0, 0, 0, "" },
	{ "4xMI250X", NULL, 8, 4, 1, 2, 200000, 50000, "Frontier, LUMI-G", 0, 0, 0, "" },
	{ "8xMI300X", NULL, 8, 2, 2, 1, 64000, 64000, "an 8-GPU OAM platform", 0, 0, 0, "" },
	{ "4xMI300A", NULL, 4, 4, 4, 1, 128000, 128000, "El Capitan", 0, 0, 0, "" },
};

#define NNODES (sizeof(nodes) / sizeof(nodes[0]))

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* A machine's product is the one its name ends with. */
static void fill(void)
{
	for (size_t i = 0; i < NNODES; i++) {
		const char *x = strchr(nodes[i].name, 'x');
		nodes[i].gpu = vg_profile_find(nodes[i].gpus > 1 && x ? x + 1 : nodes[i].name);
		/* Each as it is deployed: its CPU link the profile's, a PCIe
		 * host with AtomicOps, amdgpu's default noretry. */
		nodes[i].cpu_xgmi = (uint8_t)nodes[i].gpu->cpu_xgmi;
		nodes[i].pcie_atomics = 1;
		snprintf(nodes[i].spec, sizeof(nodes[i].spec), "%s", nodes[i].name);
	}
}

const struct vg_node *vg_node_at(size_t i)
{
	pthread_once(&once, fill);
	return i < NNODES ? &nodes[i] : NULL;
}

const struct vg_node *vg_node_find(const char *name)
{
	pthread_once(&once, fill);
	for (size_t i = 0; i < NNODES; i++)
		if (!strcasecmp(nodes[i].name, name))
			return &nodes[i];
	return NULL;
}
