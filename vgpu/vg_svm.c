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
#include "vg_svm_int.h"


/* kfd_svm.c, svm_range_apply_attrs: an access attribute sets or clears
 * the GPU's bit in both bitmaps, and no other GPU's. */
static int set_access(uint64_t s, uint64_t e, uint32_t type, uint32_t gpu)
{
	uint32_t bit = 1u << vg_gpu_index(gpu), dflt = vg_svm_access_default();
	int rc = vg_ranges_flags(&vg_svm_access, s, e, bit,
				 type == KFD_IOCTL_SVM_ATTR_ACCESS, dflt);
	if (!rc)
		rc = vg_ranges_flags(&vg_svm_access, s, e, bit << VG_SVM_AIP,
				     type == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE,
				     dflt);
	return rc;
}

struct prefetch {
	uint32_t to;
	int moved;
};

/* Pages a prefetch moves lose their GPU mappings (the CPU's page table
 * changes under them, svm_range_evict). */
static void migrated(uint64_t start, uint64_t end, uint32_t from, void *arg)
{
	struct prefetch *p = arg;
	p->moved = 1;
	if (vg.prof->apu)
		return;
	vg_smi_migrate(start, end - start, from, p->to, KFD_MIGRATE_TRIGGER_PREFETCH);
	if (vg.xnack)
		vg_ranges_drop(&vg_svm_mapped, start, end);
}

/* Under XNACK a prefetch that placed pages maps them
 * (svm_range_trigger_migration, then svm_range_validate_and_map): on the
 * GPUs that access the range in place, and on the GPU they went to when
 * it may migrate them; a prefetch to system memory of pages there
 * migrates nothing and maps nothing, and the GPUs fault on them. */
static void prefetch_map(uint64_t s, uint64_t e, uint32_t to, int moved_any)
{
	uint32_t bits = vg_ranges_get(&vg_svm_access, s, e, vg_svm_access_default());
	int i = vg_gpu_index(to);
	if (!to && !moved_any)
		return;
	if (bits >> VG_SVM_AIP || (i >= 0 && (bits >> i) & 1))
		vg_svm_gpu_map(s, e);
}

static int set_one(uint64_t s, uint64_t e, const struct kfd_ioctl_svm_attribute *a)
{
	switch (a->type) {
	case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC: {
		uint32_t to = a->value;
		if (to && vg_gpu_index(to) < 0)
			return -EINVAL;
		/* An APU's memory is the host's: the best prefetch location is
		 * the CPU whatever was asked (kfd_svm.c,
		 * svm_range_best_prefetch_location), so nothing moves and no
		 * SMI event is written, nor mapped; the attribute is kept all
		 * the same. */
		struct prefetch p = { to, 0 };
		int rc = vg_ranges_set(&vg_svm_where, s, e, to, migrated, &p);
		if (!rc && vg.xnack)
			prefetch_map(s, e, vg.prof->apu ? 0 : to, p.moved && !vg.prof->apu);
		return rc;
	}
	case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
	case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
		return vg_ranges_flags(&vg_svm_flags, s, e, a->value,
				       a->type == KFD_IOCTL_SVM_ATTR_SET_FLAGS,
				       KD_SVM_FLAGS_DEFAULT);
	case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
		return vg_ranges_set(&vg_svm_preferred, s, e, a->value, NULL, NULL);
	case KFD_IOCTL_SVM_ATTR_ACCESS:
	case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
	case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
		return set_access(s, e, a->type, a->value);
	case KFD_IOCTL_SVM_ATTR_GRANULARITY: /* kept to 6 bits */
		return vg_ranges_set(&vg_svm_gran, s, e, a->value < 0x3f ? a->value : 0x3f, NULL, NULL);
	}
	return -EINVAL;
}

/* kfd_svm.c, svm_range_get_attr: the attributes a query may name (the
 * access types but ACCESS are refused) and what each reads: unset
 * locations UNDEFINED; an access query, naming a GPU, has its type
 * rewritten to the access that GPU has over every range the query meets
 * (the bitmaps ANDed), where no range is met by default all with XNACK on
 * and none with it off.  Other attributes read the value at the start. */
static uint32_t access_type(uint64_t s, uint64_t e, int gpu)
{
	uint32_t v;
	if (!vg_ranges_and(&vg_svm_access, s, e, &v))
		v = vg_svm_access_default();
	if ((v >> gpu) & 1)
		return KFD_IOCTL_SVM_ATTR_ACCESS;
	return (v >> (VG_SVM_AIP + gpu)) & 1 ? KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE
					      : KFD_IOCTL_SVM_ATTR_NO_ACCESS;
}

