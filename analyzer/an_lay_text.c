/* SPDX-License-Identifier: MIT */
/* The metadata's TSDL, for an_layout.c: read whole, unpacketized. */
#include "an_lay_text.h"

#include <byteswap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define AN_LT_MAGIC 0x75d11d57u
#define AN_LT_HDR 37 /* a metadata packet's header */
/* LTTng's metadata is a few hundred KB; 64 MB is damage or not ours. */
#define AN_LT_MAX (64 << 20)

static uint32_t an_lt_u32(const char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

/* The packets' contents moved to the front of buf, in place. */
static size_t an_lt_join(char *buf, size_t size, bool swap)
{
	size_t off = 0, out = 0;

	while (size - off >= AN_LT_HDR) {
		uint64_t content = an_lt_u32(buf + off + 24, swap) / 8,
			 packet = an_lt_u32(buf + off + 28, swap) / 8;

		/* an_meta.c refuses such packets; stop rather than loop. */
		if (content < AN_LT_HDR || packet < content || content > size - off)
			break;
		memmove(buf + out, buf + off + AN_LT_HDR, content - AN_LT_HDR);
		out += content - AN_LT_HDR;
		off += packet < size - off ? packet : size - off;
	}
	return out;
}

static enum an_lay_status an_lt_load(FILE *f, char **text, size_t *len,
				     char *why, size_t n)
{
	struct stat st;
	char *buf;
	bool swap;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))
		return AN_LAY_FOREIGN;
	if (st.st_size > AN_LT_MAX) {
		snprintf(why, n, "metadata of %jd bytes (more than %d MB)",
			 (intmax_t)st.st_size, AN_LT_MAX >> 20);
		return AN_LAY_BAD;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(why, n, "out of memory");
		return AN_LAY_BAD;
	}
	*len = fread(buf, 1, (size_t)st.st_size, f);
	swap = *len >= 4 && an_lt_u32(buf, true) == AN_LT_MAGIC;
	if (*len >= 4 && (swap || an_lt_u32(buf, false) == AN_LT_MAGIC))
		*len = an_lt_join(buf, *len, swap);
	buf[*len] = 0;
	*text = buf;
	return AN_LAY_OK;
}

enum an_lay_status an_lay_text(const char *dir, char **text, size_t *len,
			       char *why, size_t n)
{
	char path[4200];
	enum an_lay_status st;
	size_t i = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "rbe");
	if (!f)
		return AN_LAY_FOREIGN;
	st = an_lt_load(f, text, len, why, n);
	fclose(f);
	if (st != AN_LAY_OK)
		return st;
	while (i < *len && strchr(" \t\r\n", (*text)[i]) && (*text)[i])
		i++;
	/* CTF 2: JSON fragments, each after a record separator. */
	if (i < *len && ((*text)[i] == 0x1e || (*text)[i] == '{')) {
		free(*text);
		return AN_LAY_FOREIGN;
	}
	return AN_LAY_OK;
}
