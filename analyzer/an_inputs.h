/* SPDX-License-Identifier: MIT */
/* Where the traces a report reads are, and how large. */
#ifndef AN_INPUTS_H
#define AN_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of dir's stream files (all but metadata and index/). */
uint64_t an_stream_bytes(const char *dir);

/* The summary `hipgrain run` leaves in a job's rank directory: the rank's
 * trace judged (an_result.h). */
#define AN_SUMMARY_FILE "hipgrain-run.hgsum"

/* Trace directories (holding a CTF `metadata` file) at or under path. */
int an_find_traces(const char *path, char ***dirs, size_t *n);
/* The same, and summaries: path itself when it is a file, and (when
 * summaries) a run's summary in place of the traces below it. */
int an_find_inputs(const char *path, bool summaries, char ***dirs,
		   size_t *n);

#endif
