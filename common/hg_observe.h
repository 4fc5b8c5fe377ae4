/* SPDX-License-Identifier: MIT */
/*
 * What the virtual GPU saw a dispatch do, handed to the tracer when both
 * are in the process.  No real driver reports these facts (which atomics
 * did nothing, which instruction the interpreter lacks), so they do not
 * travel through /dev/kfd: the virtual GPU looks the tracer's function up
 * by name, and a process without the tracer simply has no one to tell.
 * The struct opens with its size, so either side may be the newer.
 */
#ifndef HG_OBSERVE_H
#define HG_OBSERVE_H

#include <stddef.h>
#include <stdint.h>

#define HG_OBSERVE_FN "hipgrain_observe_dispatch"

/* How a dispatch ended on the interpreter. */
enum hg_exec_status {
	HG_EXEC_DONE,		/* every wave ended */
	HG_EXEC_UNKNOWN,	/* an instruction the interpreter lacks */
	HG_EXEC_FAULT,		/* an access no mapping covers */
	HG_EXEC_BAD_CODE,	/* the descriptor or the code cannot be read */
	HG_EXEC_NOMEM,
	HG_EXEC_TOO_LARGE,	/* asks for more than a work-group has (`what`) */
	HG_EXEC_BUDGET,		/* stopped at the virtual GPU's instruction
				 * budget (`what` names it) */
};

/* The memory an atomic aimed at, as the driver holds it. */
enum {
	HG_OBS_FINE = 1,	/* fine-grained (coherent) */
	HG_OBS_HOST = 2,	/* system memory, over the CPU link */
	HG_OBS_VRAM = 4,	/* the device's own memory */
};

/* Lanes whose atomic did nothing: one instruction into one region. */
struct hg_observed_drop {
	uint64_t code_off;	/* the instruction, from its code object's start */
	uint64_t lo, hi;	/* the lowest and highest address aimed at */
	uint64_t count;
	const char *op;		/* its mnemonic */
	uint32_t kind;		/* HG_OBS_* */
};

/* Bytes a dispatch's loads, stores and atomics moved in one buffer
 * object or one block HG_OBSERVE_BLOCK_FN named (region: its first byte),
 * or in one run of touched pages of memory nobody named (region 0); lo
 * and hi are the lowest and highest byte touched, lo the address to
 * resolve. */
struct hg_observed_traffic {
	uint64_t region, lo, hi;
	uint64_t read, written;
};

/* Two instructions of different waves of one work-group that touched the
 * same bytes with no barrier between them, at least one a plain write
 * (the first is a write or an atomic).  cls: HG_RACE_*. */
enum { HG_RACE_READ, HG_RACE_WRITE, HG_RACE_ATOMIC };
struct hg_observed_race {
	uint64_t code_off[2];	/* each from its code object's start */
	uint64_t lo, hi;	/* LDS offsets, or global addresses */
	uint64_t count;		/* accesses (lane by dword) that met */
	uint8_t cls[2];
	uint8_t lds;		/* 1: LDS; 0: global memory */
};

/* Reads the GPU's L2 served from a line of coarse-grained memory it held
 * while memory held the host's newer bytes: one instruction's. */
struct hg_observed_stale {
	uint64_t code_off;	/* the read, from its code object's start */
	uint64_t lo, hi;	/* the lowest and highest byte read stale */
	uint64_t count;		/* reads (lane by access) */
	uint64_t region;	/* the buffer object's first byte, or 0 */
};

/* Bytes a dispatch that did not run to its end (stopped at the budget,
 * say) had stored to coarse-grained memory and left in the GPU's L2,
 * unseen by the host and other GPUs: one store instruction's, the one
 * that first made each line dirty. */
struct hg_observed_unwritten {
	uint64_t code_off;	/* the store, from its code object's start */
	uint64_t lo, hi;	/* the lowest and highest byte unwritten */
	uint64_t count;		/* bytes unwritten */
	uint64_t region;	/* the buffer object's first byte, or 0 */
};

struct hg_observed {
	size_t size;		/* sizeof(struct hg_observed) as the caller built it */
	uint64_t kd;		/* the kernel descriptor's address */
	const char *kernel;	/* its symbol, "" when the image does not say */
	enum hg_exec_status status;
	const char *what;	/* HG_EXEC_UNKNOWN: the instruction's name */
	uint64_t code_off;	/* UNKNOWN, FAULT: where, as in a drop */
	uint64_t fault_va;
	int fault_write;
	uint64_t insns;		/* wave-instructions executed */
	const struct hg_observed_drop *drops;
	uint32_t ndrops;
	uint64_t drops_lost;	/* lanes in rows that did not fit */
	const struct hg_observed_traffic *traffic;
	uint32_t ntraffic;
	struct hg_observed_traffic traffic_more;	/* rows that did not fit,
							 * summed; region 0 */
	const struct hg_observed_race *races;
	uint32_t nraces;
	uint64_t races_lost;	/* accesses in rows that did not fit */
	const struct hg_observed_stale *stales;
	uint32_t nstales;
	uint64_t stales_lost;	/* reads in rows that did not fit */
	const struct hg_observed_unwritten *unwritten;
	uint32_t nunwritten;
	uint64_t unwritten_lost;	/* bytes in rows that did not fit */
};

typedef void (*hg_observe_fn)(const struct hg_observed *o);

/* The first byte of the allocation the tracer knows to hold va, or 0: how
 * the virtual GPU names memory in no buffer object of its own (pageable,
 * managed), so that what a kernel moves there is counted block by block. */
#define HG_OBSERVE_BLOCK_FN "hipgrain_observe_block"
typedef uint64_t (*hg_block_fn)(uint64_t va);

#endif
