/* SPDX-License-Identifier: MIT */
/*
 * What a hardware atomic does on each product and kind of memory: the one
 * table (isa_atomic.c) behind both what the virtual GPU executes and what
 * the report infers, each row with its source.
 */
#ifndef ISA_ATOMIC_H
#define ISA_ATOMIC_H

#include "isa.h"

/* The operation, as the tables class it. */
enum isa_aclass {
	ISA_A_INT_BASIC,	/* add, sub, swap, compare-swap */
	ISA_A_INT_OTHER,	/* min, max, and, or, xor, inc, dec */
	ISA_A_FP,		/* add_f32/f64, pk_add_f16/bf16, min/max_f64 */
};

/* The memory, as the driver mapped it. */
enum isa_amem {
	ISA_M_COARSE,		/* coarse-grained, wherever it lives */
	ISA_M_FINE_DEVICE,	/* fine-grained device memory */
	ISA_M_FINE_HOST,	/* fine-grained system memory over the link */
};

/* 1 when the atomic takes effect, 0 when the hardware drops it.
 * host_link_atomics: the CPU link carries all atomics (XGMI, an APU). */
int isa_atomic_lands(enum isa_family fam, enum isa_aclass op, enum isa_amem mem,
		     int host_link_atomics);
/* The row's source, for reports and the table's documentation. */
const char *isa_atomic_source(enum isa_family fam, enum isa_aclass op,
			      enum isa_amem mem);

#endif
