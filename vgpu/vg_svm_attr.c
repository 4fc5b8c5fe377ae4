/* SPDX-License-Identifier: MIT */
/*
 * The SVM ranges as the driver keeps them: each attribute per range, and
 * which blocks the GPU's page table holds.  A layer under both the
 * attribute calls (vg_svm.c) and the fault path (vg_svm_fault.c), which
 * change them, and the CPU's mappings (vg_vma.c), which end them; it calls
 * none of them.
 */
#include <linux/kfd_ioctl.h>

#include "kd_flags.h"
#include "vg.h"
#include "vg_ranges.h"
#include "vg_svm_int.h"

struct vg_ranges vg_svm_where = VG_RANGES_INIT;
struct vg_ranges vg_svm_flags = VG_RANGES_INIT;
struct vg_ranges vg_svm_known = VG_RANGES_INIT;
struct vg_ranges vg_svm_preferred = VG_RANGES_INIT;
struct vg_ranges vg_svm_access = VG_RANGES_INIT;
struct vg_ranges vg_svm_gran = VG_RANGES_INIT;
struct vg_ranges vg_svm_mapped = VG_RANGES_INIT;

uint32_t vg_svm_access_default(void)
{
	uint32_t n = vg.node ? vg.node->gpus : 1;
	return vg.xnack ? (n >= VG_SVM_AIP ? 0xffffu : (1u << n) - 1) : 0;
}

void vg_svm_gpu_map(uint64_t start, uint64_t end)
{
	vg_ranges_set(&vg_svm_mapped, start, end, 1, NULL, NULL);
}

int vg_svm_gpu_may_access(uint64_t s, uint64_t e, uint32_t gpu)
{
	int i = vg_gpu_index(gpu);
	uint32_t v = vg_ranges_get(&vg_svm_access, s, e, vg_svm_access_default());
	return i >= 0 && ((v >> i) & 1 || (v >> (VG_SVM_AIP + i)) & 1);
}

int vg_svm_lookup(uint64_t va, uint32_t *f, uint32_t *loc)
{
	uint64_t s = va & ~4095ull, e = s + 4096;
	*f = vg_ranges_get(&vg_svm_flags, s, e, KD_SVM_FLAGS_DEFAULT);
	*loc = vg_ranges_get(&vg_svm_where, s, e, 0);
	return vg_ranges_get(&vg_svm_known, s, e, 0) == 1;
}

/* Fork: the child's SVM ranges are none (amdkfd's are per process).
 * Locks are taken in one order and released in the other. */
void vg_svm_fork(int phase)
{
	struct vg_ranges *maps[] = { &vg_svm_where, &vg_svm_flags, &vg_svm_preferred, &vg_svm_access, &vg_svm_gran, &vg_svm_known, &vg_svm_mapped };
	size_t n = sizeof(maps) / sizeof(maps[0]);
	for (size_t i = 0; i < n; i++)
		vg_ranges_fork(maps[phase == VG_FORK_PREPARE ? i : n - 1 - i], phase);
}

/* Whether an SVM range (any attribute set) meets [start, start+len). */
int vg_svm_holds(uint64_t start, uint64_t len)
{
	struct vg_ranges *maps[] = { &vg_svm_where, &vg_svm_flags, &vg_svm_preferred, &vg_svm_access, &vg_svm_gran, &vg_svm_known };
	int hit = 0;
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]) && !hit; i++)
		hit = vg_ranges_meets(maps[i], start, start + len);
	return hit;
}

/* The CPU's mapping of [start, start+len) was replaced: the driver drops
 * the SVM ranges on it (kfd_svm.c, svm_range_unmap_from_cpu). */
void vg_svm_unmapped(uint64_t start, uint64_t len)
{
	struct vg_ranges *maps[] = { &vg_svm_where, &vg_svm_flags, &vg_svm_preferred, &vg_svm_access, &vg_svm_gran, &vg_svm_known };
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		vg_ranges_drop(maps[i], start, start + len);
	vg_ranges_drop(&vg_svm_mapped, start, start + len);
}
