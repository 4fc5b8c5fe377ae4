/* SPDX-License-Identifier: MIT */
/*
 * A thread's recent device ranges (reg_dev.c says when they hold), in a
 * header so that the launch path can look its pointers up inline: a
 * function call and a result record per pointer cost more than the lookup.
 */
#ifndef REG_RECENT_H
#define REG_RECENT_H

#include <stdatomic.h>
#include <stdint.h>

#define REG_RECENT 8

/* Separate arrays: the search reads two words an entry. */
struct reg_recent {
	uintptr_t base[REG_RECENT], len[REG_RECENT]; /* len 0: empty */
	uint64_t id[REG_RECENT];
	uint8_t mem[REG_RECENT], gran[REG_RECENT];
	/* mem << 16 | gran << 24, as a launch's argument word holds them
	 * (hg_tp_types.h): packed once, when the range is kept. */
	uint32_t what[REG_RECENT];
	/* The class as a launch's bytes hold it (hg_pack_v5_class), and the
	 * byte length of the id (hg_argpack_put). */
	uint8_t cls5[REG_RECENT], idlen[REG_RECENT];
	uint64_t epoch; /* what they hold for */
	unsigned top;   /* entries from here on were never filled */
	unsigned next;  /* the entry a full table replaces next */
	unsigned hole;  /* an entry emptied lately, mostly */
	/* Pointers seen lately and the entry that held them, checked again
	 * on use: the same pointers come back, mostly. */
	uintptr_t seen[32];
	uint8_t seen_at[32];
};

extern __thread struct reg_recent reg_recent
	__attribute__((tls_model("initial-exec")));
extern atomic_uint_fast64_t reg_recent_epoch;

/* Empties the table: some range changed since it was filled. */
void reg_recent_reset(uint64_t epoch);
/* The entry holding p, searched; -1 if none. */
int reg_recent_scan(uintptr_t p);

/* Before lookups: returns the epoch they hold for. */
static inline uint64_t reg_recent_sync(void)
{
	uint64_t e = atomic_load_explicit(&reg_recent_epoch,
					  memory_order_acquire);

	if (__builtin_expect(reg_recent.epoch != e, 0))
		reg_recent_reset(e);
	return e;
}

/* Where p is remembered in seen[]. */
static inline unsigned reg_recent_seen_slot(uintptr_t p)
{
	return (unsigned)(p >> 4 ^ p >> 13) & 31;
}

/* The entry holding p (not NULL), or -1: then ask the registry
 * (reg_dev_find_far), which fills the table. */
static inline int reg_recent_find(uintptr_t p)
{
	unsigned h = reg_recent_seen_slot(p);
	int c = reg_recent.seen_at[h];

	if (reg_recent.seen[h] == p && p - reg_recent.base[c] < reg_recent.len[c])
		return c;
	return reg_recent_scan(p);
}

#endif
