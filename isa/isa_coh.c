/* SPDX-License-Identifier: MIT */
/*
 * The coherence of coarse-grained memory (isa_coh.h).  From AMDGPUUsage's
 * memory model:
 * - gfx908 has no instruction that reaches its L2: its acquire invalidates
 *   the vector L1 only, so nothing here is seen mid-kernel.
 * - gfx90a: buffer_invl2 invalidates the lines not local to the L2
 *   (system memory, MTYPE NC), buffer_wbl2 writes dirty lines back; a
 *   load's glc passes the vector L1 only.  Local memory (MTYPE RW) is not
 *   invalidated, and no host write probes it where the page is not
 *   coherent (coarse-grained).  The CPU's accesses over xGMI are
 *   coherent requests, which do invalidate it: on such a node the host
 *   and a kernel meet in device memory at any instruction.
 * - gfx942: buffer_inv with sc1 invalidates the L2's non-local lines (its
 *   XCDs each have an L2, so agent scope needs it too), buffer_wbl2 with
 *   sc1 writes back, and a load or store with sc0 and sc1 goes past the L2
 *   to system memory.
 */
#include "isa_coh.h"

unsigned isa_coh(enum isa_family fam, enum isa_coh_mem mem, enum isa_coh_op op,
		 bool sc0, bool sc1)
{
	if (op == ISA_COH_WB)
		return fam == ISA_GFX90A || (fam == ISA_GFX940 && sc1) ? ISA_COH_WRITEBACK : 0;
	if (mem == ISA_COH_PROBED)
		return fam == ISA_GFX90A || fam == ISA_GFX940 ? ISA_COH_PAST : 0;
	if (mem != ISA_COH_HOST)
		return 0;
	switch (fam) {
	case ISA_GFX90A:
		return op == ISA_COH_INV ? ISA_COH_DROP : 0;
	case ISA_GFX940:
		if (op == ISA_COH_INV)
			return sc1 ? ISA_COH_DROP : 0;
		return sc0 && sc1 ? ISA_COH_PAST : 0;
	default:
		return 0;
	}
}

bool isa_coh_exchanges(enum isa_family fam, enum isa_coh_mem mem, enum isa_coh_op op)
{
	return isa_coh(fam, mem, op, true, true) != 0;
}
