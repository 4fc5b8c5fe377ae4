/* SPDX-License-Identifier: MIT */
/* Which virtual products the ROCm runtime here can drive (cli_known.c). */
#ifndef CLI_KNOWN_H
#define CLI_KNOWN_H

#include <stddef.h>
#include <stdio.h>

struct vg_node;
struct vg_profile;

/* "yes" when the runtime here knows p's target, "no" when it does not,
 * "?" when no runtime is found or it cannot be read. */
const char *cli_known_mark(const struct vg_profile *p);
/* The runtime's path and release and the products it can drive, and why
 * not the others: a line or two for --help and the list. */
void cli_known_note(FILE *f);
/* 1 with why (one sentence) when the runtime here cannot drive machine
 * n; 0 when it can or cannot be read. */
int cli_known_check(const struct vg_node *n, char *why, size_t cap);

#endif
