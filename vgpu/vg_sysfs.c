/* SPDX-License-Identifier: MIT */
/*
 * The KFD topology in sysfs, written as a real directory tree so that the
 * thunk's fopen, opendir and readdir work on it unchanged; its paths are
 * rewritten to the tree by the shim.  Property names are the driver's
 * (kfd_topology.c), values the profile's.  Node 0 is the host's CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/kfd_sysfs.h>

#include "vg_caches.h"
#include "vg_cpucache.h"
#include "vg_links.h"
#include "vg_sysfs.h"
#include "vg_sysfs_io.h"
#include "vg_profile.h"

/* The first GPU node's first SIMD id, as the driver numbers them (each
 * GPU's follow the one before's CUs), its PCI location and unique id. */
#define VG_SIMD_ID_BASE 2147487744u
#define VG_LOCATION_ID 768u
#define VG_UNIQUE_ID 1357911u

#define put vg_sysfs_put
#define dir vg_sysfs_dir_in

/* A NUMA node of the host: its share of the cores and memory. */
static int cpu_node(const char *r, const struct vg_node *n, uint32_t node)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long each = cpus / (long)n->numa > 0 ? cpus / (long)n->numa : 1;
	uint64_t mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	char d[64], sub[128];
	snprintf(d, sizeof(d), "topology/nodes/%u", node);
	int rc = dir(r, d);
	const char *dirs[] = { "mem_banks", "mem_banks/0", "caches", "io_links", "p2p_links" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/%s", d, dirs[i]);
		rc |= dir(r, sub);
	}
	snprintf(sub, sizeof(sub), "%s/gpu_id", d);
	rc |= put(r, sub, "0\n");
	snprintf(sub, sizeof(sub), "%s/name", d);
	rc |= put(r, sub, "\n");
	snprintf(sub, sizeof(sub), "%s/properties", d);
	rc |= put(r, sub,
		  "cpu_cores_count %ld\nsimd_count 0\nmem_banks_count 1\n"
		  "caches_count 0\nio_links_count %u\np2p_links_count 0\n"
		  "cpu_core_id_base %ld\nsimd_id_base 0\nmax_waves_per_simd 0\n"
		  "lds_size_in_kb 0\ngds_size_in_kb 0\nnum_gws 0\n"
		  "wave_front_size 0\narray_count 0\nsimd_arrays_per_engine 0\n"
		  "cu_per_simd_array 0\nsimd_per_cu 0\nmax_slots_scratch_cu 0\n"
		  "gfx_target_version 0\nvendor_id 0\ndevice_id 0\n"
		  "location_id 0\ndomain 0\ndrm_render_minor 0\nhive_id %llu\n"
		  "num_sdma_engines 0\nnum_sdma_xgmi_engines 0\n"
		  "num_sdma_queues_per_engine 0\nnum_cp_queues 0\n"
		  "max_engine_clk_ccompute 2000\n",
		  each, vg_links_count(n, node), each * (long)node,
		  /* kfd_topology.c puts a CPU wired to its GPUs by xGMI
		   * in their hive. */
		  (unsigned long long)(n->cpu_xgmi ? n->gpu->hive_id : 0));
	snprintf(sub, sizeof(sub), "%s/mem_banks/0/properties", d);
	rc |= put(r, sub,
		  "heap_type %d\nsize_in_bytes %llu\nflags 0\nwidth 64\n"
		  "mem_clk_max 3200\n",
		  HSA_MEM_HEAP_TYPE_SYSTEM, (unsigned long long)(mem / n->numa));
	return rc | vg_links_write(r, n, node);
}

/* As kfd_topology.c's node_show prints them: local_mem_size is 0 there
 * (the size is the memory banks'). */
static int gpu_props(const char *r, const char *path, const struct vg_node *n, uint32_t g)
{
	const struct vg_profile *p = n->gpu;
	unsigned simds = p->cu_count * 4;
	unsigned per_array = p->cu_count / p->shader_engines;
	unsigned cap = HSA_CAP_QUEUE_SIZE_POW2 |
		       (HSA_CAP_DOORBELL_TYPE_2_0 << HSA_CAP_DOORBELL_TYPE_TOTALBITS_SHIFT) |
		       HSA_CAP_SVMAPI_SUPPORTED |
		       HSA_CAP_MEM_EDCSUPPORTED | HSA_CAP_RASEVENTNOTIFY |
		       HSA_CAP_SRAM_EDCSUPPORTED |
		       /* kfd_topology.c: an APU, or a GPU wired to its
			* CPU by xGMI (connected_to_cpu). */
		       (n->cpu_xgmi ? HSA_CAP_FLAGS_COHERENTHOSTACCESS : 0);
	return put(r, path,
		   "cpu_cores_count 0\nsimd_count %u\nmem_banks_count 1\n"
		   "caches_count %u\nio_links_count %u\np2p_links_count 0\n"
		   "cpu_core_id_base 0\nsimd_id_base %u\n"
		   "max_waves_per_simd %u\nlds_size_in_kb 64\ngds_size_in_kb 0\n"
		   "num_gws 64\nwave_front_size 64\narray_count %u\n"
		   "simd_arrays_per_engine 1\ncu_per_simd_array %u\n"
		   "simd_per_cu 4\nmax_slots_scratch_cu 32\n"
		   "gfx_target_version %u\nvendor_id 4098\ndevice_id %u\n"
		   "location_id %u\ndomain 0\ndrm_render_minor %u\n"
		   "hive_id %llu\nnum_sdma_engines 2\nnum_sdma_xgmi_engines %u\n"
		   "num_sdma_queues_per_engine 8\nnum_cp_queues 24\n"
		   "max_engine_clk_fcompute %u\nlocal_mem_size 0\n"
		   "fw_version 71\ncapability %u\ndebug_prop 0\n"
		   "sdma_fw_version 20\nunique_id %u\nnum_xcc %u\n"
		   "max_engine_clk_ccompute 2000\n",
		   simds, vg_caches_count(p), vg_links_count(n, n->numa + g),
		   VG_SIMD_ID_BASE + g * p->cu_count, p->waves_per_simd,
		   p->shader_engines, per_array, p->gfx_target, p->device_id,
		   VG_LOCATION_ID + (g << 8), VG_RENDER_MINOR + g,
		   (unsigned long long)p->hive_id,
		   p->sdma_engines > 2 ? p->sdma_engines - 2 : 0,
		   p->max_clock_mhz, cap, VG_UNIQUE_ID + g, p->num_xcc);
}

