/* SPDX-License-Identifier: MIT */
#ifndef AN_JSON_H
#define AN_JSON_H

#include <stdio.h>

#include "an_state.h"
#include "hg_json.h"
#include "an_sym.h"

void an_json_frames(FILE *out, const struct an_frame *f, int n);
/* ,"site":{...} the frame the text report names (the user's), or null */
void an_json_site(FILE *out, const struct an_frame *f, int n);
/* ,"driver":{...} when the driver saw the block (an_json_drv.c) */
void an_json_driver(FILE *out, const struct an_alloc *a);
/* ,"migrations":{...} when the driver moved some of it */
void an_json_migrations(FILE *out, const struct an_alloc *a);

#endif
