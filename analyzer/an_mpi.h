/* SPDX-License-Identifier: MIT */
/*
 * --mpi: the report under the job's own MPI.  Open MPI is found when asked
 * for (dlopen of libmpi.so.40, its C API through pointers), so hipgrain
 * builds and runs without it.  Every rank judges its share of the inputs
 * and sends the results to rank 0, which merges them as one process would
 * and writes the report.
 */
#ifndef AN_MPI_H
#define AN_MPI_H

#include <stdio.h>

#include "an_fate.h"
#include "an_tally.h"

/* MPI up; this process's rank (0 writes the report), or -1 said on err. */
int an_mpi_start(FILE *err);
void an_mpi_end(void);

/*
 * The inputs this rank found, judged: when every rank found the same
 * ones (a shared file system), round-robin over the ranks; else each node
 * judges those it holds, shared among its ranks, and rank 0 merges node
 * by node.  On rank 0 as an_judge_all; elsewhere 2 (nothing to write).
 */
int an_mpi_judge_all(struct an_tally *t, size_t n,
		     const struct an_fate *fates);

#endif
