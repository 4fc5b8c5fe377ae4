/* SPDX-License-Identifier: MIT */
/*
 * What the flags of AMDKFD_IOC_ALLOC_MEMORY_OF_GPU (KFD_IOC_ALLOC_MEM_FLAGS_*)
 * and of AMDKFD_IOC_SVM (KFD_IOCTL_SVM_FLAG_*, KFD_IOCTL_SVM_ATTR_*) tell
 * the driver: where the memory lives, which granularity it gets, and names
 * for every bit of the newest uapi.
 */
#ifndef KD_FLAGS_H
#define KD_FLAGS_H

#include <stddef.h>
#include <stdint.h>

#include "kd_uapi.h"

enum kd_gran {
	KD_GRAN_NONE,   /* not memory: doorbells, MMIO remaps, no domain */
	KD_GRAN_COARSE, /* cached, coherent only at kernel boundaries */
	KD_GRAN_FINE,   /* coherent while kernels run */
};

enum kd_domain {
	KD_DOMAIN_INVALID, /* no domain bit: the driver refuses the call */
	KD_DOMAIN_VRAM,
	KD_DOMAIN_GTT,
	KD_DOMAIN_USERPTR,
	KD_DOMAIN_DOORBELL,
	KD_DOMAIN_MMIO_REMAP,
};

/* The flags an SVM range starts with, before any SET_ATTR changes them
 * (kfd_svm.c, svm_range_set_default_attributes): host access, coherent. */
#define KD_SVM_FLAGS_DEFAULT                                                   \
	(KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT)

enum kd_domain kd_alloc_domain(uint32_t flags);
enum kd_gran kd_alloc_gran(uint32_t flags);
enum kd_gran kd_svm_gran(uint32_t flags);

/* "none"/"coarse"/"fine"; "invalid"/"vram"/...; NULL out of range. */
const char *kd_gran_name(enum kd_gran g);
const char *kd_domain_name(enum kd_domain d);

/*
 * Flags as "vram|coherent|writable": known bits by name in bit order, the
 * unknown ones together as one hex number last, "0" for none.  snprintf's
 * contract: returns the full length, NUL-terminates within cap.
 */
size_t kd_alloc_flag_names(uint32_t flags, char *buf, size_t cap);
size_t kd_svm_flag_names(uint32_t flags, char *buf, size_t cap);

/* KFD_IOCTL_SVM_ATTR_* as "preferred_loc", ...; NULL when unknown. */
const char *kd_svm_attr_name(uint32_t type);

#endif
