/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory (AMDKFD_IOC_SVM).  Attributes set are kept per
 * range, so a query answers what was set and a prefetch knows where the
 * pages are: a prefetch to another location migrates them, and the
 * migration is reported on the SMI event files as the driver would
 * (vg_smi.c).  The bytes never move: host memory is the GPU's here.
 */
#include <errno.h>
#include <linux/kfd_ioctl.h>

#include "kd_flags.h"
#include "vg_sysfs.h"
#include "vg.h"
#include "vg_ranges.h"


static struct vg_ranges where = VG_RANGES_INIT; /* 0 system, else a gpu id */
static struct vg_ranges flags = VG_RANGES_INIT; /* KFD_IOCTL_SVM_FLAG_* */
static struct vg_ranges known = VG_RANGES_INIT; /* 1: given to the driver */

static void migrated(uint64_t start, uint64_t end, uint32_t from, void *to)
{
	vg_smi_migrate(start, end - start, from, *(uint32_t *)to, KFD_MIGRATE_TRIGGER_PREFETCH);
}

static int set_one(uint64_t s, uint64_t e, const struct kfd_ioctl_svm_attribute *a)
{
	switch (a->type) {
	case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC: {
		uint32_t to = a->value;
		if (to != 0 && to != VG_GPU_ID)
			return -EINVAL;
		return vg_ranges_set(&where, s, e, to, migrated, &to);
	}
	case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
	case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
		return vg_ranges_flags(&flags, s, e, a->value,
				       a->type == KFD_IOCTL_SVM_ATTR_SET_FLAGS,
				       KD_SVM_FLAGS_DEFAULT);
	case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
	case KFD_IOCTL_SVM_ATTR_ACCESS:
	case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
	case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
	case KFD_IOCTL_SVM_ATTR_GRANULARITY:
		return 0;
	}
	return -EINVAL;
}

static uint32_t get_one(uint64_t s, uint64_t e, uint32_t type, uint32_t value)
{
	uint32_t f = vg_ranges_get(&flags, s, e, KD_SVM_FLAGS_DEFAULT);
	switch (type) {
	case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
		return KFD_IOCTL_SVM_LOCATION_UNDEFINED;
	case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
		return vg_ranges_get(&where, s, e, 0);
	case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
		return f;
	case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
		return ~f;
	case KFD_IOCTL_SVM_ATTR_GRANULARITY:
		return 9;
	}
	return value;
}

int vg_svm(void *p)
{
	struct kfd_ioctl_svm_args *a = p;
	uint64_t s = a->start_addr, e = a->start_addr + a->size;
	if (!a->size || (s | a->size) & 4095 || e < s)
		return -EINVAL;
	if (a->op == KFD_IOCTL_SVM_OP_GET_ATTR) {
		for (uint32_t i = 0; i < a->nattr; i++)
			if (a->attrs[i].type != KFD_IOCTL_SVM_ATTR_ACCESS)
				a->attrs[i].value = get_one(s, e, a->attrs[i].type,
							    a->attrs[i].value);
		return 0;
	}
	if (a->op != KFD_IOCTL_SVM_OP_SET_ATTR)
		return -EINVAL;
	/* Shared virtual memory is the process's own pages: the driver
	 * refuses a range that a buffer object maps (hipMalloc's VRAM, a
	 * pinned host buffer) with -EADDRINUSE (kfd_svm.c, its check of the
	 * VM), and Debian's ROCr 5.2.3 then aborts the program on an
	 * assertion in hipMemPrefetchAsync.  Here such a range is accepted
	 * and left alone, nothing migrates, so that an audit of a program
	 * that prefetches device memory reaches its end. */
	if (vg_mem_overlaps(s, a->size))
		return 0;
	for (uint32_t i = 0; i < a->nattr; i++) {
		int rc = set_one(s, e, &a->attrs[i]);
		if (rc)
			return rc;
	}
	return vg_ranges_set(&known, s, e, 1, NULL, NULL);
}

int vg_svm_lookup(uint64_t va, uint32_t *f, uint32_t *loc)
{
	uint64_t s = va & ~4095ull, e = s + 4096;
	*f = vg_ranges_get(&flags, s, e, KD_SVM_FLAGS_DEFAULT);
	*loc = vg_ranges_get(&where, s, e, 0);
	return vg_ranges_get(&known, s, e, 0) == 1;
}
