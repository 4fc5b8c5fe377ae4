/* SPDX-License-Identifier: MIT */
/*
 * A GPU page fault under XNACK, as amdkfd restores it (kfd_svm.c,
 * svm_range_restore_pages): the first GPU access to a block of a range
 * the GPU's page table does not hold is a retry fault.  A page no range
 * holds gets one first (vg_svm_new.c).  The driver picks the best place
 * for the block (svm_range_best_restore_location), migrates it there when
 * it lies elsewhere, maps it, and writes page_fault_start, the migration
 * (trigger: GPU page fault) when pages move, and page_fault_end: 'M' when
 * the block was or goes to a GPU's memory, 'U' when it stays in system
 * memory and is only mapped.  The block is the range's granularity around
 * the page (2 MiB by default), cut to the range and to the CPU mapping
 * that holds it.  The bytes never move: only where the driver says they
 * are changes, as with a prefetch.
 */
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <pthread.h>
#include <sys/mman.h>

#include "vg.h"
#include "vg_ranges.h"
#include "vg_svm_fault.h"
#include "vg_svm_int.h"
#include "vg_svm_new.h"
#include "vg_sysfs.h"

#define PAGE 4096ull

/* One fault at a time, as amdkfd restores pages under the process's SVM
 * lock: the interpreter's threads may fault on one block together, and
 * the block moves once. */
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;

static int cpu_mapped(uint64_t page)
{
	return msync((void *)(uintptr_t)page, PAGE, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* [*s, *e): the block around page, within its range and the CPU
 * mapping. */
static void block(uint64_t page, uint32_t log2_pages, uint64_t *s, uint64_t *e)
{
	uint64_t size = PAGE << (log2_pages < 20 ? log2_pages : 20);
	uint64_t lo = page & ~(size - 1), hi = lo + size, a = page, b = page + PAGE;
	uint64_t rs, re;
	if (vg_ranges_extent(&vg_svm_known, page, &rs, &re)) {
		lo = lo > rs ? lo : rs;
		hi = hi < re ? hi : re;
	}
	while (a > lo && cpu_mapped(a - PAGE))
		a -= PAGE;
	while (b < hi && cpu_mapped(b))
		b += PAGE;
	*s = a;
	*e = b;
}

/* Two GPUs' memory is mapped across their link only in one hive; a node
 * here is one hive when its profile has one. */
static int same_hive(uint32_t a, uint32_t b)
{
	return a == b || vg.prof->hive_id != 0;
}

/* svm_range_best_restore_location: an APU's memory is the host's; then
 * the preferred location when it is the faulting GPU, system memory, or
 * a GPU of its hive; then the faulting GPU when the range lets it migrate
 * there (ACCESS: every GPU's default under XNACK); a GPU that may only
 * access in place (ACCESS_IN_PLACE, hipMemAdviseSetAccessedBy) maps the
 * block where it is, in system memory or in a GPU of its hive, and
 * moves it to system memory from any other; a GPU with neither may not
 * access it (-1). */
static int64_t best(uint64_t s, uint64_t e, uint32_t gpu, uint32_t where)
{
	uint32_t pref = vg_ranges_get(&vg_svm_preferred, s, e, KFD_IOCTL_SVM_LOCATION_UNDEFINED);
	uint32_t bits = vg_ranges_get(&vg_svm_access, s, e, vg_svm_access_default());
	int i = vg_gpu_index(gpu);
	if (vg.prof->apu)
		return 0;
	if (pref == gpu || pref == KFD_IOCTL_SVM_LOCATION_SYSMEM)
		return pref;
	if (vg_gpu_index(pref) >= 0 && same_hive(gpu, pref))
		return pref;
	if (i < 0)
		return -1;
	if ((bits >> i) & 1)
		return gpu;
	if ((bits >> (VG_SVM_AIP + i)) & 1)
		return where && same_hive(gpu, where) ? where : 0;
	return -1;
}

static int restore(uint64_t va, int write, uint32_t gpu)
{
	uint64_t page = va & ~(PAGE - 1), s, e;
	if (vg_ranges_get(&vg_svm_mapped, page, page + PAGE, 0))
		return 0;
	if (!vg_ranges_get(&vg_svm_known, page, page + PAGE, 0) && vg_svm_new_range(page))
		return -1;
	block(page, vg_ranges_get(&vg_svm_gran, page, page + PAGE, VG_SVM_GRANULARITY), &s, &e);
	uint32_t from = vg_ranges_get(&vg_svm_where, s, e, 0);
	int64_t to = best(s, e, gpu, from);
	if (to < 0)
		return -1;
	vg_smi_page_fault(gpu, page, 0, write ? 'W' : 'R');
	if (from != (uint32_t)to) {
		vg_smi_migrate(s, e - s, from, (uint32_t)to, KFD_MIGRATE_TRIGGER_PAGEFAULT_GPU);
		vg_ranges_set(&vg_svm_where, s, e, (uint32_t)to, NULL, NULL);
	}
	vg_smi_page_fault(gpu, page, 1, from || to ? 'M' : 'U');
	return vg_ranges_set(&vg_svm_mapped, s, e, 1, NULL, NULL) ? -1 : 0;
}

int vg_svm_gpu_fault(uint64_t va, int write, uint32_t gpu)
{
	pthread_mutex_lock(&fault_lock);
	int rc = restore(va, write, gpu);
	pthread_mutex_unlock(&fault_lock);
	return rc;
}

/* Fork: the fault lock, outside the ranges' own (vg_state.c's order). */
void vg_svm_fault_fork(int phase)
{
	if (phase == VG_FORK_PREPARE)
		pthread_mutex_lock(&fault_lock);
	else
		pthread_mutex_unlock(&fault_lock);
}
