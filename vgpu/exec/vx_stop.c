/* SPDX-License-Identifier: MIT */
/*
 * Why a dispatch stops, said once: the first reason a thread meets is the
 * one its result keeps, as the hardware reports the first fault of a
 * wave.  Every instruction family ends here, and nothing here calls back.
 */
#include <stdio.h>

#include "vx_int.h"

int vx_unknown(struct vx_wave *w, const struct isa_insn *in)
{
	struct vx_result *r = w->c->r;
	if (r->status != VX_DONE)
		return -1;
	r->status = VX_UNKNOWN;
	r->pc = w->pc;
	r->word = in->w0;
	const char *name = isa_name(w->c->dev->fam, in->fmt, in->op);
	if (name)
		snprintf(r->what, sizeof(r->what), "%s", name);
	else
		snprintf(r->what, sizeof(r->what), "%s opcode 0x%x", isa_fmt_name(in->fmt), in->op);
	return -1;
}

int vx_fault(struct vx_wave *w, uint64_t va, int write)
{
	struct vx_result *r = w->c->r;
	if (r->status == VX_DONE) {
		r->status = VX_FAULT;
		r->fault_va = va;
		r->fault_write = write;
		r->pc = w->pc;
	}
	return -1;
}
