/* SPDX-License-Identifier: MIT */
#include "hg_text.h"

#include <string.h>

#define HG_TEXT_BASE 85
#define HG_TEXT_NONE 0xff
#define HG_TEXT_FIRST 40 /* '(': the 87 characters up to '~' ... */
#define HG_TEXT_SKIP1 63 /* ... but '?' and '\\', which babeltrace2's */
#define HG_TEXT_SKIP2 92 /* text output escapes */

static inline char hg_text_char(uint32_t d)
{
	return (char)(HG_TEXT_FIRST + d +
		      (d >= HG_TEXT_SKIP1 - HG_TEXT_FIRST) +
		      (d >= HG_TEXT_SKIP2 - HG_TEXT_FIRST - 1));
}

/* Each character's digit, N for one out of the alphabet: the inverse of
 * hg_text_char (text-codec round-trips every digit through both).  A
 * digit is one load, and N's high bit marks a group that holds one. */
#define N 0xff
static const uint8_t hg_text_digits[256] = {
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, 0, 1, 2, 3, 4, 5, 6, 7,
	8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, N,
	23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
	39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, N, 51, 52, 53,
	54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69,
	70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
};
#undef N

static inline uint32_t hg_text_digit(char c)
{
	return hg_text_digits[(uint8_t)c];
}

/* The value of the 5 digits at t, or UINT64_MAX when one is none or the
 * value is wider than 32 bits: straight-line, the usual group. */
static inline uint64_t hg_text_five(const char *t)
{
	uint32_t d0 = hg_text_digit(t[0]), d1 = hg_text_digit(t[1]),
		 d2 = hg_text_digit(t[2]), d3 = hg_text_digit(t[3]),
		 d4 = hg_text_digit(t[4]);
	uint64_t v = (((d0 * 85ull + d1) * 85 + d2) * 85 + d3) * 85 + d4;

	return (d0 | d1 | d2 | d3 | d4) & 0x80 || v >> 32 ? UINT64_MAX : v;
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

/* The fault of the group of m characters at t, and *at where it is. */
static int hg_text_group(const char *t, unsigned m, size_t *at)
{
	uint64_t v = 0;

	if (m == 5 && hg_text_five(t) != UINT64_MAX)
		return HG_TEXT_OK;
	for (unsigned k = 0; k < m; k++) {
		uint32_t d = hg_text_digit(t[k]);

		if (d == HG_TEXT_NONE) {
			*at = k;
			return HG_TEXT_E_CHAR;
		}
		v = v * HG_TEXT_BASE + d;
	}
	*at = 0;
	return v >> 8 * (m - 1) ? HG_TEXT_E_RANGE : HG_TEXT_OK;
}

int hg_text_check(const char *t, size_t tlen, size_t *at)
{
	size_t g = 0, k = 0;
	int err = HG_TEXT_OK;

	if (hg_text_size(tlen) < 0) {
		err = HG_TEXT_E_LENGTH;
		g = tlen - 1;
	}
	for (; !err && g < tlen; g += 5)
		err = hg_text_group(t + g, tlen - g < 5 ? (unsigned)(tlen - g) : 5,
				    &k);
	if (at)
		*at = err ? (err == HG_TEXT_E_LENGTH ? g : g - 5 + k) : tlen;
	return err;
}

/* Bytes i to i + n, i a multiple of 4, the usual reading: a group at a
 * time.  Returns how many it left to the general loop (a last group's). */
static size_t hg_text_decode_groups(const char *t, size_t tlen, size_t i,
				    size_t n, uint8_t *out)
{
	for (t += i / 4 * 5; n >= 4 && tlen - i / 4 * 5 >= 5;
	     t += 5, i += 4, n -= 4, out += 4) {
		uint32_t v = (uint32_t)hg_text_five(t);

		memcpy(out, &v, 4);
	}
	return n;
}

void hg_text_decode_at(const char *t, size_t tlen, size_t i, size_t n,
		       uint8_t *out)
{
	if (!(i & 3)) {
		size_t left = hg_text_decode_groups(t, tlen, i, n, out);

		out += n - left, i += n - left, n = left;
	}
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

/* Checked as it is read, in one pass: a fault is looked for again only
 * once there is one, to say which. */
ptrdiff_t hg_text_decode(const char *t, size_t tlen, uint8_t *out)
{
	ptrdiff_t n = hg_text_size(tlen);
	size_t left = tlen, at;
	uint64_t v;

	if (n < 0)
		return n;
	for (; left >= 5; left -= 5, t += 5, out += 4) {
		v = hg_text_five(t);
		if (v == UINT64_MAX)
			return hg_text_check(t, left, NULL);
		memcpy(out, &v, 4);
	}
	if (left) {
		if (hg_text_group(t, (unsigned)left, &at))
			return hg_text_check(t, left, NULL);
		v = hg_text_value(t, (unsigned)left);
		memcpy(out, &v, left - 1);
	}
	return n;
}
