/* SPDX-License-Identifier: MIT */
#include "an_link.h"

#include "vg_node.h"
#include "vg_profile.h"

bool an_link_cpu_xgmi(const struct an_proc *p)
{
	const struct vg_node *n = p->vgpu[0] ? vg_node_find(p->vgpu) : NULL;

	return n && n->gpu && n->gpu->cpu_xgmi;
}
