/* SPDX-License-Identifier: MIT */
/*
 * The KFD driver's user interface: the system's <linux/kfd_ioctl.h> (Debian
 * 12 ships Linux 6.1's), completed with what newer kernels added.  Each value
 * below is the one the named uapi constant has upstream; the #ifndef lets a
 * newer header win.
 */
#ifndef KD_UAPI_H
#define KD_UAPI_H

#include <linux/kfd_ioctl.h>

/* Allocation flags after 6.1: EXT_COHERENT (coherent for device-scope
 * atomics too) and CONTIGUOUS (KFD ioctl 1.16, first spelt
 * CONTIGUOUS_BEST_EFFORT). */
#ifndef KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT
#define KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT (1u << 24)
#endif
#ifndef KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS
#define KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS (1u << 23)
#endif

/* SVM flag of the same meaning for ranges (KFD_IOCTL_SVM_FLAG_EXT_COHERENT). */
#ifndef KFD_IOCTL_SVM_FLAG_EXT_COHERENT
#define KFD_IOCTL_SVM_FLAG_EXT_COHERENT 0x00000080
#endif

/* SMI events are enum constants, which #ifndef cannot see, so the ones the
 * 6.1 header lacks carry their upstream values under our prefix:
 * KFD_SMI_EVENT_PROCESS_START and KFD_SMI_EVENT_PROCESS_END (Linux 6.16). */
#define KD_SMI_EVENT_PROCESS_START 12
#define KD_SMI_EVENT_PROCESS_END   13

#endif
