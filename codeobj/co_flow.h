/* SPDX-License-Identifier: MIT */
/* Internal to codeobj: the argument dataflow (co_flow.c, co_flow_cfg.c). */
#ifndef CO_FLOW_H
#define CO_FLOW_H

#include "co_int.h"

#define CO_FLOW_NREG (128 + 256) /* s0..s127, then v0..v255 */

struct co_flow {
	enum isa_family fam;
	const struct co_kernel *k;
};

/* Register tags at the kernel's entry: the kernarg segment pointer. */
CO_HIDDEN void co_flow_entry(const struct co_flow *f, uint16_t *r);
/* Updates the tags in r by what one instruction writes. */
CO_HIDDEN void co_flow_step(const struct co_flow *f, uint16_t *r,
			    const struct isa_insn *in);
/* The argument a FLAT/GLOBAL atomic's address comes from, or -1. */
CO_HIDDEN int co_flow_atomic_arg(const uint16_t *r,
				 const struct isa_insn *in);

#endif
