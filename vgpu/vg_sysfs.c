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
#include "vg_sysfs.h"
#include "vg_profile.h"

/* The first GPU node's first SIMD id, as the driver numbers them. */
#define VG_SIMD_ID_BASE 2147487744u

static int put(const char *root, const char *rel, const char *fmt, ...)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f) ? -errno : 0;
}

int vg_sysfs_dir(const char *path)
{
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

static int dir(const char *root, const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return vg_sysfs_dir(path);
}

static int cpu_node(const char *r)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	int rc = dir(r, "topology/nodes/0") | dir(r, "topology/nodes/0/mem_banks") |
		 dir(r, "topology/nodes/0/mem_banks/0") |
		 dir(r, "topology/nodes/0/caches") | dir(r, "topology/nodes/0/io_links") |
		 dir(r, "topology/nodes/0/io_links/0") | dir(r, "topology/nodes/0/p2p_links");
	rc |= put(r, "topology/nodes/0/gpu_id", "0\n");
	rc |= put(r, "topology/nodes/0/name", "\n");
	rc |= put(r, "topology/nodes/0/properties",
		  "cpu_cores_count %ld\nsimd_count 0\nmem_banks_count 1\n"
		  "caches_count 0\nio_links_count 1\np2p_links_count 0\n"
		  "cpu_core_id_base 0\nsimd_id_base 0\nmax_waves_per_simd 0\n"
		  "lds_size_in_kb 0\ngds_size_in_kb 0\nnum_gws 0\n"
		  "wave_front_size 0\narray_count 0\nsimd_arrays_per_engine 0\n"
		  "cu_per_simd_array 0\nsimd_per_cu 0\nmax_slots_scratch_cu 0\n"
		  "gfx_target_version 0\nvendor_id 0\ndevice_id 0\n"
		  "location_id 0\ndomain 0\ndrm_render_minor 0\nhive_id 0\n"
		  "num_sdma_engines 0\nnum_sdma_xgmi_engines 0\n"
		  "num_sdma_queues_per_engine 0\nnum_cp_queues 0\n"
		  "max_engine_clk_ccompute 2000\n",
		  cpus);
	rc |= put(r, "topology/nodes/0/mem_banks/0/properties",
		  "heap_type %d\nsize_in_bytes %llu\nflags 0\nwidth 64\n"
		  "mem_clk_max 3200\n",
		  HSA_MEM_HEAP_TYPE_SYSTEM, (unsigned long long)pages * psz);
	return rc;
}

/* The link between the CPU and the GPU, each way, as kfd_crat.c
 * (kfd_fill_gpu_direct_io_link_to_cpu) builds it: xGMI for a GPU wired to
 * its CPU that way, at the xGMI weight, or inside an APU's package at the
 * intra-socket weight and memory bandwidth; PCIe otherwise.  Both carry
 * atomics: kfd_topology.c (kfd_set_iolink_no_atomics) never marks an
 * xGMI link, and marks a PCIe link only where the GPU's root port lacks
 * PCIe atomics, which no host the products are sold for does; so ROCr's
 * link info, and HIP's hipDeviceAttributeHostNativeAtomicSupported from
 * it, say yes.  The links are bidirectional: xGMI always, PCIe with the
 * large BAR these cards have. */
struct link {
	int type, weight;
	unsigned min_bw, max_bw;
};

#define VG_LINK_BIDIRECTIONAL (1u << 31)

static struct link cpu_link(const struct vg_profile *p)
{
	if (p->cpu_xgmi && p->apu)
		return (struct link){ HSA_IOLINK_TYPE_XGMI, 13, 819200, 819200 };
	if (p->cpu_xgmi)
		return (struct link){ HSA_IOLINK_TYPE_XGMI, 15, 36000, 36000 };
	return (struct link){ HSA_IOLINK_TYPE_PCIEXPRESS, 20, 312, 64000 };
}

static int put_link(const char *r, const char *rel, const struct link *l, int from,
		    int to)
{
	return put(r, rel,
		   "type %d\nversion_major 0\nversion_minor 0\nnode_from %d\n"
		   "node_to %d\nweight %d\nmin_latency 0\nmax_latency 0\n"
		   "min_bandwidth %u\nmax_bandwidth %u\n"
		   "recommended_transfer_size 0\nflags %u\n",
		   l->type, from, to, l->weight, l->min_bw, l->max_bw,
		   HSA_IOLINK_FLAGS_ENABLED | VG_LINK_BIDIRECTIONAL);
}

/* As kfd_topology.c's node_show prints them: local_mem_size is 0 there
 * (the size is the memory banks'). */
