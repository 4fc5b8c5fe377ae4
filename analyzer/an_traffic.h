/* SPDX-License-Identifier: MIT */
/*
 * What the virtual GPU saw each kernel read and write, by allocation (the
 * vgpu_traffic event), for the inventory.  Bytes no allocation of the
 * trace holds are kept too, by kernel: the inventory says them rather than
 * lose them.
 */
#ifndef AN_TRAFFIC_H
#define AN_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct an_ctx;
struct an_proc;
struct an_ev;

/* Distinct rows kept (process, allocation, kernel); the rest are summed. */
#define AN_TRAFFIC_ROWS 512


struct an_traffic_row;

struct an_traffic {
	struct an_traffic_row *rows;
	size_t nrows;
	/* Bytes of rows past AN_TRAFFIC_ROWS, and of those the device itself
	 * could not keep apart. */
	uint64_t more_read, more_written;
};

void an_on_vgpu_traffic(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
/* Inline, as an_observed_fini, so the state never calls into this file. */
static inline void an_traffic_fini(struct an_traffic *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}
/* The inventory's section; nothing when no kernel was seen to move a byte. */
void an_traffic_text(struct an_ctx *c, FILE *out);
void an_traffic_json(struct an_ctx *c, FILE *out);

#endif
