/* SPDX-License-Identifier: MIT */
/*
 * A trace's packet framing, checked before a stream file reaches babeltrace.
 *
 * babeltrace2 2.1's ctf source indexes a stream file's packets when it
 * starts, trusting each packet's size; a stream whose tail is not a packet
 * (found by fz_trace: a whole packet, then 1,909 zero bytes, as a node that
 * died mid-write leaves it) keeps it busy for minutes while it allocates
 * gigabytes; a stream file of zeros hangs it.  2.0 refused both at once.
 * The packets are walked as the metadata lays them out (an_layout.h), so
 * that the walk reads the sizes babeltrace will read.
 * A file whose packet headers do not tile it exactly is sent to salvage,
 * which keeps the whole packets before the damage.
 */
#ifndef AN_PACKETS_H
#define AN_PACKETS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "an_layout.h"

/* The longest packet header and context read (an_layout.c's bound). */
#define AN_PKT_MAX_HEAD (AN_LAY_MAX_BITS / 8)

struct an_pkt {
	uint64_t content_bits, packet_bits;
};

/* The bytes holding l's packet header and context (and its sizes). */
off_t an_pkt_head(const struct an_layout *l);

/*
 * Whether a sane packet header starts at byte at of fd (a file of size
 * bytes): magic, sizes whole bytes, no smaller than the header and context,
 * content within the packet.  Where not, why (n bytes, may be NULL) names
 * the field.
 */
bool an_pkt_read(const struct an_layout *l, int fd, off_t at, off_t size,
		 struct an_pkt *p, char *why, size_t n);

/*
 * Where the last whole packet ends, walking the packet headers; *tail says
 * whether a packet header follows it (a packet cut in its middle).  -1 when
 * the first packet is not a sane one; why as above when the file is not
 * tiled.
 */
off_t an_pkt_whole(const struct an_layout *l, int fd, off_t size, bool *tail,
		   char *why, size_t n);

/*
 * The packet layout of dir's metadata: 1 found (TSDL's own, or LTTng's
 * for an LTTng-UST trace in CTF 2), 0 none to check (a foreign CTF 2
 * trace), -1 metadata that lays out no walkable packet (said on err, when
 * not NULL).
 */
int an_pkt_layout(const char *dir, struct an_layout *l, FILE *err);

/*
 * Whether every stream file of dir is tiled exactly by its packets, as
 * dir's metadata lays them out; a CTF 2 trace is checked only when
 * LTTng-UST wrote it.  Says which file breaks, where and which field on
 * err (when not NULL).
 */
bool an_pkt_dir(const char *dir, FILE *err);

#endif
