/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE: the entry points whose result is a value, not a status, so
 * that a generated "not supported" stub (fh_gen.py) cannot stand in for
 * them.  hipCreateChannelDesc returns its struct in memory the caller
 * provides: a stub answering in a register would leave it unset.
 */
#include "fh.h"

/* Its header gives it no visibility: the others' say default. */
__attribute__((visibility("default"))) hipChannelFormatDesc
hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f)
{
	hipChannelFormatDesc d = { .x = x, .y = y, .z = z, .w = w, .f = f };
	return d;
}
