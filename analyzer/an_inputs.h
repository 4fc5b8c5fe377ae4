/* SPDX-License-Identifier: MIT */
/* Where the traces a report reads are, and how large. */
#ifndef AN_INPUTS_H
#define AN_INPUTS_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of dir's stream files (all but metadata and index/). */
uint64_t an_stream_bytes(const char *dir);

/* Trace directories (holding a CTF `metadata` file) at or under path. */
int an_find_traces(const char *path, char ***dirs, size_t *n);

#endif
