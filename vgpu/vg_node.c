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
#include <string.h>
#include <strings.h>

#include "isa_atab.h"
#include "vg_node.h"

static struct vg_node nodes[] = {
	{ "MI100", NULL, 1, 1, 1, 1, 0, 0, "a PCIe card" },
	{ "MI210", NULL, 1, 1, 1, 1, 0, 0, "a PCIe card" },
	{ "MI250X", NULL, 1, 1, 1, 1, 0, 0, "one GCD of an OAM module" },
	{ "MI300X", NULL, 1, 1, 1, 1, 0, 0, "one OAM module" },
	{ "MI300A", NULL, 1, 1, 1, 1, 0, 0, "one APU" },
	{ "4xMI250X", NULL, 8, 4, 1, 2, 200000, 50000, "Frontier, LUMI-G" },
	{ "8xMI300X", NULL, 8, 2, 2, 1, 64000, 64000, "an 8-GPU OAM platform" },
	{ "4xMI300A", NULL, 4, 4, 4, 1, 128000, 128000, "El Capitan" },
};

#define NNODES (sizeof(nodes) / sizeof(nodes[0]))

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* A machine's product is the one its name ends with. */
static void fill(void)
{
	for (size_t i = 0; i < NNODES; i++) {
		const char *x = strchr(nodes[i].name, 'x');
		nodes[i].gpu = vg_profile_find(nodes[i].gpus > 1 && x ? x + 1 : nodes[i].name);
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

int vg_node_facts(const char *name, struct isa_atab_facts *out)
{
	const struct vg_node *n = name && *name ? vg_node_find(name) : NULL;
	*out = (struct isa_atab_facts){ ISA_LINK_UNKNOWN, ISA_FACT_UNKNOWN, ISA_FACT_UNKNOWN };
	if (!n || !n->gpu)
		return -1;
	vg_profile_facts(n->gpu, out);
	return 0;
}

int vg_node_cpu_xgmi(const char *name)
{
	const struct vg_node *n = name && *name ? vg_node_find(name) : NULL;
	return n && n->gpu && n->gpu->cpu_xgmi;
}
