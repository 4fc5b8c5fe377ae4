/* SPDX-License-Identifier: MIT */
/*
 * The products a virtual GPU can be.  Device ids, CU counts and memory
 * sizes are the real products' (PCI ids as amdgpu lists them); an MI250X
 * is one of its two GCDs, as the driver shows each as its own node.  The
 * MI100 and MI210 are PCIe cards on their own; MI250X and MI300 parts sit
 * in an XGMI hive, as they are built and sold, the MI250X reaching its
 * CPU over xGMI too as in the systems built on it, the MI300A inside the
 * CPU's package.  Caches: kfd_crat.c's tables (vega20_cache_info, which
 * Arcturus shares, and aldebaran_cache_info), and for GC 9.4.3 what the
 * driver reads from the part's IP discovery table
 * (kfd_fill_gpu_cache_info_from_gfx_config_v2), as rocminfo shows it.
 */
#include <string.h>
#include <strings.h>

#include "isa_atab.h"
#include "vg_profile.h"

#define GIB (1ull << 30)

static const struct vg_profile profiles[] = {
	{ "MI100", "gfx908", "AMD Instinct MI100", 90008, 0x738c, 120, 8, 10,
	  1, 8, 1502, 32 * GIB, 8192, 0, 0, 0, 0, 16, 32, 3, 0 },
	{ "MI210", "gfx90a", "AMD Instinct MI210", 90010, 0x740f, 104, 8, 8,
	  1, 5, 1700, 64 * GIB, 8192, 0, 0, 1, 0, 16, 32, 2, 0 },
	{ "MI250X", "gfx90a", "AMD Instinct MI250X", 90010, 0x7408, 110, 8, 8,
	  1, 5, 1700, 64 * GIB, 8192, 0, 0x5a1e250, 1, 1, 16, 32, 2, 0 },
	{ "MI300X", "gfx942", "AMD Instinct MI300X", 90402, 0x74a1, 304, 32, 8,
	  8, 16, 2100, 192 * GIB, 4096, 0, 0x5a1e300, 1, 0, 32, 64, 2, 262144 },
	{ "MI300A", "gfx942", "AMD Instinct MI300A", 90402, 0x74a0, 228, 24, 8,
	  6, 12, 2100, 0, 4096, 1, 0x5a1e301, 1, 1, 32, 64, 2, 262144 },
};

const struct vg_profile *vg_profile_at(size_t i)
{
	return i < sizeof(profiles) / sizeof(profiles[0]) ? &profiles[i] : NULL;
}

const struct vg_profile *vg_profile_find(const char *name)
{
	for (size_t i = 0; vg_profile_at(i); i++)
		if (!strcasecmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

