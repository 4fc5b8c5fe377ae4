/* SPDX-License-Identifier: MIT */
/*
 * The text form of the packed bytes (hg_text.h): random records of every
 * length read back as written, whole and from any byte on; the text is
 * printable and never holds a quote, a backslash, a question mark or a
 * NUL (babeltrace2's text output escapes them); and a text no
 * record has (a length, a character, a group out of range) is refused,
 * saying where, without reading past its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hg_text.h"

#define MAXN 1500

static int failed, n;

static void check(const char *what, int cond)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
	failed |= !cond;
}

/* A fixed sequence, so a failure comes back on the next run. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Random bytes, most of them small the way packed values are, some at
 * the extremes. */
static void fill(uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint32_t r = rng();

		b[i] = r % 4 == 0 ? 0xff : r % 4 == 1 ? 0 : (uint8_t)(r >> 8);
	}
}

static int printable(const char *t, size_t tlen)
{
	for (size_t i = 0; i < tlen; i++)
		if (t[i] <= ' ' || t[i] > '~' || t[i] == '"' || t[i] == '\\' ||
		    t[i] == '\'' || t[i] == '?')
			return 0;
	return t[tlen] == '\0';
}

/* One record through the codec: whole, and a byte range of it. */
static int round_trip(const uint8_t *b, size_t len)
{
	static char t[HG_TEXT_LEN(MAXN) + 1];
	static uint8_t back[MAXN + 1];
	size_t tlen = hg_text_encode(b, len, t), at, i, k;

	if (tlen != HG_TEXT_LEN(len) || strlen(t) != tlen ||
	    !printable(t, tlen) || hg_text_size(tlen) != (ptrdiff_t)len ||
	    hg_text_check(t, tlen, &at) || at != tlen)
		return 0;
	if (hg_text_decode(t, tlen, back) != (ptrdiff_t)len ||
	    memcmp(back, b, len))
		return 0;
	i = len ? rng() % len : 0;
	k = len - i ? rng() % (len - i) + 1 : 0;
	memset(back, 0xa5, sizeof(back));
	hg_text_decode_at(t, tlen, i, k, back);
	return !memcmp(back, b + i, k) && back[k] == 0xa5;
}

static void every_length(void)
{
	static uint8_t b[MAXN];
	int ok = 1;

	for (size_t len = 0; len <= MAXN; len++) {
		fill(b, len);
		ok &= round_trip(b, len);
		memset(b, len & 1 ? 0xff : 0, len);
		ok &= round_trip(b, len);
	}
	check("every length 0.." "1500 of random bytes, zeros and 0xff "
	      "round-trips, printable", ok);
}

static void many_records(void)
{
	uint8_t b[64];
	int ok = 1;

	for (int r = 0; r < 200000; r++) {
		size_t len = rng() % sizeof(b);

		fill(b, len);
		ok &= round_trip(b, len);
	}
	check("random records of up to 64 bytes round-trip", ok);
}

/* A damaged copy of a good text must be refused with err, at `want`. */
static int refused(const char *t, size_t tlen, int err, size_t want)
{
	char *c = malloc(tlen ? tlen : 1); /* exact: ASan sees an overread */
	uint8_t out[64];
	size_t at = 0;
	int rc;

	memcpy(c, t, tlen);
	rc = hg_text_check(c, tlen, &at) == err &&
	     hg_text_decode(c, tlen, out) == err && at == want;
	free(c);
	return rc;
}

static void malformed(void)
{
	const uint8_t rec[12] = {0x13, 1, 0, 0, 7, 0xff, 0xff, 0xff, 9, 8, 7, 6};
	char t[HG_TEXT_LEN(12) + 1], bad[sizeof(t)];
	size_t tlen = hg_text_encode(rec, sizeof(rec), t);
	const char nots[] = {' ', '"', '\\', '\'', '\0', '\n', '\x7f', '\x80',
			     '\xff', '&', '?', '!'};
	int ok = 1;

	for (size_t len = 0; len < tlen; len++)
		ok &= (len % 5 == 1) ==
		      refused(t, len, HG_TEXT_E_LENGTH, len ? len - 1 : 0);
	check("a text cut one past a group is refused, the others read", ok);
	ok = 1;
	for (size_t i = 0; i < sizeof(nots); i++) {
		memcpy(bad, t, sizeof(t));
		bad[i % tlen] = nots[i];
		ok &= refused(bad, tlen, HG_TEXT_E_CHAR, i % tlen);
	}
	check("a character out of the alphabet is refused where it is", ok);
	/* the largest digits: 85^5 - 1 is past 2^32 - 1 */
	memcpy(bad, t, sizeof(t));
	memset(bad + 5, '~', 5);
	ok = refused(bad, tlen, HG_TEXT_E_RANGE, 5);
	/* a last group of 2 digits holds one byte: 85^2 - 1 is past 255 */
	ok &= refused("~~", 2, HG_TEXT_E_RANGE, 0);
	check("a group wider than its bytes is refused", ok);
	ok = hg_text_check("", 0, NULL) == HG_TEXT_OK &&
	     hg_text_size(0) == 0 && hg_text_size(1) == HG_TEXT_E_LENGTH;
	check("the empty text is the empty record", ok);
}

int main(void)
{
	every_length();
	many_records();
	malformed();
	printf("1..%d\n", n);
	return failed;
}
