/* SPDX-License-Identifier: MIT */
/*
 * What a memory or cache instruction does to the lines a GPU's L2 holds of
 * coarse-grained memory, by product and by where the memory lives, as
 * LLVM's AMDGPUUsage memory model gives it.  One table: the virtual GPU
 * does what it says, and the analyzer judges by it, so a verdict and what
 * the virtual GPU ran never part.
 */
#ifndef ISA_COH_H
#define ISA_COH_H

#include <stdbool.h>

#include "isa.h"

enum isa_coh_op {
	ISA_COH_LOAD,	/* a load, with its cache-policy bits */
	ISA_COH_STORE,
	ISA_COH_INV,	/* gfx90a's buffer_invl2, gfx942's buffer_inv */
	ISA_COH_WB,	/* buffer_wbl2 */
};

enum isa_coh_mem {
	ISA_COH_HOST,	/* not local to the L2 (MTYPE NC): system memory, and
			 * a peer GPU's, which amdkfd maps NC too */
	ISA_COH_DEVICE,	/* the GPU's own memory (MTYPE RW) */
	ISA_COH_PROBED,	/* the same, where the CPU's accesses are coherent
			 * requests (xGMI to the CPU, or one package), which
			 * invalidate the L2's line they meet */
};

/* What the instruction does to coarse-grained lines. */
enum {
	ISA_COH_PAST = 1,	/* the access reaches memory, not the held line */
	ISA_COH_DROP = 2,	/* every held line is invalidated */
	ISA_COH_WRITEBACK = 4,	/* dirty held lines reach memory */
};

unsigned isa_coh(enum isa_family fam, enum isa_coh_mem mem, enum isa_coh_op op,
		 bool sc0, bool sc1);

/* Whether a system-scope use of op (its sc0 sc1 form on gfx942) lets the
 * host see, or be seen by, a kernel through coarse-grained memory of this
 * kind while it runs. */
bool isa_coh_exchanges(enum isa_family fam, enum isa_coh_mem mem, enum isa_coh_op op);

#endif
