/* SPDX-License-Identifier: MIT */
/* The fault path's lock across fork (vg_svm_fault.c). */
#ifndef VG_SVM_FAULT_H
#define VG_SVM_FAULT_H

void vg_svm_fault_fork(int phase);

#endif
