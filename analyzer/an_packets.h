/* SPDX-License-Identifier: MIT */
/*
 * LTTng's packet framing, checked before a stream file reaches babeltrace.
 *
 * babeltrace2 2.1's ctf source indexes a stream file's packets when it
 * starts, trusting each packet's size; a stream whose tail is not a packet
 * (found by fz_trace: a whole packet, then 1,909 zero bytes, as a node that
 * died mid-write leaves it) keeps it busy for minutes while it allocates
 * gigabytes; a stream file of zeros hangs it.  2.0 refused both at once.
 * A file whose packet headers do not tile it exactly is sent to salvage,
 * which keeps the whole packets before the damage.
 */
#ifndef AN_PACKETS_H
#define AN_PACKETS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * LTTng's packet header and context, as every LTTng-UST 2.x stream lays
 * them out: magic, uuid, stream id and instance (32 bytes), then the two
 * timestamps, content_size and packet_size in bits (at 48 and 56).
 */
#define AN_PKT_MIN 64

struct an_pkt {
	uint64_t content_bits, packet_bits;
};

/* Whether a sane LTTng packet header starts at byte at of fd. */
bool an_pkt_read(int fd, off_t at, struct an_pkt *p);

/*
 * Where the last whole packet ends, walking the packet headers; *tail says
 * whether a packet header follows it (a packet cut in its middle).  -1 when
 * the stream is not laid out as LTTng's.
 */
off_t an_pkt_whole(int fd, off_t size, bool *tail);

/*
 * Whether every stream file of dir is tiled exactly by its packets, when
 * dir's metadata says LTTng-UST wrote it (CTF 1.8 or 2); any other trace
 * is left to babeltrace.  Says which file breaks and where on err.
 */
bool an_pkt_dir(const char *dir, FILE *err);

#endif
