/* SPDX-License-Identifier: MIT */
#include "reg_recent.h"

#include <string.h>

/*
 * The ranges a thread found lately, of one granularity throughout: a
 * launch's pointers are mostly the ones before, and finding them again
 * under the lock costs more than the rest of the launch.  They hold while
 * `reg_recent_epoch` has not moved; it moves when a range goes away or
 * changes (not when one is added: a found range stays what it was).  The
 * thread that moves it keeps its own, less what it changed, if nobody else
 * moved it since (reg_dev.c): a loop that allocates and frees a temporary
 * keeps finding its other buffers here.
 */
atomic_uint_fast64_t reg_recent_epoch = 1;
__thread struct reg_recent reg_recent __attribute__((tls_model("initial-exec")));

void reg_recent_reset(uint64_t e)
{
	memset(reg_recent.len, 0, sizeof(reg_recent.len));
	reg_recent.top = reg_recent.hole = 0;
	reg_recent.epoch = e;
}

int reg_recent_scan(uintptr_t p)
{
	unsigned h = reg_recent_seen_slot(p);

	for (int c = 0; c < (int)reg_recent.top; c++)
		if (p - reg_recent.base[c] < reg_recent.len[c]) {
			reg_recent.seen[h] = p;
			reg_recent.seen_at[h] = (uint8_t)c;
			return c;
		}
	return -1;
}
