/* SPDX-License-Identifier: MIT */
#ifndef AN_LAY_TEXT_H
#define AN_LAY_TEXT_H

#include <stddef.h>

#include "an_layout.h"

/*
 * dir/metadata as TSDL text in *text (malloc'd, len bytes), packetized
 * metadata's packets joined: AN_LAY_OK; AN_LAY_FOREIGN for CTF 2's JSON
 * (or no metadata: babeltrace says what is wrong); AN_LAY_BAD with why.
 */
enum an_lay_status an_lay_text(const char *dir, char **text, size_t *len,
			       char *why, size_t n);

#endif
