/* SPDX-License-Identifier: MIT */
/*
 * The interpreter of gfx9 kernels: the one header between the virtual
 * GPU (or a unit test) and the engine.  The device lends it memory page
 * by page with what the driver knows of each page (granularity, where it
 * lives); the engine runs a dispatch's waves and says what happened,
 * including what the program cannot see: the atomics that the product's
 * memory made do nothing.
 */
#ifndef VX_H
#define VX_H

#include <stdint.h>

#include "isa.h"

#define VX_PAGE 4096u

/* A page's kind, as the driver holds it. */
enum {
	VX_FINE = 1,	/* fine-grained (coherent) */
	VX_HOST = 2,	/* system memory, reached over the CPU link */
	VX_VRAM = 4,	/* the device's own memory */
};

struct vx_page {
	uint8_t *host;	/* where the page's first byte is, for the device */
	uint32_t kind;
	/* What holds the page as the driver knows it (a buffer object's
	 * first byte); 0 when nothing narrower than the process does. */
	uint64_t region;
};

struct vx_device {
	enum isa_family fam;
	void *ctx;
	/* The page holding va, first reached by a write or a read: 0, or -1
	 * when no mapping covers it. */
	int (*page)(void *ctx, uint64_t va, int write, struct vx_page *out);
	/* The flat apertures of LDS and private memory (their first byte). */
	uint64_t shared_base, private_base;
	/* Whether the link to the CPU carries every atomic (XGMI, an APU's
	 * own fabric) rather than PCIe's add, exchange and compare-swap. */
	int host_link_atomics;
	/* Over PCIe, the root port carries no AtomicOps (the driver marked
	 * the link so: the io_link's no-atomics flags): not even add,
	 * exchange or compare-swap reach host memory. */
	int host_no_pcie_atomics;
	/* s_sendmsg(MSG_INTERRUPT) with M0: what the hostcall path (printf)
	 * raises to wake the runtime's listener, an event the driver signals.
	 * NULL: a kernel that sends one stops as an unknown instruction rather
	 * than wait forever for an answer nobody will give. */
	int (*interrupt)(void *ctx, uint32_t m0);
	/* Threads that may run the dispatch's work-groups (0 or 1: the
	 * caller's alone). */
	unsigned threads;
	/* Every vector form through the general frame and every memory
	 * access through the general one, none by the shortcuts of the
	 * common forms: the unit tests run both and compare. */
	int general_only;
	/* For a page in no buffer object: the first byte of the block that
	 * holds va as someone narrower than the driver knows it (the tracer's
	 * allocations), or 0; asked once per page the cache fills, so that
	 * such memory is counted and named block by block.  NULL: nobody
	 * knows. */
	uint64_t (*block)(void *ctx, uint64_t va);
};

struct vx_launch {
	uint64_t kd_va, kernarg_va, packet_va, queue_va, dispatch_id;
	uint32_t grid[3];
	uint16_t wg[3];
	uint32_t group_segment_size, private_segment_size;
	/* Wave-instructions after which the dispatch stops (VX_LIMIT); 0
	 * for none, as hardware has none: a harness feeding arbitrary code
	 * needs an end that the code cannot postpone. */
	uint64_t max_insns;
};

/* Atomics that did nothing: one row per instruction and region. */
struct vx_drop {
	uint64_t pc;		/* the instruction's address */
	uint64_t region;	/* the page's, as the device gave it */
	uint64_t lo, hi;	/* the lowest and highest address aimed at */
	uint64_t count;		/* lanes whose atomic did nothing */
	uint16_t fmt, op;
	uint32_t kind;		/* the memory's VX_* bits */
};

/* Bytes the dispatch's loads, stores and atomics moved in one region of
 * device memory (LDS and private memory are the dispatch's own, and the
 * kernel's arguments and packet the runtime's: none of them counted).
 * Memory that neither a buffer object nor the device's block() names has
 * no region: its row is a run of touched pages, lo its lowest byte, for
 * the tracer to resolve. */
struct vx_traffic {
	uint64_t region;	/* the page's, as the device gave it */
	uint64_t lo, hi;	/* the lowest and highest byte touched */
	uint64_t read, written;
};

enum vx_status {
	VX_DONE,	/* every wave ended */
	VX_UNKNOWN,	/* an instruction the interpreter does not have */
	VX_FAULT,	/* an access no mapping covers */
	VX_BAD_CODE,	/* the descriptor or the code cannot be read, or
			 * asks for more than the hardware has */
	VX_NOMEM,
	VX_LIMIT,	/* max_insns reached */
};

#define VX_DROPS 32
#define VX_TRAFFIC 64
struct vx_result {
	enum vx_status status;
	uint64_t pc;		/* VX_UNKNOWN, VX_FAULT: the instruction */
	uint32_t word;		/* VX_UNKNOWN: its first word */
	char what[48];		/* VX_UNKNOWN: its name, or its format */
	uint64_t fault_va;
	int fault_write;
	uint64_t insns;		/* wave-instructions executed */
	uint64_t cpu_ns;	/* processor time of the threads that ran them */
	struct vx_drop drops[VX_DROPS];
	unsigned ndrops;
	uint64_t drops_lost;	/* rows past VX_DROPS, counted only */
	struct vx_traffic traffic[VX_TRAFFIC];
	unsigned ntraffic;
	struct vx_traffic traffic_more;	/* rows past VX_TRAFFIC, summed */
};

/* Run the dispatch to its end, or to the first thing it cannot do. */
enum vx_status vx_run(const struct vx_device *dev, const struct vx_launch *l,
		      struct vx_result *r);

#endif
