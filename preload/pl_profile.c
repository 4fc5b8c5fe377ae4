/* SPDX-License-Identifier: MIT */
/* Placeholder until the code-object reader lands: no layout, say so. */
#include <errno.h>

#include "hg_events.h"
#include "pl_profile.h"
#include "reg_emit.h"

void pl_profile_kernel(struct reg_kernel *k)
{
	struct hg_tp_kernel ev = {
		.handle = k->handle, .module = k->module,
		.name = k->name ? k->name : "", .target = "",
		.fp_mnemonics = "", .int_mnemonics = "", .status = -ENOSYS,
	};

	k->status = -ENOSYS;
	reg_emit_kernel(&ev);
}
