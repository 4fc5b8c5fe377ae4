/* SPDX-License-Identifier: MIT */
#include "hg_text.h"

#include <string.h>

#define HG_TEXT_BASE 85
#define HG_TEXT_FIRST 40 /* '(': the 87 characters up to '~' ... */
#define HG_TEXT_SKIP1 63 /* ... but '?' and '\\', which babeltrace2's */
#define HG_TEXT_SKIP2 92 /* text output escapes */

static inline char hg_text_char(uint32_t d)
{
	return (char)(HG_TEXT_FIRST + d +
		      (d >= HG_TEXT_SKIP1 - HG_TEXT_FIRST) +
		      (d >= HG_TEXT_SKIP2 - HG_TEXT_FIRST - 1));
}

/* A character's digit, or HG_TEXT_BASE when it is none. */
static inline uint32_t hg_text_digit(char c)
{
	uint32_t u = (uint8_t)c;
	uint32_t d = u - HG_TEXT_FIRST - (u > HG_TEXT_SKIP1) - (u > HG_TEXT_SKIP2);

	return u == HG_TEXT_SKIP1 || u == HG_TEXT_SKIP2 || d >= HG_TEXT_BASE
		       ? HG_TEXT_BASE
		       : d;
}

/* v as m digits, most significant first. */
static void hg_text_put(uint32_t v, unsigned m, char *out)
{
	for (unsigned k = m; k-- > 0; v /= HG_TEXT_BASE)
		out[k] = hg_text_char(v % HG_TEXT_BASE);
}

size_t hg_text_encode(const uint8_t *b, size_t n, char *out)
{
	char *p = out;
	uint32_t v;

	for (; n >= 4; n -= 4, b += 4, p += 5) {
		memcpy(&v, b, 4);
		hg_text_put(v, 5, p);
	}
	if (n) {
		v = 0;
		memcpy(&v, b, n);
		hg_text_put(v, (unsigned)n + 1, p);
		p += n + 1;
	}
	*p = '\0';
	return (size_t)(p - out);
}

ptrdiff_t hg_text_size(size_t tlen)
{
	if (tlen % 5 == 1)
		return HG_TEXT_E_LENGTH;
	return (ptrdiff_t)(4 * (tlen / 5) + (tlen % 5 ? tlen % 5 - 1 : 0));
}

/* The value of m digits that are all in the alphabet. */
static inline uint64_t hg_text_value(const char *t, unsigned m)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < m; k++)
		v = v * HG_TEXT_BASE + hg_text_digit(t[k]);
	return v;
}

int hg_text_check(const char *t, size_t tlen, size_t *at)
{
	size_t i = 0;
	int err = HG_TEXT_OK;

	if (hg_text_size(tlen) < 0) {
		err = HG_TEXT_E_LENGTH;
		i = tlen;
	}
	for (; !err && i < tlen; i++)
		if (hg_text_digit(t[i]) == HG_TEXT_BASE)
			err = HG_TEXT_E_CHAR;
	/* Only a group's digits together say whether it overflows. */
	for (size_t g = 0; !err && g < tlen; g += 5) {
		unsigned m = tlen - g < 5 ? (unsigned)(tlen - g) : 5;

		if (hg_text_value(t + g, m) >> 8 * (m - 1)) {
			err = HG_TEXT_E_RANGE;
			i = g + 1;
		}
	}
	if (at)
		*at = err ? i - 1 : tlen;
	return err;
}

void hg_text_decode_at(const char *t, size_t tlen, size_t i, size_t n,
		       uint8_t *out)
{
	while (n) {
		size_t g = i / 4, skip = i % 4, c = 5 * g;
		unsigned m = tlen - c < 5 ? (unsigned)(tlen - c) : 5;
		uint32_t v = (uint32_t)hg_text_value(t + c, m);
		size_t k = (m - 1) - skip;

		if (k > n)
			k = n;
		for (size_t j = 0; j < k; j++)
			out[j] = (uint8_t)(v >> 8 * (skip + j));
		out += k, i += k, n -= k;
	}
}

ptrdiff_t hg_text_decode(const char *t, size_t tlen, uint8_t *out)
{
	ptrdiff_t n = hg_text_size(tlen);
	int err = hg_text_check(t, tlen, NULL);

	if (err)
		return err;
	hg_text_decode_at(t, tlen, 0, (size_t)n, out);
	return n;
}

const char *hg_text_strerror(int err)
{
	switch (err) {
	case HG_TEXT_OK:
		return "no fault";
	case HG_TEXT_E_LENGTH:
		return "a length no record's text has";
	case HG_TEXT_E_CHAR:
		return "a character out of its alphabet";
	case HG_TEXT_E_RANGE:
		return "a group wider than its bytes";
	}
	return "a fault";
}
