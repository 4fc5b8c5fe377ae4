/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain dump`'s sink: which decoded events a user asked for (--event,
 * --pid, --rank, --address) and each as a line of text or of JSON.
 */
#ifndef CLI_DUMP_H
#define CLI_DUMP_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hg_map.h"

#define CLI_DUMP_MAX_EVENTS 32

struct cli_dump {
	FILE *out;
	bool json;
	const char *events[CLI_DUMP_MAX_EVENTS]; /* fnmatch patterns */
	bool matched[CLI_DUMP_MAX_EVENTS];	 /* some event class has it */
	int nevents;
	bool all; /* LTTng's own events (statedump, dl) too */
	int64_t pid;	    /* -1: any */
	const char *rank;   /* NULL: any */
	bool has_address;
	uint64_t address;
	struct hg_map procs; /* (trace, vpid) → struct cli_dump_proc */
	uint64_t printed;
	bool have_origin;   /* origin_ns holds the first event's time */
	int64_t origin_ns;
};

/* One event message: printed when it passes the filters. */
void cli_dump_event(struct cli_dump *d, const bt_message *m);
/* A stream begins: the names its events can have, for --event's check. */
void cli_dump_stream(struct cli_dump *d, const bt_message *m);
/* The first --event NAME no event of the traces has, or NULL. */
const char *cli_dump_unmatched(const struct cli_dump *d);
void cli_dump_fini(struct cli_dump *d);

#endif
