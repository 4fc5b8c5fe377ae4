/* SPDX-License-Identifier: MIT */
#ifndef AN_JSON_H
#define AN_JSON_H

#include <stdio.h>

#include "an_state.h"
#include "hg_json.h"
#include "an_sym.h"

/* ,"driver":{...} when the driver saw the block (an_json_drv.c) */
void an_json_driver(FILE *out, const struct an_alloc *a);
/* ,"migrations":{...} when the driver moved some of it */
void an_json_migrations(FILE *out, const struct an_alloc *a);

#endif
