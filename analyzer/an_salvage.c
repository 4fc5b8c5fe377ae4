/* SPDX-License-Identifier: MIT */
#include "an_salvage.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_packets.h"
#include "an_probe.h"

#define AN_SALVAGE_PREFIX "/tmp/hipgrain-salvage-"
/* Where LTTng's packet sizes end: a content is never cut before. */
#define AN_SALVAGE_SIZES 64

static int an_link(const char *from_dir, const char *name, const char *to_dir)
{
	char src[PATH_MAX], dst[PATH_MAX], abs[PATH_MAX];

	snprintf(src, sizeof(src), "%s/%s", from_dir, name);
	snprintf(dst, sizeof(dst), "%s/%s", to_dir, name);
	if (!realpath(src, abs))
		return -1;
	return symlink(abs, dst);
}

/* Tries one stream file alone next to the metadata. */
static bool an_stream_ok(const char *dir, const char *name, FILE *err)
{
	char tmp[] = AN_SALVAGE_PREFIX "XXXXXX";
	bool ok;

	if (!mkdtemp(tmp))
		return false;
	ok = !an_link(dir, "metadata", tmp) && !an_link(dir, name, tmp) &&
	     an_probe(tmp, err);
	an_salvage_cleanup(tmp);
	return ok;
}

/* Copies the first len bytes of the file open at in to dst. */
static int an_copy_head_fd(int in, const char *dst, off_t len)
{
	int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	off_t at = 0;
	int rc = out < 0 ? -1 : 0;

	while (!rc && len > 0) {
		ssize_t n = sendfile(out, in, &at, (size_t)len);

		if (n <= 0)
			rc = -1;
		len -= n;
	}
	if (out >= 0)
		close(out);
	return rc;
}

static int an_copy_head(const char *src, const char *dst, off_t len)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	int rc = in < 0 ? -1 : an_copy_head_fd(in, dst, len);

	if (in >= 0)
		close(in);
	return rc;
}

static int an_patch_sizes(const char *path, uint64_t content, uint64_t packet)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc = fd < 0 || pwrite(fd, &content, 8, 48) != 8 ||
			 pwrite(fd, &packet, 8, 56) != 8
		 ? -1
		 : 0;

	if (fd >= 0)
		close(fd);
	return rc;
}

/* The first content length in [lo, hi) at which the stream reads cleanly,
 * trying at most AN_TRIM_SCAN lengths: each is a read of the stream, and a
 * damaged trace must not cost a read per byte. */
#define AN_TRIM_SCAN 32
static bool an_trim_scan(const char *dir, const char *dst, uint64_t bits,
			 uint64_t lo, uint64_t hi)
{
	uint64_t got;

	for (uint64_t c = lo; c < hi && c < lo + AN_TRIM_SCAN; c++)
		if (!an_patch_sizes(dst, c * 8, bits) && an_probe_count(dir, &got))
			return true;
	return false;
}

/*
 * The packet's content cut to end at a whole event.  A content that ends
 * inside an event makes babeltrace2 2.0 fail, and then abort in another
 * stream's next call with the failure still set; so the stream is read
 * alone first.  Ended at byte c, it yields the events begun before c, the
 * last one maybe partly: a count that only grows with c.  The smallest c
 * that yields as many as the whole cut packet lies one byte into the last
 * event begun, found in as many reads as the packet's size has bits.  The
 * content is then the first clean length shortly after it (that event
 * whole), or the byte before it (that event left out), or failing both the
 * packet context alone: the first clean length from the header on.
 */
static bool an_trim_content(const char *dir, const char *dst, uint64_t bits)
{
	uint64_t all, got, lo = AN_SALVAGE_SIZES, hi = bits / 8;

	if (an_probe_count(dir, &all))
		return true;
	while (all && lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (an_patch_sizes(dst, mid * 8, bits))
			return false;
		an_probe_count(dir, &got);
		if (got >= all)
			hi = mid;
		else
			lo = mid + 1;
	}
	return an_trim_scan(dir, dst, bits, lo, bits / 8) ||
	       (lo > AN_SALVAGE_SIZES && an_trim_scan(dir, dst, bits, lo - 1, lo)) ||
	       an_trim_scan(dir, dst, bits, AN_SALVAGE_SIZES, lo);
}

/* The first packet alone, cut short: its sizes shrunk to what is left, and
 * its content to the last whole event, so the reader takes the events
 * before the cut and stops there cleanly. */
