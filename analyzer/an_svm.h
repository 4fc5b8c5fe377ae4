/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory as the driver keeps it: ranges that do not overlap,
 * each with its flags and prefetch location.  An AMDKFD_IOC_SVM SET_ATTR
 * splits the ranges at its ends and changes those between; a range the
 * driver did not know yet starts with the driver's defaults.
 */
#ifndef AN_SVM_H
#define AN_SVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_svm_range {
	uint64_t lo, hi;
	uint32_t set, cleared; /* KFD_IOCTL_SVM_FLAG_*: as set, as cleared */
	uint32_t loc;	       /* the prefetch location: gpu id, 0 system */
	bool has_loc;
};

struct an_svm {
	struct an_svm_range *v;
	size_t n, cap;
};

/* A SET_ATTR's (type, value) pairs over [lo, hi); -1 out of memory. */
int an_svm_set(struct an_svm *s, uint64_t lo, uint64_t hi,
	       const uint32_t *attrs, size_t npairs);
/* Forgets [lo, hi): the memory was unmapped, and the driver's ranges with
 * it. */
int an_svm_drop(struct an_svm *s, uint64_t lo, uint64_t hi);
/* The first range that ends after lo (it may start past hi), or NULL. */
const struct an_svm_range *an_svm_from(const struct an_svm *s, uint64_t lo);
void an_svm_fini(struct an_svm *s);

#endif
