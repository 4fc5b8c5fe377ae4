/* SPDX-License-Identifier: MIT */
/*
 * JSON strings from untrusted bytes (trace strings, file names): always valid
 * JSON, whatever the input.  Bytes that are not UTF-8 become U+FFFD, and
 * <, >, & are escaped too, so the string is safe inside an HTML <script>.
 */
#ifndef HG_JSON_H
#define HG_JSON_H

#include <stdio.h>

/* Writes s as a quoted JSON string; NULL writes "". */
void hg_json_str(FILE *out, const char *s);
/* The same without the quotes. */
void hg_json_chars(FILE *out, const char *s);

/* Length of the well-formed UTF-8 sequence at s, 0 if it is not one (and
 * for bytes below 0x80). */
int hg_utf8_len(const unsigned char *s);

#endif