static int get_one(uint64_t s, uint64_t e, struct kfd_ioctl_svm_attribute *a)
{
	uint32_t f = vg_ranges_get(&vg_svm_flags, s, e, KD_SVM_FLAGS_DEFAULT);
	switch (a->type) {
	case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
		a->value = vg_ranges_get(&vg_svm_preferred, s, e, KFD_IOCTL_SVM_LOCATION_UNDEFINED);
		return 0;
	case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
		a->value = vg_ranges_get(&vg_svm_where, s, e, KFD_IOCTL_SVM_LOCATION_UNDEFINED);
		return 0;
	case KFD_IOCTL_SVM_ATTR_ACCESS:
		if (vg_gpu_index(a->value) < 0)
			return -EINVAL;
		a->type = access_type(s, e, vg_gpu_index(a->value));
		return 0;
	case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
		a->value = f;
		return 0;
	case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
		a->value = ~f;
		return 0;
	case KFD_IOCTL_SVM_ATTR_GRANULARITY:
		a->value = vg_ranges_get(&vg_svm_gran, s, e, VG_SVM_GRANULARITY);
		return 0;
	}
	return -EINVAL;
}

/* Every attribute is checked before any is applied (kfd_svm.c,
 * svm_range_check_attr): a location or access names a GPU of the process,
 * a type the driver does not know fails the whole call. */
static int check_attr(const struct kfd_ioctl_svm_attribute *a)
{
	switch (a->type) {
	case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
		if (a->value == KFD_IOCTL_SVM_LOCATION_UNDEFINED)
			return 0;
		/* fall through */
	case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
		if (a->value == KFD_IOCTL_SVM_LOCATION_SYSMEM)
			return 0;
		/* fall through */
	case KFD_IOCTL_SVM_ATTR_ACCESS:
	case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
	case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
		return vg_gpu_index(a->value) >= 0 ? 0 : -EINVAL;
	case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
	case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
	case KFD_IOCTL_SVM_ATTR_GRANULARITY:
		return 0;
	}
	return -EINVAL;
}

/* Shared virtual memory is the process's own pages (kfd_svm.c,
 * svm_range_is_valid): a page with no CPU mapping or a device's is
 * -EFAULT; then a range that meets a buffer object in the GPU's VM
 * (hipMalloc's VRAM, a pinned host buffer's userptr) is -EADDRINUSE.
 * Queries are refused the same way. */
static int check_range(uint64_t s, uint64_t size)
{
	int rc = vg_vma_check(s, size);
	if (rc)
		return rc;
	return vg_mem_overlaps(s, size) ? -EADDRINUSE : 0;
}

int vg_svm(void *p)
{
	struct kfd_ioctl_svm_args *a = p;
	uint64_t s = a->start_addr, e = a->start_addr + a->size;
	if (!s || !a->size || (s | a->size) & 4095 || e < s)
		return -EINVAL;
	if (a->op != KFD_IOCTL_SVM_OP_GET_ATTR && a->op != KFD_IOCTL_SVM_OP_SET_ATTR)
		return -EINVAL;
	for (uint32_t i = 0; a->op == KFD_IOCTL_SVM_OP_SET_ATTR && i < a->nattr; i++) {
		int rc = check_attr(&a->attrs[i]);
		if (rc)
			return rc;
	}
	int rc = check_range(s, a->size);
	if (rc) {
		vg_log("svm 0x%llx+0x%llx refused: %d", (unsigned long long)s,
		       (unsigned long long)a->size, rc);
		return rc;
	}
	if (a->op == KFD_IOCTL_SVM_OP_GET_ATTR) {
		for (uint32_t i = 0; i < a->nattr && !rc; i++)
			rc = get_one(s, e, &a->attrs[i]);
		return rc;
	}
	/* The parts no range held become ranges with the default access
	 * before the attributes apply (svm_range_add, svm_range_new). */
	rc = vg_ranges_flags(&vg_svm_access, s, e, 0, 1, vg_svm_access_default());
	for (uint32_t i = 0; i < a->nattr && !rc; i++)
		rc = set_one(s, e, &a->attrs[i]);
	if (rc)
		return rc;
	return vg_ranges_set(&vg_svm_known, s, e, 1, NULL, NULL);
}
