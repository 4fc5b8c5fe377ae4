/* SPDX-License-Identifier: MIT */
/* The virtual GPU's products: what `hipgrain run --virtual-gpu` offers and
 * the device reports, without loading the device. */
#ifndef VG_PROFILE_H
#define VG_PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct isa_atab_facts; /* isa/isa_atab.h */

/* A product's topology, as the driver would report it. */
struct vg_profile {
	const char *name;	/* MI210 */
	const char *gfx;	/* gfx90a */
	const char *product;	/* the marketing name */
	uint32_t gfx_target;	/* major*10000 + minor*100 + stepping */
	uint32_t device_id;
	uint32_t cu_count;
	uint32_t shader_engines;
	uint32_t waves_per_simd;
	uint32_t num_xcc;
	uint32_t sdma_engines;
	uint32_t max_clock_mhz;
	uint64_t vram_bytes;	/* 0 for an APU: memory is the host's */
	uint32_t l2_kib;
	int apu;
	/* Its XGMI hive, 0 for a card on PCIe alone: ROCr offers fine-grained
	 * device memory over XGMI, and over PCIe only when told to
	 * (HSA_FINE_GRAIN_PCIE=1). */
	uint64_t hive_id;
	/* XNACK chosen per process (kfd_priv.h, KFD_SUPPORT_XNACK_PER_PROCESS:
	 * GC 9.4.2 and 9.4.3).  Elsewhere amdgpu's noretry, on by default for
	 * GC 9.4.x, keeps every process's XNACK off. */
	int xnack_per_process;
	/* Its link to the CPU is xGMI, not PCIe: an MI250X as the HPC
	 * systems built on it wire it (the driver's connected_to_cpu), an
	 * MI300A in the CPU's own package. */
	int cpu_xgmi;
	/* Its caches as kfd_crat.c lists them: the vector L1 of each CU, the
	 * SQC's instruction and scalar caches shared by sqc_cus CUs (the
	 * scalar one is 16 KiB on all of these), the L2 of each XCC (l2_kib
	 * above), and the Infinity Cache (MALL) as L3, 0 where there is none. */
	uint32_t l1_kib, inst_kib, sqc_cus, l3_kib;
};

/* The i-th profile, NULL past the last. */
const struct vg_profile *vg_profile_at(size_t i);
/* By name, case-insensitive; NULL when there is none. */
const struct vg_profile *vg_profile_find(const char *name);

#endif
