/* SPDX-License-Identifier: MIT */
/*
 * Packetized CTF metadata, checked before libbabeltrace2 sees it.
 *
 * babeltrace2 2.0's metadata decoder reads a packet's content_size bytes in
 * a loop that never tests for end of file: a metadata file cut short, or a
 * packet header whose content_size claims more than the file holds, makes
 * it spin forever.  We walk the packet headers ourselves and refuse such a
 * file with a message that says where it breaks.  Plain-text metadata (no
 * packet magic) is left to the TSDL parser, which fails cleanly.
 */
#include "an_meta.h"

#include <byteswap.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "an_packets.h"
#include "an_tool.h"

#define AN_META_MAGIC 0x75d11d57u
#define AN_META_HDR                                                            \
	37 /* magic, uuid[16], checksum, content, packet sizes, 5 bytes */

struct an_meta_hdr {
	uint32_t content_bits, packet_bits;
};

static uint32_t an_meta_u32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

/* 1: a packet header read; 0: end of file; -1: a header cut short. */
static int an_meta_next(FILE *f, bool swap, struct an_meta_hdr *h)
{
	unsigned char b[AN_META_HDR];
	size_t n = fread(b, 1, sizeof(b), f);

	if (n == 0)
		return 0;
	if (n < sizeof(b))
		return -1;
	h->content_bits = an_meta_u32(b + 24, swap);
	h->packet_bits = an_meta_u32(b + 28, swap);
	return 1;
}

/* Whether the file starts with the packet magic, and in which byte order. */
static bool an_meta_packetized(FILE *f, bool *swap)
{
	unsigned char b[4];

	if (fread(b, 1, 4, f) != 4 || fseek(f, 0, SEEK_SET))
		return false;
	*swap = an_meta_u32(b, false) != AN_META_MAGIC;
	return an_meta_u32(b, *swap) == AN_META_MAGIC;
}

static bool an_meta_walk(FILE *f, bool swap, const char *path, FILE *err)
{
	struct an_meta_hdr h;
	long off = 0, size;
	int rc;

	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		return true; /* not seekable: let the reader try */
	for (unsigned i = 0; (rc = an_meta_next(f, swap, &h)) > 0; i++) {
		long content = h.content_bits / 8, packet = h.packet_bits / 8;
		const char *why = NULL;

		if (content < AN_META_HDR)
			why = "content size smaller than its header";
		else if (packet < content)
			why = "packet size smaller than its content";
		else if (content > size - off)
			why = "content runs past the end of the file";
		if (why) {
			fprintf(err,
				"%s: %s: damaged metadata: packet "
				"%u at byte %ld: %s (%ld bytes, %ld left)\n",
				an_tool, path, i, off, why, content, size - off);
			return false;
		}
		/* The last packet's padding may be missing: only content
		 * counts. */
		off += packet < size - off ? packet : size - off;
		if (fseek(f, off, SEEK_SET))
			return true;
	}
	/* A header cut short at the end is where babeltrace stops, cleanly. */
	return true;
}

bool an_meta_ok(const char *dir, FILE *err)
{
	char path[4200];
	bool swap, ok = true;
	struct an_layout l;
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(err, "%s: %s: %s\n", an_tool, path,
			strerror(errno));
		return false;
	}
	if (an_meta_packetized(f, &swap))
		ok = an_meta_walk(f, swap, path, err);
	fclose(f);
	/* Packets no walk can check are left to no reader. */
	return ok && an_pkt_layout(dir, &l, err) >= 0;
}
