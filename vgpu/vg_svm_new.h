/* SPDX-License-Identifier: MIT */
/* The range the driver makes for a GPU fault on memory no range holds
 * (vg_svm_new.c). */
#ifndef VG_SVM_NEW_H
#define VG_SVM_NEW_H

#include <stdint.h>

/* The range around page, now held; -1 when the driver would make none. */
int vg_svm_new_range(uint64_t page);

#endif
