/* SPDX-License-Identifier: MIT */
#ifndef AN_TOOL_H
#define AN_TOOL_H

/*
 * The command the trace checks' messages name: "hipgrain report" unless
 * the command running them (dump) says otherwise.
 */
extern const char *an_tool;

#endif
