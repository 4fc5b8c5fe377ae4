/* SPDX-License-Identifier: MIT */
#include "reg_site.h"

#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define UNW_LOCAL_ONLY /* the _UL entry points, all in libunwind.so */
#include <libunwind.h>

#include "reg.h"
#include "hg_spin.h"
#include "hg_os.h"
#include "reg_stack.h"

#define TABLE_BITS 16
#define TABLE_CAP (1u << TABLE_BITS)
#define ARENA_CHUNK ((size_t)1 << 20)

struct entry {
	uint64_t hash;
	uint64_t id;
	const uint64_t *frames;
	uint32_t n;
};

static hg_spin_t lock = HG_SPIN_INIT;
static struct entry *table; /* TABLE_CAP entries; when full, ids stop being shared */
static uint64_t *arena;
static size_t arena_left;
static uint64_t next_id = 1;
static unsigned depth = 24;
/* Frames of hipgrain's own a capture may see between the hook and here. */
#define OWN_FRAMES 24

void reg_site_set_depth(unsigned d)
{
	depth = d < 1 ? 1 : d > REG_SITE_MAX_DEPTH ? REG_SITE_MAX_DEPTH : d;
	/* As heaptrack does: no lock on the unwinder's cache per stack. */
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	reg_stack_set_depth(depth + OWN_FRAMES);
}

