/* SPDX-License-Identifier: MIT */
/*
 * Where a CTF 1.8 trace's packets say their sizes, as its own metadata lays
 * them out.  The stream files' packet headers are walked with it before
 * babeltrace sees them (an_packets.c): babeltrace2 2.1's source indexes a
 * stream file by its packets' packet_size, trusting it, and one of 0 keeps
 * it appending the same packet to its index until memory runs out.  Where
 * packet_size sits depends on the metadata (a uint64_t declared 28 bits
 * wide moves every field after it), so a walk that assumed LTTng's layout
 * would read other bytes than babeltrace reads.
 */
#ifndef AN_LAYOUT_H
#define AN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* LTTng's header and context hold 84 bytes; 16 KiB is damage. */
#define AN_LAY_MAX_BITS (16384u * 8)

/* One integer field of the packet header or context. */
struct an_lay_int {
	uint32_t off, bits; /* bit offset in the packet, width; bits 0: absent */
	bool be;
};

struct an_layout {
	struct an_lay_int magic, content, packet;
	uint32_t min_bits; /* the header and context's end, as far as laid out */
};

enum an_lay_status {
	AN_LAY_OK,      /* TSDL laid out */
	AN_LAY_FOREIGN, /* not TSDL (CTF 2's JSON): left to other checks */
	AN_LAY_BAD,     /* a layout that cannot be walked: why says so */
};

/*
 * The packet layout dir/metadata declares (plain or packetized TSDL),
 * or why it has none a reader could walk safely.
 */
enum an_lay_status an_lay_read(const char *dir, struct an_layout *l,
			       char *why, size_t n);

/* The layout LTTng-UST writes: magic, then the sizes at bytes 48 and 56. */
void an_lay_lttng(struct an_layout *l);

/* Whether l is LTTng-UST's own (so its sizes can be patched in place). */
bool an_lay_is_lttng(const struct an_layout *l);

/* The value of field f in the packet at p (at least l->min_bits long). */
uint64_t an_lay_get(const unsigned char *p, const struct an_lay_int *f);

#endif
