/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain dump --ctf OUTDIR`: the directory the decoded trace goes to,
 * and babeltrace2's sink.ctf.fs writing it.
 */
#ifndef CLI_CTF_H
#define CLI_CTF_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>

/* dir made, or found empty and writable; -1 after a one-line message. */
int cli_ctf_outdir(const char *dir);

/* sink.ctf.fs writing into dir (the trace itself when `single`, else one
 * directory per trace under it); 0 or -1. */
int cli_ctf_sink(bt_graph *g, const char *dir, bool single,
		 const bt_component_sink **sink);

#endif
