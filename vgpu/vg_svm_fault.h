/* SPDX-License-Identifier: MIT */
/* What the GPU's page table holds of the SVM ranges (vg_svm_fault.c), as
 * the attribute calls change it. */
#ifndef VG_SVM_FAULT_H
#define VG_SVM_FAULT_H

#include <stdint.h>

/* The GPU's page table holds [start, end) now. */
void vg_svm_fault_mapped(uint64_t start, uint64_t end);
/* The GPU's page table no longer holds [start, end). */
void vg_svm_fault_forget(uint64_t start, uint64_t end);
void vg_svm_fault_fork(int phase);

#endif
