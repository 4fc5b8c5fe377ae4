/* SPDX-License-Identifier: MIT */
#include "hg_json.h"

#include <stdint.h>

int hg_utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4  ? 4
		: s[0] >= 0xe0		      ? 3
		: s[0] >= 0xc2 && s[0] < 0xe0 ? 2
					      : 0;
	uint32_t cp = s[0] & (0x7f >> n);

	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void hg_json_chars(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (s && *s) {
		int n;

		if (*s == '"' || *s == '\\') {
			fprintf(out, "\\%c", *s++);
		} else if (*s < 0x20 || *s == '<' || *s == '>' || *s == '&' ||
			   *s == 0x7f) {
			fprintf(out, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			fputc(*s++, out);
		} else if ((n = hg_utf8_len(s)) > 0) {
			fwrite(s, 1, (size_t)n, out);
			s += n;
		} else {
			fputs("\\ufffd", out);
			s++;
		}
	}
}

void hg_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	hg_json_chars(out, s);
	fputc('"', out);
}
