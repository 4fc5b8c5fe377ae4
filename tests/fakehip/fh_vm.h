/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): what fh_vm.c and
 * fh_vm_share.c both know of handles and pools.
 */
#ifndef FH_VM_H
#define FH_VM_H

#include "fh.h"

/* A handle is a memfd: its size bytes, then one page that describes it
 * (so that another process importing the descriptor learns what it is).
 * A descriptor without that page was not made by hipMemCreate. */
struct ihipMemGenericAllocationHandle {
	int fd;
	size_t size;
	int described;
	int type;
	hipMemLocation loc;
};

struct ihipMemPoolHandle_t {
	int host;
};

/* Sizes h's memfd and writes its description page; 0 on success. */
FH_HIDDEN int fh_vm_describe_fd(const struct ihipMemGenericAllocationHandle *h);

#endif
