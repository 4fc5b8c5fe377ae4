/* SPDX-License-Identifier: MIT */
/*
 * A GPU page fault under XNACK, as amdkfd restores it (kfd_svm.c,
 * svm_range_restore_pages): the first GPU access to a block of a range
 * the GPU's page table does not hold is a retry fault; the driver picks
 * the best place for the block (svm_range_best_restore_location), migrates
 * it there when it lies elsewhere, maps it, and writes page_fault_start,
 * the migration (trigger: GPU page fault) and page_fault_end ('M' when it
 * moved, 'U' when it was only mapped) on the SMI files.  The block is the
 * range's granularity around the page (2 MiB by default), cut to the CPU
 * mapping that holds it.  The bytes never move: only where the driver
 * says they are changes, as with a prefetch.
 */
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <pthread.h>
#include <sys/mman.h>

#include "vg.h"
#include "vg_ranges.h"
#include "vg_svm_fault.h"
#include "vg_svm_int.h"
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

/* [*s, *e): the block around page, within the CPU mapping. */
static void block(uint64_t page, uint32_t log2_pages, uint64_t *s, uint64_t *e)
{
	uint64_t size = PAGE << (log2_pages < 20 ? log2_pages : 20);
	uint64_t lo = page & ~(size - 1), hi = lo + size, a = page, b = page + PAGE;
	while (a > lo && cpu_mapped(a - PAGE))
		a -= PAGE;
	while (b < hi && cpu_mapped(b))
		b += PAGE;
	*s = a;
	*e = b;
}

/* svm_range_best_restore_location: the preferred location when it is the
 * GPU or system memory; else the GPU when it may access the range (every
 * GPU may by default under XNACK); an APU's memory is the host's.  A
 * preferred GPU of another hive would not be taken; a node here is one
 * hive. */
static int64_t best(uint64_t s, uint64_t e, uint32_t gpu)
{
	uint32_t pref = vg_ranges_get(&vg_svm_preferred, s, e, KFD_IOCTL_SVM_LOCATION_UNDEFINED);
	if (vg.prof->apu)
		return 0;
	if (pref == KFD_IOCTL_SVM_LOCATION_SYSMEM || vg_gpu_index(pref) >= 0)
		return pref;
	if (!vg_svm_gpu_may_access(s, e, gpu))
		return -1;
	return gpu;
}

static int restore(uint64_t va, int write, uint32_t gpu)
{
	uint64_t page = va & ~(PAGE - 1), s, e;
	if (vg_ranges_get(&vg_svm_mapped, page, page + PAGE, 0))
		return 0;
	block(page, vg_ranges_get(&vg_svm_gran, page, page + PAGE, VG_SVM_GRANULARITY), &s, &e);
	int64_t to = best(s, e, gpu);
	if (to < 0)
		return -1;
	uint32_t from = vg_ranges_get(&vg_svm_where, s, e, 0);
	vg_smi_page_fault(gpu, page, 0, write ? 'W' : 'R');
	if (from != (uint32_t)to) {
		vg_smi_migrate(s, e - s, from, (uint32_t)to, KFD_MIGRATE_TRIGGER_PAGEFAULT_GPU);
		vg_ranges_set(&vg_svm_where, s, e, (uint32_t)to, NULL, NULL);
	}
	vg_smi_page_fault(gpu, page, 1, from != (uint32_t)to ? 'M' : 'U');
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
