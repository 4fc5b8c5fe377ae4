/* SPDX-License-Identifier: MIT */
#ifndef AN_READER_H
#define AN_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "an_state.h"

/*
 * Reads the CTF traces in dirs into replay.  0: read (maybe partially: see
 * c->partial); 1: none of them could be read; -1: the reader failed.
 */
int an_read(struct an_ctx *c, char **dirs, size_t n, FILE *err);
/* "hipgrain report: what: cause; cause" from libbabeltrace2's error. */
void an_print_bt_error(FILE *err, const char *what);

/* Whether dir's source starts and has streams; says why not on err. */
bool an_probe(const char *dir, FILE *err);
/*
 * Reads every event of dir, counting them in *events: whether the read
 * ended cleanly.  The events before an error count, so a stream cut in an
 * event reads fewer events the earlier it is cut.
 */
bool an_probe_count(const char *dir, uint64_t *events);

#endif
