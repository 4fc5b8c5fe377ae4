/* SPDX-License-Identifier: MIT */
/*
 * The rows of what the virtual GPU saw (an_observed.c) and moved
 * (an_traffic.c), shared with the trace results (an_result_more.c), which
 * copy them from one trace's state into the report's.
 */
#ifndef AN_ROWS_H
#define AN_ROWS_H

#include "an_state.h"

struct an_obs_kernel {
	struct an_proc *proc;
	char name[96];
	uint64_t ran, faulted;
};

struct an_obs_row {
	struct an_proc *proc;
	char kernel[96]; /* the symbol; "" when the image did not say */
	char op[32];
	uint64_t code_off, count;
	struct an_alloc alloc; /* a copy: the block may be freed later */
	bool has_alloc;
	bool joined; /* its finding took it as its trace arrived */
};

struct an_traffic_row {
	struct an_proc *proc;
	char kernel[96];	/* the symbol; "" when the image did not say */
	struct an_alloc alloc;	/* a copy: the block may be freed later */
	bool has_alloc;
	bool beyond;		/* some bytes lay past the block's end */
	uint64_t lo;		/* no allocation: the lowest byte seen */
	uint64_t read, written;
};

#endif
