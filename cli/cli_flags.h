/* SPDX-License-Identifier: MIT */
/* An allocation's flags by the names of the call that took them. */
#ifndef CLI_FLAGS_H
#define CLI_FLAGS_H

#include <stddef.h>
#include <stdint.h>

/* "hipHostMallocMapped|hipHostMallocNonCoherent" for hipHostMalloc's
 * 0x80000002, a bit no name has as "0x..."; "" for an allocator whose
 * flags have no names. */
const char *cli_flags_text(uint8_t api, uint64_t flags, char *buf, size_t cap);

#endif
