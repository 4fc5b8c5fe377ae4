/* SPDX-License-Identifier: MIT */
#include "an_packets.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define AN_CTF_MAGIC 0xC1FC1FC1u

bool an_pkt_read(int fd, off_t at, struct an_pkt *p)
{
	unsigned char b[AN_PKT_MIN];
	uint32_t magic;

	if (pread(fd, b, sizeof(b), at) != (ssize_t)sizeof(b))
		return false;
	memcpy(&magic, b, 4);
	memcpy(&p->content_bits, b + 48, 8);
	memcpy(&p->packet_bits, b + 56, 8);
	return magic == AN_CTF_MAGIC && p->packet_bits % 8 == 0 &&
	       p->packet_bits >= AN_PKT_MIN * 8 &&
	       p->content_bits <= p->packet_bits;
}

off_t an_pkt_whole(int fd, off_t size, bool *tail)
{
	struct an_pkt p;
	off_t at = 0;

	*tail = false;
	while (at + AN_PKT_MIN <= size) {
		if (!an_pkt_read(fd, at, &p))
			return at ? at : -1;
		if ((uint64_t)(size - at) < p.packet_bits / 8) {
			*tail = true;
			break;
		}
		at += (off_t)(p.packet_bits / 8);
	}
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
 * Whether the file at path is tiled by its packets; where not, *cut.  Only
 * regular files are opened: a FIFO would block here.
 */
static bool an_pkt_file(const char *path, off_t *cut, off_t *size)
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
	*cut = an_pkt_whole(fd, st.st_size, &tail);
	close(fd);
	if (*cut < 0)
		*cut = 0; /* not even a first packet */
	return *cut == st.st_size;
}

bool an_pkt_dir(const char *dir, FILE *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	bool ok = true;

	if (!an_pkt_lttng_ust(dir))
		return true;
	d = opendir(dir);
	while (d && ok && (de = readdir(d))) {
		off_t cut, size;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata") ||
		    !strcmp(de->d_name, "index"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		ok = an_pkt_file(path, &cut, &size);
		if (!ok)
			fprintf(err, "hipgrain report: %s: stream file %s: no "
				     "whole packet at byte %jd of %jd (cut short or "
				     "overwritten)\n",
				dir, de->d_name, (intmax_t)cut, (intmax_t)size);
	}
	if (d)
		closedir(d);
	return ok;
}
