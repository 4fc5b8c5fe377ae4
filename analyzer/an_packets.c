/* SPDX-License-Identifier: MIT */
#include "an_packets.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_tool.h"

#define AN_CTF_MAGIC 0xC1FC1FC1u

/* The bits to read for a packet's fields: the header and context, and the
 * fields themselves (a class with a shorter context may hold them). */
static uint32_t an_pkt_need(const struct an_layout *l)
{
	const struct an_lay_int *f[] = {&l->magic, &l->content, &l->packet};
	uint32_t need = l->min_bits;

	for (size_t i = 0; i < 3; i++)
		if (f[i]->bits && f[i]->off + f[i]->bits > need)
			need = f[i]->off + f[i]->bits;
	return need;
}

off_t an_pkt_head(const struct an_layout *l)
{
	return (off_t)((an_pkt_need(l) + 7) / 8);
}

__attribute__((format(printf, 3, 4))) static bool
an_pkt_why(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* The sizes of the packet whose fields are in b, and whether they are
 * sane; a packet without sizes is the rest of the file (rest bits). */
static bool an_pkt_sane(const struct an_layout *l, const unsigned char *b,
			uint64_t rest, struct an_pkt *p, char *why, size_t n)
{
	uint64_t magic = l->magic.bits ? an_lay_get(b, &l->magic) : AN_CTF_MAGIC;
	const char *size = l->packet.bits ? "packet_size" : "content_size";

	p->content_bits = l->content.bits ? an_lay_get(b, &l->content) : 0;
	p->packet_bits = l->packet.bits	   ? an_lay_get(b, &l->packet)
			 : l->content.bits ? p->content_bits
					   : rest;
	if (!l->content.bits)
		p->content_bits = p->packet_bits;
	if (l->magic.bits == 32 && magic != AN_CTF_MAGIC)
		return an_pkt_why(why, n, "packet header field magic is %#" PRIx64
				  ", not CTF's %#x", magic, AN_CTF_MAGIC);
	if (p->packet_bits % 8)
		return an_pkt_why(why, n, "packet context field %s is %" PRIu64
				  " bits, not whole bytes", size, p->packet_bits);
	if (p->packet_bits < l->min_bits || p->content_bits < l->min_bits)
		return an_pkt_why(why, n, "packet context field %s is %" PRIu64
				  " bits, less than the packet header and context's %u",
				  p->packet_bits < l->min_bits ? size : "content_size",
				  p->packet_bits < l->min_bits ? p->packet_bits
							       : p->content_bits,
				  l->min_bits);
	if (p->content_bits > p->packet_bits)
		return an_pkt_why(why, n, "packet context field content_size is %"
				  PRIu64 " bits, more than packet_size's %" PRIu64,
				  p->content_bits, p->packet_bits);
	return true;
}

bool an_pkt_read(const struct an_layout *l, int fd, off_t at, off_t size,
		 struct an_pkt *p, char *why, size_t n)
{
	unsigned char b[AN_PKT_MAX_HEAD];
	size_t len = (size_t)an_pkt_head(l);

	if (len > sizeof(b) || at + (off_t)len > size ||
	    pread(fd, b, len, at) != (ssize_t)len)
		return an_pkt_why(why, n, "a packet header cut short");
	return an_pkt_sane(l, b, (uint64_t)(size - at) * 8, p, why, n);
}

off_t an_pkt_whole(const struct an_layout *l, int fd, off_t size, bool *tail,
		   char *why, size_t n)
{
	off_t at = 0, head = an_pkt_head(l);
	struct an_pkt p;

	*tail = false;
	if (why)
		*why = 0;
	/* Each step moves on by a packet of at least its header, never 0:
	 * linear in the file. */
	while (at + head <= size && at < size) {
		if (!an_pkt_read(l, fd, at, size, &p, why, n))
			return at ? at : -1;
		if ((uint64_t)(size - at) < p.packet_bits / 8) {
			*tail = true;
			an_pkt_why(why, n, "packet context field packet_size is %"
				   PRIu64 " bits, %jd bytes past the end of the file",
				   p.packet_bits,
				   (intmax_t)(p.packet_bits / 8 - (uint64_t)(size - at)));
			break;
		}
		at += (off_t)(p.packet_bits / 8);
	}
	if (at < size && !*tail && why && !*why)
		an_pkt_why(why, n, "%jd bytes after the last packet, fewer than a "
			   "packet header's %jd", (intmax_t)(size - at), (intmax_t)head);
	return at;
}

/*
 * Whether the metadata names lttng-ust as its tracer: `tracer_name =
 * "lttng-ust";` in TSDL, `"tracer_name": "lttng-ust"` in CTF 2's JSON.
 * Packetized metadata split between the two words reads as foreign: the
 * check is then skipped, never wrongly applied.
 */
static bool an_pkt_says_ust(const char *buf, size_t len)
{
	static const char key[] = "tracer_name", val[] = "lttng-ust\"";
	const char *end = buf + len, *p = buf;

	while ((p = memmem(p, (size_t)(end - p), key, sizeof(key) - 1))) {
		p += sizeof(key) - 1;
		while (p < end && *p && strchr(" \t\n=:\"", *p))
			p++;
		if ((size_t)(end - p) >= sizeof(val) - 1 &&
		    !memcmp(p, val, sizeof(val) - 1))
			return true;
	}
	return false;
}

static bool an_pkt_lttng_ust(const char *dir)
{
	char path[PATH_MAX], *buf;
	struct stat st;
	bool yes = false;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	/* LTTng's metadata is a few hundred KB; 64 MB is damage or not ours. */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    st.st_size < (64 << 20) && (buf = malloc((size_t)st.st_size + 1))) {
		len = fread(buf, 1, (size_t)st.st_size, f);
		yes = an_pkt_says_ust(buf, len);
		free(buf);
	}
	fclose(f);
	return yes;
}

