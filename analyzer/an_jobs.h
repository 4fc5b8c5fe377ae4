/* SPDX-License-Identifier: MIT */
/* Every input of a report judged (here, by -j N forked workers, or by
 * MPI ranks) and merged in input order. */
#ifndef AN_JOBS_H
#define AN_JOBS_H

#include "an_judge.h"
#include "an_tally.h"

/*
 * Every input judged (o->jobs at once) and merged into c in their order.
 * 0: some trace was read; 1: none could be; -1: a summary was damaged or
 * the workers failed (said on err); 2: under --mpi, a rank other than 0,
 * whose results went to rank 0.
 */
int an_judge_all(struct an_ctx *c, char **inputs, size_t n,
		 const struct an_fate *fates, FILE *err);


#endif