static uint64_t hash_frames(const uint64_t *f, unsigned n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;

	for (unsigned i = 0; i < n; i++) {
		h ^= f[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h;
}

static const uint64_t *keep(const uint64_t *f, unsigned n)
{
	uint64_t *dst;

	if (arena_left < n) {
		arena = hg_os_alloc(ARENA_CHUNK);
		arena_left = arena ? ARENA_CHUNK / sizeof(uint64_t) : 0;
		if (!arena)
			return NULL;
	}
	dst = arena;
	memcpy(dst, f, n * sizeof(*f));
	arena += n;
	arena_left -= n;
	return dst;
}

/* Returns the id and whether the caller must emit it (first sighting). */
static uint64_t lookup_or_add(const uint64_t *f, unsigned n, int *fresh)
{
	uint64_t h = hash_frames(f, n), id;
	uint32_t i = (uint32_t)h & (TABLE_CAP - 1);

	*fresh = 0;
	hg_spin_lock(&lock);
	if (!table && !(table = hg_os_alloc(TABLE_CAP * sizeof(*table)))) {
		id = next_id++;
		*fresh = 1;
		goto out;
	}
	for (uint32_t probes = 0; probes < TABLE_CAP; probes++) {
		struct entry *e = &table[(i + probes) & (TABLE_CAP - 1)];

		if (e->id == 0) {
			id = next_id++;
			*fresh = 1;
			e->frames = keep(f, n);
			if (e->frames)
				*e = (struct entry){h, id, e->frames, n};
			goto out;
		}
		if (e->hash == h && e->n == n &&
		    !memcmp(e->frames, f, n * sizeof(*f))) {
			id = e->id;
			goto out;
		}
	}
	id = next_id++; /* table full: correct, merely not deduplicated */
	*fresh = 1;
out:
	hg_spin_unlock(&lock);
	return id;
}

uint64_t reg_site_intern(const uint64_t *frames, unsigned n)
{
	int fresh;
	uint64_t id = lookup_or_add(frames, n, &fresh);

	if (fresh)
		reg_emit_callsite(id, frames, (uint16_t)n);
	return id;
}

/*
 * Unwinding walks the loaded objects with dl_iterate_phdr, under the
 * dynamic linker's lock.  A fork while some thread holds it leaves the
 * child's copy held for good, and the first thing LTTng-UST does in the
 * child is dl_iterate_phdr: so fork waits until no capture is unwinding.
 */
static pthread_rwlock_t unwinding = PTHREAD_RWLOCK_INITIALIZER;

/* The address range of the object this code is linked into (the preload),
 * whose frames are hipgrain's own, not the program's. */
static uintptr_t self_lo, self_hi;

static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t me = (uintptr_t)arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && me >= lo &&
		    me < lo + ph->p_memsz) {
			self_lo = lo;
			self_hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

/* Whether an address is in hipgrain's own code. */
static int own(uintptr_t ip)
{
	return ip >= self_lo && ip < self_hi;
}

/* The program's frames of an unwound stack, hipgrain's dropped.  Which
 * ones those are depends on inlining, so they are found by address; the
 * first `skip` are dropped when the preload's own range is unknown. */
static unsigned program_frames(const uint64_t *ip, unsigned got, unsigned skip,
			       uint64_t *frames)
{
	unsigned i = 0, n = 0;

	while (i < got && own((uintptr_t)ip[i]))
		i++;
	if (!self_hi)
		i = skip;
	for (; i < got && n < depth; i++)
		frames[n++] = ip[i];
	return n;
}

#if defined(__x86_64__)
/*
 * Unwind step by step, noting where each return address was read from (the
 * callee's CFA - 8), so that reg_stack can check the stack next time
 * without unwinding.  Returns how many frames it read; `s->n` is 0 if some
 * frame's return address was not read from the stack (a signal frame):
 * then the stack is not remembered.
 */
__attribute__((no_sanitize_address)) static unsigned
unwind_slots(uintptr_t cfa, uint64_t *ip, unsigned max,
	     struct reg_stack_slots *s)
{
	unw_context_t uc;
	unw_cursor_t cur;
	unsigned got = 0, kept = 0;
	int ok = 1;

	s->n = 0;
	if (unw_getcontext(&uc) || unw_init_local(&cur, &uc))
		return 0;
	while (got < max && unw_step(&cur) > 0) {
		unw_word_t pc, sp;

		if (unw_get_reg(&cur, UNW_REG_IP, &pc) ||
		    unw_get_reg(&cur, UNW_REG_SP, &sp))
			break;
		if (got == 0 && sp != cfa)
			ok = 0; /* the CFA recall keys on is not this one */
		if (ok && *(const uint64_t *)(uintptr_t)(sp - 8) != pc)
			ok = 0;
		if (ok && got < REG_STACK_MAX_SLOTS) {
			s->addr[got] = (uintptr_t)(sp - 8);
			s->val[got] = pc;
		}
		ip[got++] = pc;
		if (!own((uintptr_t)pc) && ++kept == depth)
			break;
	}
	s->n = ok && got <= REG_STACK_MAX_SLOTS ? got : 0;
	return got;
}

/*
 * The calling thread's stack, as an interned site id.  A stack this thread
 * captured lately from the same frame address is checked in place
 * (reg_stack.h) instead of unwound again.  Not inlined: its own frame
 * address is the key.
 */
__attribute__((noinline)) uint64_t reg_site_capture(unsigned skip)
{
	uintptr_t cfa = (uintptr_t)__builtin_dwarf_cfa();
	uint64_t ip[REG_SITE_MAX_DEPTH + OWN_FRAMES];
	uint64_t frames[REG_SITE_MAX_DEPTH], id;
	struct reg_stack_slots s;
	unsigned got;
	int mine = reg_stack_enter();

	if (mine && (id = reg_stack_recall(cfa))) {
		reg_stack_leave();
		return id;
	}
	pthread_rwlock_rdlock(&unwinding);
	if (!self_hi)
		dl_iterate_phdr(find_self, (void *)(uintptr_t)reg_site_capture);
	got = unwind_slots(cfa, ip, depth + OWN_FRAMES, &s);
	pthread_rwlock_unlock(&unwinding);
	id = reg_site_intern(frames, program_frames(ip, got, skip, frames));
	if (mine) {
		if (s.n)
			reg_stack_remember(cfa, &s, id);
		reg_stack_leave();
	}
	return id;
}
#else
uint64_t reg_site_capture(unsigned skip)
{
	void *buf[REG_SITE_MAX_DEPTH + OWN_FRAMES];
	uint64_t ip[REG_SITE_MAX_DEPTH + OWN_FRAMES];
	uint64_t frames[REG_SITE_MAX_DEPTH];
	int got;

	pthread_rwlock_rdlock(&unwinding);
	got = unw_backtrace(buf, (int)(depth + OWN_FRAMES));
	if (!self_hi)
		dl_iterate_phdr(find_self, (void *)(uintptr_t)reg_site_capture);
	pthread_rwlock_unlock(&unwinding);
	for (int i = 0; i < got; i++)
		ip[i] = (uint64_t)(uintptr_t)buf[i];
	return reg_site_intern(frames,
			       program_frames(ip, (unsigned)(got > 0 ? got : 0),
					      skip + 1, frames));
}
#endif

__thread struct reg_recent_ip reg_recent_ip[REG_RECENT_IPS]
	__attribute__((tls_model("initial-exec")));

uint64_t reg_site_from_ip_slow(uintptr_t ip, unsigned h)
{
	uint64_t f = ip, id = reg_site_intern(&f, 1);

	reg_recent_ip[h].ip = 0;
	atomic_signal_fence(memory_order_seq_cst);
	reg_recent_ip[h].id = id;
	atomic_signal_fence(memory_order_seq_cst);
	reg_recent_ip[h].ip = ip;
	return id;
}

void reg_site_fork_prepare(void)
{
	pthread_rwlock_wrlock(&unwinding);
	hg_spin_lock(&lock);
}

void reg_site_fork_parent(void)
{
	hg_spin_unlock(&lock);
	pthread_rwlock_unlock(&unwinding);
}

void reg_site_fork_child(void)
{
	hg_spin_reset(&lock);
	/* Not unlocked: waiters of the parent's threads would stay counted. */
	pthread_rwlock_init(&unwinding, NULL);
}
