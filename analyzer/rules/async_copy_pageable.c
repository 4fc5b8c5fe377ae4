/* SPDX-License-Identifier: MIT */
/* hipMemcpyAsync from/to pageable memory: staged, no overlap (seed 002). */
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

enum { KIND_H2H = 0, KIND_H2D = 1, KIND_D2H = 2 };

/* Pageable: malloc/new, or untracked memory the copy kind says is host. */
static bool pageable(uint8_t mem, bool host_by_kind)
{
	return mem == HG_MEM_SYSTEM ||
	       (mem == HG_MEM_SYSTEM_UNTRACKED && host_by_kind);
}

/* At the copy's line (the call it is about), with the block's
 * allocation beside it. */
static void check(struct an_ctx *c, const struct an_rule *r,
		  const struct an_copy *o)
{
	struct an_call at = {o->callsite, o->api};
	bool src, dst;

	if (!o->async || o->memset)
		return;
	src = pageable(o->src_mem, o->kind == KIND_H2D || o->kind == KIND_H2H);
	dst = pageable(o->dst_mem, o->kind == KIND_D2H || o->kind == KIND_H2H);
	if (!src && !dst)
		return;
	an_find_at(c, r, AN_SEV_WARNING, o->proc, NULL,
		src ? o->src_alloc : o->dst_alloc, &at, NULL,
		"%s copies %zu bytes %s pageable host memory: the runtime "
		"stages it through a pinned buffer and the copy does not "
		"overlap with kernels",
		an_api_name(o->api), (size_t)o->size, src ? "from" : "to");
}

const struct an_rule an_rule_async_copy_pageable = {
	.id = "async-copy-pageable",
	.sev = AN_SEV_WARNING,
	.summary = "asynchronous copy from or to pageable memory",
	.fix = "allocate the host buffer with hipHostMalloc, or pin it with "
	       "hipHostRegister",
	.on_copy = check,
};
