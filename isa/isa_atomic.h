/* SPDX-License-Identifier: MIT */
/*
 * What a hardware atomic the interpreter executes does on each product and
 * kind of memory: AMD's tables (isa_atab.h), asked in the terms the
 * interpreter knows.
 */
#ifndef ISA_ATOMIC_H
#define ISA_ATOMIC_H

#include "isa.h"
#include "isa_atab.h"

/* The memory, as the driver mapped it. */
enum isa_amem {
	ISA_M_COARSE,		/* coarse-grained, wherever it lives */
	ISA_M_FINE_DEVICE,	/* fine-grained device memory */
	ISA_M_FINE_HOST,	/* fine-grained system memory over the link */
};

/* The cell for operation op on memory mem of a GPU of family fam on a
 * machine with facts f.  A "cas" cell says the compiler would not emit the
 * instruction; one that runs anyway is judged by the compare-and-swap row
 * of its width, which is what its loop would be.  source may be NULL. */
enum isa_atab_cell isa_atomic_cell(enum isa_family fam, const struct isa_atab_facts *f,
				   enum isa_atab_op op, enum isa_amem mem,
				   enum isa_atab_scope scope, const char **source);

#endif
