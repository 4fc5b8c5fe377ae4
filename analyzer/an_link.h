/* SPDX-License-Identifier: MIT */
/*
 * How a process's GPU reaches its CPU, where the trace can say: a leaf the
 * rules ask, apart from the report's naming of GPUs (an_gpus.c), which
 * calls back into what calls the rules.
 */
#ifndef AN_LINK_H
#define AN_LINK_H

#include <stdbool.h>

#include "an_state.h"

/* Whether p's GPUs reach the CPU over Infinity Fabric (xGMI), not PCIe:
 * known for the virtual GPU's products, as its topology wires them (an
 * MI250X as the HPC systems built on it, an MI300A in the CPU's package);
 * false where the trace cannot say (a real GPU: its links are not
 * recorded). */
bool an_link_cpu_xgmi(const struct an_proc *p);

#endif
