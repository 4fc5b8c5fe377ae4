/* SPDX-License-Identifier: MIT */
/*
 * What an atomic does on some memory on some GPU and machine: AMD's tables
 * (isa/isa_atab.h, through codeobj/co_rules), in the terms the report uses.
 */
#ifndef AN_ATOMIC_H
#define AN_ATOMIC_H

#include <stdint.h>

#include "isa_atab.h"

enum an_atomic_effect {
	AN_ATOMIC_OK,
	AN_ATOMIC_UNKNOWN,	  /* arch or memory not covered: no claim */
	AN_ATOMIC_NOP,		  /* silently does nothing */
	AN_ATOMIC_NOP_OVER_PCIE,  /* NOP over PCIe, works over Infinity Fabric */
	AN_ATOMIC_SCOPE_DOWNGRADE, /* system scope becomes device scope */
};

/* arch: "gfx90a:sramecc+:xnack-" or "gfx90a"; f: the machine (an_link.h);
 * aops: enum hg_aop bits. */
enum an_atomic_effect an_atomic_effect(const char *arch, const struct isa_atab_facts *f,
				       uint32_t aops, uint8_t mem, uint8_t gran);

/* Of the integer operations aops, those the machine drops (NOP) on this
 * memory: 0 when none. */
uint32_t an_atomic_dropped(const char *arch, const struct isa_atab_facts *f,
			   uint32_t aops, uint8_t mem, uint8_t gran);

#endif
