/* SPDX-License-Identifier: MIT */
#ifndef PL_WARN_H
#define PL_WARN_H

#include <stdint.h>

#include "reg.h"

/* Whether any argument of a launch of k could be warned about: checked
 * once per launch, not once per argument (a written launch's path). */
int pl_warn_wanted(const struct reg_kernel *k);
/* The online warning for one resolved pointer argument of a launch. */
void pl_warn_launch(const struct reg_kernel *k, int arg, uint64_t id,
		    uint8_t mem, uint8_t gran);

/* The online warning for advice or a prefetch, before the real call: a
 * refused prefetch aborts ROCm builds with assertions inside it. */
void pl_warn_range(const struct hg_tp_range_op *op);

#endif
