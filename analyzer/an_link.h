/* SPDX-License-Identifier: MIT */
/*
 * What the machine a process ran on is, as far as the trace can say: the
 * facts AMD's atomics tables ask for.  A leaf the rules ask, apart from the
 * report's naming of GPUs (an_gpus.c), which calls back into what calls
 * the rules.
 */
#ifndef AN_LINK_H
#define AN_LINK_H

#include <stdbool.h>

#include "an_state.h"
#include "isa_atab.h"

/* p's machine facts: for the virtual GPU's products, as its topology wires
 * them (an MI250X on xGMI as the HPC systems built on it, an MI300A in the
 * CPU's package, the others on PCIe with AtomicOps); unknown for a real
 * GPU, whose links the trace does not record, and the table's lookup says
 * what it assumed. */
void an_link_facts(const struct an_proc *p, struct isa_atab_facts *out);

#endif
