/* SPDX-License-Identifier: MIT */
/* The SVM ranges' attributes and the GPU's page table (vg_svm_attr.c),
 * shared by the attribute calls (vg_svm.c) and the fault path
 * (vg_svm_fault.c). */
#ifndef VG_SVM_INT_H
#define VG_SVM_INT_H

#include "vg_ranges.h"

/* What a range no call has set reads as (kfd_svm.c,
 * svm_range_set_default_attributes). */
#define VG_SVM_GRANULARITY 9

extern struct vg_ranges vg_svm_where;     /* 0 system, else a gpu id */
extern struct vg_ranges vg_svm_preferred; /* a location */
/* Per GPU, by its index in the process (kfd_process_gpuidx_from_gpuid):
 * bit i whether GPU i may access the range (bitmap_access), bit
 * VG_SVM_AIP + i whether in place only (bitmap_aip); every range the
 * driver keeps has a value, its default given when it was made. */
extern struct vg_ranges vg_svm_access;
#define VG_SVM_AIP 16
extern struct vg_ranges vg_svm_gran;      /* log2 of pages */
extern struct vg_ranges vg_svm_flags;     /* KFD_IOCTL_SVM_FLAG_* */
extern struct vg_ranges vg_svm_known;     /* 1: given to the driver */
extern struct vg_ranges vg_svm_mapped;    /* 1: in the GPU's page table */

#endif