static int an_copy_shrunk(const struct an_layout *l, int fd, off_t size,
			  const char *dir, const char *dst)
{
	struct an_pkt p;
	uint64_t bits = (uint64_t)size * 8;

	/* The sizes are patched where LTTng writes them, and nowhere else. */
	if (!an_lay_is_lttng(l) || an_copy_head_fd(fd, dst, size) ||
	    !an_pkt_read(l, fd, 0, INT64_MAX / 8, &p, NULL, 0))
		return -1;
	p.content_bits = p.content_bits < bits ? p.content_bits : bits;
	if (an_patch_sizes(dst, p.content_bits, bits))
		return -1;
	return an_trim_content(dir, dst, bits) ? 0 : -1;
}

/*
 * A stream cut short ends in a partial packet: keep the whole packets
 * before it (found by their headers, or for a foreign layout by cutting at
 * growing powers of two until the rest reads).
 */
static bool an_stream_head(const char *dir, const char *name, const char *to,
			   FILE *quiet)
{
	char src[PATH_MAX], dst[PATH_MAX], tmp[] = AN_SALVAGE_PREFIX "XXXXXX";
	struct stat st;
	struct an_layout l;
	bool ok = false, tail;
	off_t cut;
	int fd;

	snprintf(src, sizeof(src), "%s/%s", dir, name);
	if (stat(src, &st) || !mkdtemp(tmp) || an_link(dir, "metadata", tmp))
		return false;
	snprintf(dst, sizeof(dst), "%s/%s", tmp, name);
	fd = an_pkt_layout(dir, &l, NULL) > 0 ? open(src, O_RDONLY | O_CLOEXEC) : -1;
	cut = fd < 0 ? -1 : an_pkt_whole(&l, fd, st.st_size, &tail, NULL, 0);
	if (cut > 0)
		ok = !an_copy_head(src, dst, cut) && an_probe(tmp, quiet);
	else if (cut == 0 && tail)
		ok = !an_copy_shrunk(&l, fd, st.st_size, tmp, dst) &&
		     an_probe(tmp, quiet);
	if (fd >= 0)
		close(fd);
	for (int bits = 12; cut < 0 && bits < 31 && !ok; bits++) {
		off_t pow2 = st.st_size & ~(((off_t)1 << bits) - 1);

		if (!pow2)
			break;
		ok = !an_copy_head(src, dst, pow2) && an_probe(tmp, quiet);
	}
	if (ok) {
		snprintf(src, sizeof(src), "%s/%s", to, name);
		ok = !rename(dst, src);
	}
	an_salvage_cleanup(tmp);
	return ok;
}

int an_salvage(struct an_ctx *c, char **dir, FILE *err)
{
	char tmp[] = AN_SALVAGE_PREFIX "XXXXXX";
	FILE *quiet = fopen("/dev/null", "w");
	unsigned kept = 0, lost = 0;
	struct dirent *de;
	DIR *d = opendir(*dir);

	if (!d || !quiet || !mkdtemp(tmp) || an_link(*dir, "metadata", tmp)) {
		if (d)
			closedir(d);
		if (quiet)
			fclose(quiet);
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata") ||
		    !strcmp(de->d_name, "index"))
			continue;
		if (an_stream_ok(*dir, de->d_name, quiet) &&
		    !an_link(*dir, de->d_name, tmp))
			continue;
		lost++;
		kept += an_stream_head(*dir, de->d_name, tmp, quiet);
	}
	closedir(d);
	/* Nothing readable (bad metadata, every stream broken): no trace. */
	if (!lost || !an_probe(tmp, quiet)) {
		fclose(quiet);
		an_salvage_cleanup(tmp);
		return -1;
	}
	fclose(quiet);
	fprintf(err, "hipgrain report: %s: %u damaged stream file%s, %u read up "
		     "to the damage\n", *dir, lost, lost == 1 ? "" : "s", kept);
	an_warn(c, "%s: %u damaged stream file%s (%u read up to the damage): "
		   "the report is partial", *dir, lost, lost == 1 ? "" : "s", kept);
	c->partial = true;
	free(*dir);
	*dir = strdup(tmp);
	return *dir ? 0 : -1;
}

void an_salvage_cleanup(const char *dir)
{
	struct dirent *de;
	char path[PATH_MAX];
	DIR *d;

	if (strncmp(dir, AN_SALVAGE_PREFIX, strlen(AN_SALVAGE_PREFIX)))
		return;
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}
