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

#endif
