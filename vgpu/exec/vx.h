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
#include "isa_atab.h"

#define VX_PAGE 4096u

/* A page's kind, as the driver holds it. */
enum {
	VX_FINE = 1,	/* fine-grained (coherent) */
	VX_HOST = 2,	/* system memory, reached over the CPU link */
	VX_VRAM = 4,	/* device memory */
	VX_PEER = 8,	/* with VX_VRAM: another GPU's, reached through peer access */
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
	/* What AMD's atomics tables need of the machine (isa_atab.h): the
	 * CPU link, PCIe AtomicOps, an APU; unknown ones are assumed as the
	 * table's lookup says. */
	struct isa_atab_facts facts;
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
	/* The lane loops built for the architecture's baseline even where
	 * the host has wider vectors: the unit tests run both builds. */
	int baseline_loops;
	/* For a page in no buffer object: the first byte of the block that
	 * holds va as someone narrower than the driver knows it (the tracer's
	 * allocations), or 0; asked once per page the cache fills, so that
	 * such memory is counted and named block by block.  NULL: nobody
	 * knows. */
	uint64_t (*block)(void *ctx, uint64_t va);
	/* Check the accesses of a work-group's waves for races (vx_race.c):
	 * a cost on every LDS and global access, so the device may say no. */
	int races;
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
	/* The virtual GPU's own end for a kernel that never ends (a spin on a
	 * flag its L2 holds stale): wave-instructions one interpreter thread
	 * may run before the dispatch stops (VX_BUDGET); 0 for none.  Unlike
	 * max_insns it leaves the dispatch its threads. */
	uint64_t budget;
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

/* The classes of access a race is between. */
enum { VX_R_READ, VX_R_WRITE, VX_R_ATOMIC, VX_R_CLASSES };

/* Two instructions of different waves of a work-group that touched the
 * same dwords with no barrier between them, at least one a plain write:
 * one row per pair, the write first. */
struct vx_race {
	uint64_t pc[2];
	uint8_t cls[2];		/* VX_R_* of each */
	uint8_t lds;		/* 1: LDS, lo and hi offsets in it; 0: global */
	uint64_t lo, hi;	/* the lowest and highest byte of the accesses */
	uint64_t count;		/* accesses (lane by dword) that met */
};

/* A row of what the L2 model saw an instruction do to one region: a
 * read it served from a line while memory held something newer (the
 * host's write the card would not have seen: vx_hold.c), or bytes a
 * store left among the dirty lines of held memory when a dispatch did not
 * run to its end (only its end wrote them back: vx_wback.c; the store
 * that first dirtied each line).  Rows are merged by instruction and
 * region (vx_l2row_add). */
struct vx_l2row {
	uint64_t pc;
	uint64_t lo, hi;	/* the lowest and highest byte */
	uint64_t count;		/* stale: reads (lane by access); unwritten: bytes */
	uint64_t region;	/* the page's, as the device gave it */
};

enum vx_status {
	VX_DONE,	/* every wave ended */
	VX_UNKNOWN,	/* an instruction the interpreter does not have */
	VX_FAULT,	/* an access no mapping covers */
	VX_BAD_CODE,	/* the descriptor or the code cannot be read */
	VX_NOMEM,
	VX_LIMIT,	/* max_insns reached */
	VX_TOO_LARGE,	/* asks for more than a work-group has: `what` */
	VX_BUDGET,	/* the launch's budget reached */
};

#define VX_DROPS 32
#define VX_TRAFFIC 64
#define VX_RACES 16
#define VX_STALES 8
#define VX_UNWRITTEN 8
struct vx_result {
	enum vx_status status;
	uint64_t pc;		/* VX_UNKNOWN, VX_FAULT: the instruction */
	uint32_t word;		/* VX_UNKNOWN: its first word */
	char what[48];		/* VX_UNKNOWN: its name, or its format;
				 * VX_TOO_LARGE: what is over which limit */
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
	struct vx_race races[VX_RACES];
	unsigned nraces;
	uint64_t races_lost;	/* accesses in rows past VX_RACES */
	uint64_t races_unchecked;	/* global dword accesses the check had no room for */
	struct vx_l2row stales[VX_STALES];
	unsigned nstales;
	uint64_t stales_lost;	/* reads in rows past VX_STALES */
	struct vx_l2row unwritten[VX_UNWRITTEN];	/* none when VX_DONE */
	unsigned nunwritten;
	uint64_t unwritten_lost;	/* bytes in rows past VX_UNWRITTEN */
};

/* Run the dispatch to its end, or to the first thing it cannot do. */
enum vx_status vx_run(const struct vx_device *dev, const struct vx_launch *l,
		      struct vx_result *r);

#endif