static int gpu_props(const char *r, const struct vg_profile *p)
{
	unsigned simds = p->cu_count * 4;
	unsigned per_array = p->cu_count / p->shader_engines;
	unsigned cap = HSA_CAP_QUEUE_SIZE_POW2 |
		       (HSA_CAP_DOORBELL_TYPE_2_0 << HSA_CAP_DOORBELL_TYPE_TOTALBITS_SHIFT) |
		       HSA_CAP_SVMAPI_SUPPORTED |
		       HSA_CAP_MEM_EDCSUPPORTED | HSA_CAP_RASEVENTNOTIFY |
		       HSA_CAP_SRAM_EDCSUPPORTED |
		       (p->apu ? HSA_CAP_FLAGS_COHERENTHOSTACCESS : 0);
	return put(r, "topology/nodes/1/properties",
		   "cpu_cores_count 0\nsimd_count %u\nmem_banks_count 1\n"
		   "caches_count %u\nio_links_count 1\np2p_links_count 0\n"
		   "cpu_core_id_base 0\nsimd_id_base %u\n"
		   "max_waves_per_simd %u\nlds_size_in_kb 64\ngds_size_in_kb 0\n"
		   "num_gws 64\nwave_front_size 64\narray_count %u\n"
		   "simd_arrays_per_engine 1\ncu_per_simd_array %u\n"
		   "simd_per_cu 4\nmax_slots_scratch_cu 32\n"
		   "gfx_target_version %u\nvendor_id 4098\ndevice_id %u\n"
		   "location_id 768\ndomain 0\ndrm_render_minor %d\n"
		   "hive_id %llu\nnum_sdma_engines 2\nnum_sdma_xgmi_engines %u\n"
		   "num_sdma_queues_per_engine 8\nnum_cp_queues 24\n"
		   "max_engine_clk_fcompute %u\nlocal_mem_size 0\n"
		   "fw_version 71\ncapability %u\ndebug_prop 0\n"
		   "sdma_fw_version 20\nunique_id 1357911\nnum_xcc %u\n"
		   "max_engine_clk_ccompute 2000\n",
		   simds, vg_caches_count(p), VG_SIMD_ID_BASE, p->waves_per_simd,
		   p->shader_engines, per_array,
		   p->gfx_target, p->device_id, VG_RENDER_MINOR,
		   (unsigned long long)p->hive_id,
		   p->sdma_engines > 2 ? p->sdma_engines - 2 : 0,
		   p->max_clock_mhz, cap,
		   p->num_xcc);
}

static int gpu_node(const char *r, const struct vg_profile *p)
{
	const char *n = "topology/nodes/1";
	char sub[512];
	int rc = dir(r, n);
	const char *dirs[] = { "mem_banks", "mem_banks/0", "caches", "io_links",
			       "io_links/0", "p2p_links" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/%s", n, dirs[i]);
		rc |= dir(r, sub);
	}
	rc |= put(r, "topology/nodes/1/gpu_id", "%u\n", VG_GPU_ID);
	rc |= put(r, "topology/nodes/1/name", "%s\n", p->gfx);
	rc |= gpu_props(r, p);
	/* An APU's memory is the host's: the driver still reports a bank. */
	rc |= put(r, "topology/nodes/1/mem_banks/0/properties",
		  "heap_type %d\nsize_in_bytes %llu\nflags 0\nwidth 4096\n"
		  "mem_clk_max 1600\n",
		  HSA_MEM_HEAP_TYPE_FB_PUBLIC,
		  (unsigned long long)(p->vram_bytes ? p->vram_bytes : VG_APU_MEMORY));
	snprintf(sub, sizeof(sub), "%s/%s/caches", r, n);
	rc |= vg_caches_write(sub, VG_SIMD_ID_BASE, p);
	struct link l = cpu_link(p);
	rc |= put_link(r, "topology/nodes/1/io_links/0/properties", &l, 1, 0);
	return rc;
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

int vg_sysfs_make(const struct vg_profile *p, char *root, size_t cap)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(root, cap, "%s/hipgrain-vgpu-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return -errno;
	int rc = dir(root, "topology") | dir(root, "topology/nodes");
	rc |= put(root, "topology/generation_id", "1\n");
	rc |= put(root, "topology/system_properties",
		  "platform_oem 0\nplatform_id 0\nplatform_rev 0\n");
	struct link l = cpu_link(p);
	rc |= modules(root);
	rc |= cpu_node(root) | gpu_node(root, p) |
	      put_link(root, "topology/nodes/0/io_links/0/properties", &l, 0, 1);
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
