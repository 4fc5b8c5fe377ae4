/* SPDX-License-Identifier: MIT */
/*
 * What a verdict rests on: the facts of the machine a process ran on,
 * each with where it came from.  The trace's own record of the driver's
 * topology (kfd_node events) first; for a virtual GPU, its variant; else
 * what hipgrain assumed, which the report says.  A leaf the rules ask,
 * apart from the report's naming of GPUs (an_gpus.c).
 */
#ifndef AN_LINK_H
#define AN_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include "an_state.h"
#include "isa_atab.h"

/* The columns of AMD's atomics tables. */
enum an_column {
	AN_COL_UNKNOWN,
	AN_COL_MI100,
	AN_COL_MI200_PCIE,
	AN_COL_MI200_AA, /* GPU and CPU joined by xGMI */
	AN_COL_MI300X,
	AN_COL_MI300A,
};

enum an_cpu_link { AN_LINK_UNKNOWN, AN_LINK_PCIE, AN_LINK_XGMI };

/* A fact that is yes, no, or not known. */
enum an_tri { AN_TRI_UNKNOWN, AN_TRI_NO, AN_TRI_YES };

/* Where a fact came from. */
enum an_src {
	AN_SRC_ASSUMED, /* nothing in the trace says: hipgrain's default */
	AN_SRC_TRACE,	/* the driver's own word, recorded at the run */
	AN_SRC_VGPU,	/* the virtual GPU's variant: a model */
};

struct an_machine {
	enum an_column column;
	enum an_cpu_link link;
	enum an_tri pcie_atomics; /* meaningful over PCIe only */
	enum an_tri xnack, apu;
	enum an_src column_src, link_src, atomics_src, xnack_src, apu_src;
	char product[24]; /* MI250X, or "" where nothing names it */
	char arch[24];	  /* gfx90a, or "" */
	char vgpu[48];	  /* the virtual GPU's spec, "" on hardware */
};

/* The facts of p's GPU (its first GPU of the process's target). */
void an_link_facts(const struct an_proc *p, struct an_machine *m);
/* "MI200 PCIe", ...; "" for AN_COL_UNKNOWN. */
const char *an_column_name(enum an_column c);
const char *an_src_name(enum an_src s);
/* One line: "judged for MI250X (gfx90a), CPU link xGMI, PCIe AtomicOps
 * n/a, XNACK off, from the trace", the sources named where they differ. */
const char *an_link_text(const struct an_machine *m, char *buf, size_t cap);

/* A virtual GPU's spec with the conditions its model holds: "MI210
 * (PCIe, AtomicOps, XNACK off)"; the spec alone where it does not parse. */
const char *an_link_vgpu_text(const char *spec, char *buf, size_t cap);

/* Whether p's GPUs reach the CPU over Infinity Fabric (xGMI), not PCIe,
 * by the facts above: false where not known. */
bool an_link_cpu_xgmi(const struct an_proc *p);

/* The same facts as AMD's atomics tables ask them (isa_atab.h), those
 * hipgrain only assumed left unknown for the lookup to name. */
void an_link_atab_facts(const struct an_proc *p, struct isa_atab_facts *out);

#endif