/*
 * Whether the file at path is tiled by its packets; where not, *cut and
 * why.  Only regular files are opened: a FIFO would block here.
 */
static bool an_pkt_file(const struct an_layout *l, const char *path,
			off_t *cut, off_t *size, char *why, size_t n)
{
	struct stat st;
	bool tail;
	int fd;

	*cut = *size = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return true; /* babeltrace says what is wrong with it */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return true;
	*size = st.st_size;
	*cut = an_pkt_whole(l, fd, st.st_size, &tail, why, n);
	close(fd);
	if (*cut < 0)
		*cut = 0; /* not even a first packet */
	return *cut == st.st_size;
}

int an_pkt_layout(const char *dir, struct an_layout *l, FILE *err)
{
	char why[256];

	switch (an_lay_read(dir, l, why, sizeof(why))) {
	case AN_LAY_OK:
		return 1;
	case AN_LAY_BAD:
		if (err)
			fprintf(err, "%s: %s: metadata: %s (its packets "
				     "cannot be checked)\n", an_tool, dir, why);
		return -1;
	default: /* CTF 2: LTTng's layout, which every LTTng-UST 2.x writes */
		if (!an_pkt_lttng_ust(dir))
			return 0;
		an_lay_lttng(l);
		return 1;
	}
}

bool an_pkt_dir(const char *dir, FILE *err)
{
	char path[PATH_MAX], why[256];
	struct an_layout l;
	struct dirent *de;
	DIR *d;
	bool ok = true;
	int rc = an_pkt_layout(dir, &l, err);

	if (rc <= 0)
		return rc == 0;
	d = opendir(dir);
	while (d && ok && (de = readdir(d))) {
		off_t cut, size;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata") ||
		    !strcmp(de->d_name, "index"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		ok = an_pkt_file(&l, path, &cut, &size, why, sizeof(why));
		if (!ok && err)
			fprintf(err, "%s: %s: stream file %s: no "
				     "whole packet at byte %jd of %jd (%s)\n",
				an_tool, dir, de->d_name, (intmax_t)cut, (intmax_t)size,
				*why ? why : "cut short or overwritten");
	}
	if (d)
		closedir(d);
	return ok;
}
