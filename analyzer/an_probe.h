/* SPDX-License-Identifier: MIT */
#ifndef AN_PROBE_H
#define AN_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Whether dir's source starts and has streams; says why not on err. */
bool an_probe(const char *dir, FILE *err);
/*
 * Reads every event of dir, counting them in *events: whether the read
 * ended cleanly.  The events before an error count, so a stream cut in an
 * event reads fewer events the earlier it is cut.
 */
bool an_probe_count(const char *dir, uint64_t *events);

#endif