/* GPU g: node numa + g, as the driver numbers GPUs after the CPUs. */
static int gpu_node(const char *r, const struct vg_node *n, uint32_t g)
{
	const struct vg_profile *p = n->gpu;
	char d[64], sub[512];
	snprintf(d, sizeof(d), "topology/nodes/%u", n->numa + g);
	int rc = dir(r, d);
	const char *dirs[] = { "mem_banks", "mem_banks/0", "caches", "io_links", "p2p_links" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/%s", d, dirs[i]);
		rc |= dir(r, sub);
	}
	snprintf(sub, sizeof(sub), "%s/gpu_id", d);
	rc |= put(r, sub, "%u\n", vg_gpu_id(g));
	snprintf(sub, sizeof(sub), "%s/name", d);
	rc |= put(r, sub, "%s\n", p->gfx);
	snprintf(sub, sizeof(sub), "%s/properties", d);
	rc |= gpu_props(r, sub, n, g);
	/* An APU's memory is the host's: the driver still reports a bank. */
	snprintf(sub, sizeof(sub), "%s/mem_banks/0/properties", d);
	rc |= put(r, sub,
		  "heap_type %d\nsize_in_bytes %llu\nflags 0\nwidth 4096\n"
		  "mem_clk_max 1600\n",
		  HSA_MEM_HEAP_TYPE_FB_PUBLIC,
		  (unsigned long long)(p->vram_bytes ? p->vram_bytes : VG_APU_MEMORY));
	snprintf(sub, sizeof(sub), "%s/%s/caches", r, d);
	rc |= vg_caches_write(sub, VG_SIMD_ID_BASE + g * p->cu_count, p);
	return rc | vg_links_write(r, n, n->numa + g);
}

/* The loaded modules, as ROCm's tools look for the driver (rocminfo
 * through libkmod: /proc/modules, then the module's initstate): the
 * machine's own list, with amdgpu live in it. */
static int modules(const char *r)
{
	char path[512], line[512];
	int has = 0;
	snprintf(path, sizeof(path), "%s/proc_modules", r);
	FILE *out = fopen(path, "w"), *in = fopen("/proc/modules", "r");
	if (!out) {
		if (in)
			fclose(in);
		return -errno;
	}
	while (in && fgets(line, sizeof(line), in)) {
		has |= !strncmp(line, "amdgpu ", 7);
		fputs(line, out);
	}
	if (in)
		fclose(in);
	if (!has)
		fputs("amdgpu 16384 0 - Live 0x0000000000000000\n", out);
	int rc = fclose(out) ? -errno : 0;
	return rc | dir(r, "module") | dir(r, "module/amdgpu") |
	       put(r, "module/amdgpu/initstate", "live\n");
}

/* The machine's NUMA nodes past the first, for a host that may have only
 * one: each is the host's first (the shim sends their paths here). */
static int numa_nodes(const char *r, const struct vg_node *n)
{
	char path[512];
	int rc = n->numa > 1 ? dir(r, "system_node") : 0;
	for (uint32_t k = 1; k < n->numa; k++) {
		snprintf(path, sizeof(path), "%s/system_node/node%u", r, k);
		rc |= symlink("/sys/devices/system/node/node0", path) ? -errno : 0;
	}
	return rc;
}

int vg_sysfs_make(const struct vg_node *n, char *root, size_t cap)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(root, cap, "%s/hipgrain-vgpu-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return -errno;
	int rc = dir(root, "topology") | dir(root, "topology/nodes");
	rc |= put(root, "topology/generation_id", "1\n");
	rc |= put(root, "topology/system_properties",
		  "platform_oem 0\nplatform_id 0\nplatform_rev 0\n");
	rc |= modules(root) | numa_nodes(root, n);
	rc |= vg_cpucache_make(root, "/sys/devices/system/cpu");
	for (uint32_t c = 0; c < n->numa; c++)
		rc |= cpu_node(root, n, c);
	for (uint32_t g = 0; g < n->gpus; g++)
		rc |= gpu_node(root, n, g);
	return rc ? -EIO : 0;
}

static void rm_tree(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	char sub[512];
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			rm_tree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	rmdir(path);
}

void vg_sysfs_remove(const char *root)
{
	if (root[0])
		rm_tree(root);
}
