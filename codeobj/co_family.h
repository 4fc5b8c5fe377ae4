/* SPDX-License-Identifier: MIT */
/*
 * Kernel families: a library instantiates one template for every type and
 * block size, and scan reports the template once, with what its instances
 * hold together.
 */
#ifndef CO_FAMILY_H
#define CO_FAMILY_H

#include <stddef.h>
#include <stdint.h>

/* What a family's instances hold, merged. */
struct co_family {
	uint32_t n; /* instances */
	uint32_t fp_count, int_count;
	char fp_mnemonics[256], int_mnemonics[256];
	char fp_sites[512], int_sites[512];
};

struct co_atomics;

/* The family's name in a demangled kernel name: the template's name,
 * "ns::bsrsv_lower_shared" of "void ns::bsrsv_lower_shared<...>(...)";
 * length 0 for a kernel that is no template instance (its own family). */
size_t co_family_name(const char *demangled, const char **start);
/* Adds an instance: its atomics, the integer ones only where they bite. */
void co_family_add(struct co_family *f, const struct co_atomics *a,
		   int int_bites);

#endif
