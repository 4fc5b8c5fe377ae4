/* SPDX-License-Identifier: MIT */
#ifndef AN_JSON_H
#define AN_JSON_H

#include <stdio.h>

#include "an_sym.h"

/* A JSON string; NULL writes "". */
void an_json_str(FILE *out, const char *s);
void an_json_frames(FILE *out, const struct an_frame *f, int n);

#endif
