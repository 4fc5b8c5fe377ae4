/* SPDX-License-Identifier: MIT */
/*
 * The packed bytes of an alloc, a free or a launch (hg_pack.h) as text, so
 * that the provider writes them as one string field (schema 9).  A reader,
 * babeltrace2 first, pays per element of an integer array but reads a
 * string whole with one scan for its end; the text costs a quarter more
 * bytes than the record.
 *
 * Every 4 bytes, read as a little-endian 32-bit number, are 5 base-85
 * digits, most significant first; k trailing bytes (1 to 3) are k + 1
 * digits.  The digits are the characters from '(' to '~' but '?' and
 * '\\': printable ASCII with no space, quote, backslash or question mark,
 * so every LTTng tool and babeltrace2's text output prints it as it is
 * (babeltrace2 escapes those), and no NUL.
 * A text of every length but 1 more than a multiple of 5 is some record's;
 * each record has exactly one text, since a group whose value is out of
 * its bytes' range is rejected.
 */
#ifndef HG_TEXT_H
#define HG_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* The characters of n bytes' text, without its NUL. */
#define HG_TEXT_LEN(n) (5 * ((n) / 4) + ((n) % 4 ? (n) % 4 + 1 : 0))

enum hg_text_err {
	HG_TEXT_OK = 0,
	HG_TEXT_E_LENGTH = -1, /* no record's text is that long */
	HG_TEXT_E_CHAR = -2,   /* a character out of the alphabet */
	HG_TEXT_E_RANGE = -3,  /* a group's value wider than its bytes */
};

/* n bytes as text at out, with its NUL (HG_TEXT_LEN(n) + 1 chars);
 * returns its length. */
size_t hg_text_encode(const uint8_t *b, size_t n, char *out);

/* The bytes of a text of tlen characters, or HG_TEXT_E_LENGTH. */
ptrdiff_t hg_text_size(size_t tlen);

/* Whether the tlen characters at t are a record's text: HG_TEXT_OK or the
 * first fault found; *at, when set, says at which character. */
int hg_text_check(const char *t, size_t tlen, size_t *at);

/* Bytes i to i + n of a text that hg_text_check passed. */
void hg_text_decode_at(const char *t, size_t tlen, size_t i, size_t n,
		       uint8_t *out);

/* A text's bytes at out (hg_text_size of them), or its fault. */
ptrdiff_t hg_text_decode(const char *t, size_t tlen, uint8_t *out);

#endif
