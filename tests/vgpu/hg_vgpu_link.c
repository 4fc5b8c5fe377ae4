/* SPDX-License-Identifier: MIT */
/*
 * What the product's link to its CPU tells the runtime, through the
 * machine's real ROCr on the virtual GPU (preloaded): the link's type as
 * deployed (xGMI for an MI250X wired to its CPU that way and for an
 * MI300A, PCIe for the cards), and atomics both ways, which HIP reports
 * as hipDeviceAttributeHostNativeAtomicSupported (ROCclr reads this very
 * link info of the CPU's fine-grained pool) unless the variant's root
 * port carries no PCIe AtomicOps (no-pcie-atomics).
 *
 * usage: HIPGRAIN_VIRTUAL_GPU=NAME[:OPTION,...] LD_PRELOAD=libhipgrain-vgpu.so
 *        hg-vgpu-link XGMI(0|1) [ATOMICS(0|1), default 1]
 */
#include <stdlib.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "tap.h"

static hsa_agent_t cpu, gpu;
static int ngpu;
static hsa_amd_memory_pool_t fine;
static int nfine;

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *unused)
{
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	if (seg == HSA_AMD_SEGMENT_GLOBAL &&
	    (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !nfine++)
		fine = p;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_agent(hsa_agent_t a, void *unused)
{
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_CPU)
		cpu = a;
	else if (t == HSA_DEVICE_TYPE_GPU && !ngpu++)
		gpu = a;
	return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv)
{
	const char *name = getenv("HIPGRAIN_VIRTUAL_GPU");
	if (argc < 2 || argc > 3 || !name)
		return 64;
	int xgmi = atoi(argv[1]), atomics = argc < 3 || atoi(argv[2]);
	ok(hsa_init() == HSA_STATUS_SUCCESS, "%s: ROCr starts", name);
	hsa_iterate_agents(on_agent, NULL);
	if (!ngpu) {
		printf("ok %d # SKIP %s: this ROCr knows no such GPU\n", ++tap_n, name);
		return done();
	}
	hsa_amd_agent_iterate_memory_pools(cpu, on_pool, NULL);
	ok(nfine > 0, "the CPU has a fine-grained pool");
	uint32_t hops = 0;
	hsa_amd_memory_pool_link_info_t l = { 0 };
	hsa_amd_agent_memory_pool_get_info(gpu, fine,
					   HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops);
	hsa_amd_agent_memory_pool_get_info(gpu, fine, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO,
					   &l);
	ok(hops == 1, "%s: one link to the CPU", name);
	ok(l.link_type == (xgmi ? HSA_AMD_LINK_INFO_TYPE_XGMI : HSA_AMD_LINK_INFO_TYPE_PCIE),
	   "%s: the link is %s", name, xgmi ? "xGMI" : "PCIe");
	ok(atomics ? l.atomic_support_32bit && l.atomic_support_64bit
		   : !l.atomic_support_32bit && !l.atomic_support_64bit,
	   "%s: %s host-native atomics", name, atomics ? "with" : "without");
	hsa_shut_down();
	return done();
}
