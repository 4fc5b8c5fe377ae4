/* SPDX-License-Identifier: MIT */
#ifndef AN_META_H
#define AN_META_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Whether dir/metadata can be handed to libbabeltrace2 without hanging it:
 * every packet of packetized metadata holds the content its header claims,
 * and it lays out packets whose sizes can be walked (an_packets.h).
 * Says what is wrong, and where, on err.
 */
bool an_meta_ok(const char *dir, FILE *err);

#endif
