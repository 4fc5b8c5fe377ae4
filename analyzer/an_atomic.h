/* SPDX-License-Identifier: MIT */
/*
 * What an atomic does on some memory on some GPU and machine: AMD's tables
 * (isa/isa_atab.h, through codeobj/co_rules), in the terms the report uses.
 */
#ifndef AN_ATOMIC_H
#define AN_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
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

/* One atomic of a finding's list (an_finding.atomic_lines): its operation
 * ("max"; "" where the list names none) and kernel line ("hist.hip:17"). */
struct an_aline {
	char op[16];
	char at[96];
};

struct an_finding;

/* The next entry of a list, advancing *p; false at its end. */
bool an_atomic_line_next(const char **p, struct an_aline *e);
/* Keeps lines (co_sites_lines' form) on f, and its first line as
 * f->atomic_at; "" keeps what f had. */
void an_atomic_lines_set(struct an_finding *f, const char *lines);
/*
 * The list in a message's words.  With ops (the operations' names, "max,
 * or"): "(max, or) at hist.hip:17" when every atomic is at one line, else
 * "(max at hist.hip:17, or at hist.hip:18)"; without: " at a.hip:5" or
 * " at a.hip:5 and a.hip:7".  No line known: "(max, or)", or "".
 */
const char *an_atomic_lines_text(const char *lines, const char *ops,
				 char *buf, size_t cap);

#endif
