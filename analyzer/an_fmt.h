/* SPDX-License-Identifier: MIT */
/* Formatting the writers share (an_fmt.c); an_sev_name is in an.h. */
#ifndef AN_FMT_H
#define AN_FMT_H

#include <stdint.h>
#include <stdio.h>

#include "an_sym.h"

/* "16.0 KiB": bytes for people. */
void an_bytes_text(uint64_t b, char *buf, size_t cap);
/*
 * Text from the trace (file, kernel and process names) into HTML: every
 * markup character escaped, bytes that are not UTF-8 replaced, so a hostile
 * trace cannot add elements or scripts to the page.
 */
void an_html_esc(FILE *out, const char *s);
/* [{...},...] every frame, as JSON */
void an_json_frames(FILE *out, const struct an_frame *f, int n);
/* ,"site":{...} the frame the text report names (the user's), or null */
void an_json_site(FILE *out, const struct an_frame *f, int n);

#endif
