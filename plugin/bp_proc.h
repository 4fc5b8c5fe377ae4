/* SPDX-License-Identifier: MIT */
/*
 * What the decoder must remember of each process to decode its events
 * whole: the heads its launches refer to, and the address and size of
 * its live blocks, which a free and a resolved pointer leave to the
 * block's alloc (hipgrain-events(7), WORDS), and of the blocks it freed
 * last, for a launch written after another thread freed its block.
 */
#ifndef BP_PROC_H
#define BP_PROC_H

#include <stdbool.h>
#include <stdint.h>

#include "hg_map.h"
#include "dec_freed.h"
#include "dec_pack.h"

struct bp_block {
	uint64_t addr, size;
};

struct bp_proc {
	struct hg_map heads;  /* number → struct dec_launch (its head) */
	struct hg_map blocks; /* alloc id → struct bp_block */
	struct dec_freed_ring freed;
};

struct bp_procs {
	struct hg_map traces; /* trace → struct hg_map of vpid → bp_proc */
};

/* The process vpid of trace, made at first sight; NULL if out of memory. */
struct bp_proc *bp_proc_get(struct bp_procs *ps, const void *trace,
			    int64_t vpid);
/* A head declared (its number: l->head_id); 0 or -1. */
int bp_proc_head(struct bp_proc *p, const struct dec_launch *l);
/* A block allocated, or freed; 0 or -1. */
int bp_proc_alloc(struct bp_proc *p, uint64_t id, uint64_t addr,
		  uint64_t size);
void bp_proc_free(struct bp_proc *p, uint64_t id);
/* Block id, live or freed lately, into *b; false if none is known. */
bool bp_proc_block(const struct bp_proc *p, uint64_t id, struct bp_block *b);
void bp_procs_fini(struct bp_procs *ps);

#endif
