/* SPDX-License-Identifier: MIT */
#include "an_link.h"

#include "vg_node.h"

bool an_link_cpu_xgmi(const struct an_proc *p)
{
	return vg_node_cpu_xgmi(p->vgpu);
}
