/* SPDX-License-Identifier: MIT */
#include "an_link.h"

#include "vg_node.h"

void an_link_facts(const struct an_proc *p, struct isa_atab_facts *out)
{
	vg_node_facts(p->vgpu, out);
}
