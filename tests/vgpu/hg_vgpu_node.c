/* SPDX-License-Identifier: MIT */
/*
 * A whole node as the machine's real ROCr sees it on the virtual GPU
 * (preloaded): a CPU agent per NUMA node and a GPU agent per GPU node
 * (an MI250X card is two), every GPU reaching every other over xGMI, one
 * hop within a package and two across (kfd_crat.c,
 * kfd_fill_gpu_xgmi_link_to_gpu: the xGMI weight times the hops, which
 * ROCr gives as the link's NUMA distance), and each GPU nearest the CPU
 * of its own NUMA node.
 *
 * usage: HIPGRAIN_VIRTUAL_GPU=NAME LD_PRELOAD=libhipgrain-vgpu.so
 *        hg-vgpu-node CPUS GPUS PER_PACKAGE
 */
#include <stdlib.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "tap.h"

#define MAX 16
static hsa_agent_t cpus[MAX], gpus[MAX];
static int ncpu, ngpu;

static hsa_status_t on_agent(hsa_agent_t a, void *unused)
{
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_CPU && ncpu < MAX)
		cpus[ncpu++] = a;
	if (t == HSA_DEVICE_TYPE_GPU && ngpu < MAX)
		gpus[ngpu++] = a;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *out)
{
	hsa_amd_segment_t seg;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	if (seg != HSA_AMD_SEGMENT_GLOBAL)
		return HSA_STATUS_SUCCESS;
	*(hsa_amd_memory_pool_t *)out = p;
	return HSA_STATUS_INFO_BREAK;
}

/* The link from agent a to the global pool of agent owner: its type and
 * NUMA distance, 0 hops when there is none. */
static uint32_t link(hsa_agent_t a, hsa_agent_t owner, hsa_amd_memory_pool_link_info_t *li)
{
	hsa_amd_memory_pool_t pool = { 0 };
	uint32_t hops = 0;
	hsa_amd_agent_iterate_memory_pools(owner, on_pool, &pool);
	hsa_amd_agent_memory_pool_get_info(a, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS,
					   &hops);
	if (hops && hops <= 4)
		hsa_amd_agent_memory_pool_get_info(a, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO,
						   li);
	return hops;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 64;
	int want_cpus = atoi(argv[1]), want_gpus = atoi(argv[2]), pkg = atoi(argv[3]);
	ok(hsa_init() == HSA_STATUS_SUCCESS, "ROCr starts");
	hsa_iterate_agents(on_agent, NULL);
	if (!ngpu) {
		/* ROCm before 5.7 has no gfx942: the MI300 machines' GPUs are
		 * not agents there ("unrecognized id"). */
		printf("ok %d # SKIP %s: this ROCr knows no such GPU\n", ++tap_n,
		       getenv("HIPGRAIN_VIRTUAL_GPU"));
		return done();
	}
	ok(ncpu == want_cpus, "a CPU agent per NUMA node: %d", ncpu);
	ok(ngpu == want_gpus, "a GPU agent per GPU node: %d", ngpu);
	int xgmi = 1, dist = 1;
	for (int i = 0; i < ngpu; i++)
		for (int j = 0; j < ngpu; j++) {
			hsa_amd_memory_pool_link_info_t li[4];
			if (i == j)
				continue;
			uint32_t hops = link(gpus[i], gpus[j], li);
			int near = i / pkg == j / pkg;
			xgmi &= hops >= 1 && li[0].link_type == HSA_AMD_LINK_INFO_TYPE_XGMI;
			dist &= hops >= 1 && li[0].numa_distance == (near || pkg == 1 ? 15u : 30u);
		}
	ok(xgmi, "every GPU reaches every other over xGMI");
	ok(dist, "at the xGMI weight per hop: one within a package, two across");
	int home = 1;
	for (int g = 0; g < ngpu; g++) {
		int mine = g * ncpu / (ngpu ? ngpu : 1);
		uint32_t best = ~0u;
		int at = -1;
		for (int c = 0; c < ncpu; c++) {
			hsa_amd_memory_pool_link_info_t li[4];
			if (link(gpus[g], cpus[c], li) && li[0].numa_distance < best) {
				best = li[0].numa_distance;
				at = c;
			}
		}
		home &= at == mine;
	}
	ok(home, "each GPU is nearest the CPU of its own NUMA node");
	return done();
}
