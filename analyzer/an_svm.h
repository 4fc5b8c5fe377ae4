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
	/* The GPUs each access attribute last named, one bit a GPU (the
	 * caller's numbering): ACCESS, ACCESS_IN_PLACE, NO_ACCESS. */
	uint32_t access, in_place, no_access;
	uint32_t pref; /* the preferred location, as loc; if has_pref */
	bool has_loc, has_pref;
};

struct an_svm {
	struct an_svm_range *v;
	size_t n, cap;
};

/* A SET_ATTR's (type, value) pairs over [lo, hi), an access attribute's
 * value a GPU's bit; -1 out of memory. */
int an_svm_set(struct an_svm *s, uint64_t lo, uint64_t hi,
	       const uint32_t *attrs, size_t npairs);
/* Forgets [lo, hi): the memory was unmapped, and the driver's ranges with
 * it. */
int an_svm_drop(struct an_svm *s, uint64_t lo, uint64_t hi);
/* The first range that ends after lo (it may start past hi), or NULL. */
const struct an_svm_range *an_svm_from(const struct an_svm *s, uint64_t lo);
/* Whether the driver maps all of [lo, hi) for a GPU without XNACK: every
 * byte in a range an access attribute opened to some GPU (kfd_svm.c,
 * svm_range_validate_and_map; with XNACK off a range starts open to none). */
bool an_svm_gpu_mapped(const struct an_svm *s, uint64_t lo, uint64_t hi);
/* Whether some of [lo, hi) stays out of a GPU's memory when a GPU faults
 * on it under XNACK (kfd_svm.c, svm_range_best_restore_location): a range
 * preferring system memory, or one a GPU may access only in place or not
 * at all. */
bool an_svm_stays(const struct an_svm *s, uint64_t lo, uint64_t hi);
void an_svm_fini(struct an_svm *s);

#endif
