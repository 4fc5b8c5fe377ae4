/* SPDX-License-Identifier: MIT */
#ifndef AN_SOURCE_H
#define AN_SOURCE_H

#include <babeltrace2/babeltrace.h>
#include <stdio.h>

/* A source.ctf.fs named name on dir in g; NULL if it cannot start. */
const bt_component_source *an_add_source(bt_graph *g, const char *dir,
					 const char *name);
/* "hipgrain report: what: cause; cause" from libbabeltrace2's error. */
void an_print_bt_error(FILE *err, const char *what);
/* Says on err that the reader crashed on dir with signal sig. */
void an_reader_crashed(FILE *err, const char *dir, int sig);

#endif
