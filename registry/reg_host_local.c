/* SPDX-License-Identifier: MIT */
#include "reg_host_local.h"

#include <pthread.h>
#include <stdatomic.h>

#include "hg_spin.h"
#include "hg_os.h"

#define CAP_BITS 11
#define CAP (1u << CAP_BITS)
#define MASK (CAP - 1)
/* Half full at most, so a probe always meets an empty slot soon. */
#define MAX_LIVE (CAP / 2)
/* After another thread freed one of its blocks, a thread's next blocks go
 * straight to the shared table, so a producer handing blocks to a consumer
 * pays a lock a block rather than a system call a block. */
#define SHARED_SPAN 4096u

#if defined(__SANITIZE_THREAD__)
#define HL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HL_TSAN 1
#endif
#endif

struct table {
	atomic_int busy;       /* the owner is inside an operation */
	atomic_int want;       /* a mover waits to empty the table */
	atomic_uint used;      /* read without the handshake, to skip empties */
	atomic_uint seq;       /* odd while slots move: see elsewhere() */
	unsigned shared_left;  /* under the handshake */
	bool vacant;	       /* under pub_lock: its thread has exited */
	struct table *_Atomic next;
	struct reg_host_slot slots[CAP];
};

/* Serialises movers, thread exits and fork; never taken by an owner's
 * insert or remove. */
static hg_spin_t pub_lock = HG_SPIN_INIT;
static struct table *_Atomic tables;
static atomic_int fast; /* hg_os_barrier works: owners need no fence */
static bool set_up;
static pthread_key_t exit_key;
static bool have_key;

#define DEAD ((struct table *)1) /* this thread has passed its exit handler */
static __thread struct table *mine __attribute__((tls_model("initial-exec")));

static inline uint32_t home_of(uintptr_t a)
{
	return (uint32_t)(((a >> 4) * 0x9e3779b97f4a7c15ull) >> (64 - CAP_BITS));
}

/* The owner's half of the handshake; false while a mover has the table. */
static inline bool enter(struct table *t)
{
	if (atomic_load_explicit(&fast, memory_order_relaxed)) {
		atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
		atomic_signal_fence(memory_order_seq_cst);
	} else {
		atomic_store_explicit(&t->busy, 1, memory_order_seq_cst);
	}
	if (__builtin_expect(!atomic_load_explicit(&t->want,
						   memory_order_seq_cst), 1))
		return true;
	atomic_store_explicit(&t->busy, 0, memory_order_release);
	return false;
}

static inline void leave(struct table *t)
{
	atomic_store_explicit(&t->busy, 0, memory_order_release);
}

/* For lookups, which must see the blocks a mover is carrying away. */
static void enter_waiting(struct table *t)
{
	while (!enter(t))
		while (atomic_load_explicit(&t->want, memory_order_acquire))
			__builtin_ia32_pause();
}

static struct reg_host_slot *probe(struct table *t, uintptr_t addr)
{
	for (uint32_t i = home_of(addr);; i = (i + 1) & MASK) {
		struct reg_host_slot *s = &t->slots[i];

		if (s->addr == addr)
			return s;
		if (!s->addr)
			return NULL;
	}
}

static bool put(struct table *t, uintptr_t addr, uint64_t meta,
		uintptr_t site)
{
	uint32_t i = home_of(addr);
	unsigned used = atomic_load_explicit(&t->used, memory_order_relaxed);
	struct reg_host_slot *s;

	while (t->slots[i].addr && t->slots[i].addr != addr)
		i = (i + 1) & MASK;
	if (!t->slots[i].addr) {
		if (used >= MAX_LIVE)
			return false;
		atomic_store_explicit(&t->used, used + 1, memory_order_relaxed);
	}
	s = &t->slots[i]; /* an address already here was freed unseen */
	s->addr = addr;
	s->meta = meta;
	s->site = site;
	s->id = 0;
	return true;
}

/* Linear probing's deletion without tombstones: later members of the
 * cluster whose home is not between the hole and themselves move up. */
/* Slots move only between these two (an erase, a drain), so that a thread
 * reading the table without the handshake knows whether it read it whole. */
#ifndef HL_TSAN
static inline void moving(struct table *t)
{
	atomic_store_explicit(&t->seq,
			      atomic_load_explicit(&t->seq, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
}

static inline void moved(struct table *t)
{
	atomic_store_explicit(&t->seq,
			      atomic_load_explicit(&t->seq, memory_order_relaxed) + 1,
			      memory_order_release);
}
#else /* no table is read without the handshake there */
static inline void moving(struct table *t)
{
	(void)t;
}

static inline void moved(struct table *t)
{
	(void)t;
}
#endif

static inline __attribute__((always_inline)) void erase(struct table *t,
						     uint32_t i)
{
	moving(t);
	for (uint32_t j = (i + 1) & MASK; t->slots[j].addr; j = (j + 1) & MASK) {
		uint32_t home = home_of(t->slots[j].addr);

		if (((j - home) & MASK) >= ((j - i) & MASK)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].addr = 0;
	moved(t);
	atomic_store_explicit(&t->used,
			      atomic_load_explicit(&t->used, memory_order_relaxed) - 1,
			      memory_order_relaxed);
}

/* Into the shared table, by whoever holds the table: a mover after the
 * handshake, its owner at exit, or the child after fork. */
static bool drain(struct table *t, uintptr_t wanted)
{
	bool hit = false;

	if (!atomic_load_explicit(&t->used, memory_order_relaxed))
		return false;
	moving(t);
	for (uint32_t i = 0; i < CAP; i++) {
		struct reg_host_slot *s = &t->slots[i];

		if (!s->addr)
			continue;
		hit |= s->addr == wanted;
		reg_host_shared_put(s); /* on failure it goes untracked */
		s->addr = 0;
	}
	moved(t);
	atomic_store_explicit(&t->used, 0, memory_order_release);
	if (hit)
		t->shared_left = SHARED_SPAN;
	return true;
}

static void on_thread_exit(void *arg)
{
	struct table *t = arg;

	hg_spin_lock(&pub_lock);
	drain(t, 0);
	t->shared_left = 0;
	t->vacant = true;
	hg_spin_unlock(&pub_lock);
	mine = DEAD;
}

/* Once per process, under pub_lock. */
static void set_up_once(void)
{
	if (set_up)
		return;
	set_up = true;
	have_key = pthread_key_create(&exit_key, on_thread_exit) == 0;
#ifndef HL_TSAN
	if (hg_os_barrier_register())
		atomic_store_explicit(&fast, 1, memory_order_relaxed);
#endif
}

/* A thread's first block: a table left by an exited thread, or a new one.
 * Without the exit key a table is never reused, but its blocks are still
 * moved whenever another thread needs them. */
static struct table *claim(void)
{
	struct table *t;

	if (mine == DEAD)
		return NULL;
	hg_spin_lock(&pub_lock);
	set_up_once();
	for (t = atomic_load(&tables); t && !(t->vacant && have_key);
	     t = t->next)
		;
	if (t) {
		t->vacant = false;
	} else if ((t = hg_os_alloc(sizeof *t))) {
		t->next = atomic_load(&tables);
		atomic_store_explicit(&tables, t, memory_order_release);
	}
	hg_spin_unlock(&pub_lock);
	if (!t)
		return NULL;
	mine = t;
	if (have_key)
		pthread_setspecific(exit_key, t);
	return t;
}

/* The slow ends of an insert, out of line so the common one needs no
 * frame. */
static __attribute__((noinline)) bool to_shared(uintptr_t addr, uint64_t meta,
						uintptr_t site)
{
	struct reg_host_slot s = {addr, meta, site, 0};

	return reg_host_shared_put(&s);
}

static __attribute__((noinline)) bool put_first(uintptr_t addr, uint64_t meta,
						 uintptr_t site)
{
	if (!claim())
		return to_shared(addr, meta, site);
	return reg_host_local_put(addr, meta, site);
}

bool reg_host_local_put(uintptr_t addr, uint64_t meta, uintptr_t site)
{
	struct table *t = mine;
	bool ok = false;

	if (__builtin_expect((uintptr_t)t <= (uintptr_t)DEAD, 0))
		return put_first(addr, meta, site);
	if (!enter(t))
		return to_shared(addr, meta, site);
	if (__builtin_expect(t->shared_left == 0, 1))
		ok = put(t, addr, meta, site);
	else
		t->shared_left--;
	leave(t);
	return ok || to_shared(addr, meta, site);
}

/* This thread's table, entered for a lookup; NULL if it has none. */
static struct table *own_entered(void)
{
	struct table *t = mine;

	if ((uintptr_t)t <= (uintptr_t)DEAD)
		return NULL;
	enter_waiting(t);
	return t;
}

/* addr's slot in this thread's own table, which *tp is then entered for
 * (NULL, and nothing entered, when the thread has none). */
static struct reg_host_slot *own_slot(uintptr_t addr, struct table **tp)
{
	struct table *t = own_entered();

	*tp = t;
	return t ? probe(t, addr) : NULL;
}

bool reg_host_local_take(uintptr_t addr, struct reg_host_block *out)
{
	struct table *t;
	struct reg_host_slot *s = own_slot(addr, &t);

	if (s) {
		reg_host_slot_unpack(s, out);
		erase(t, (uint32_t)(s - t->slots));
	}
	if (t)
		leave(t);
	return s != NULL;
}

bool reg_host_local_drop(uintptr_t addr, uint64_t plain)
{
	struct table *t = mine;
	struct reg_host_slot *s;
	bool ok = false;

	if ((uintptr_t)t <= (uintptr_t)DEAD || !enter(t))
		return false;
	s = probe(t, addr);
	if (s && !s->id && (uint8_t)s->meta < 64 &&
	    (plain >> (uint8_t)s->meta & 1)) {
		erase(t, (uint32_t)(s - t->slots));
		ok = true;
	}
	leave(t);
	return ok;
}

bool reg_host_local_get(uintptr_t addr, struct reg_host_block *out)
{
	struct table *t;
	struct reg_host_slot *s = own_slot(addr, &t);

	if (s)
		reg_host_slot_unpack(s, out);
	if (t)
		leave(t);
	return s != NULL;
}

bool reg_host_local_set_id(uintptr_t addr, uint64_t id)
{
	struct table *t;
	struct reg_host_slot *s = own_slot(addr, &t);

	if (s)
		s->id = id;
	if (t)
		leave(t);
	return s != NULL;
}

/* The mover's half: flag every other table, one barrier for all of them,
 * then wait for each owner to be out of its operation. */
static void flag_others(bool nonempty_only)
{
	int flagged = 0;

	for (struct table *t = atomic_load(&tables); t; t = t->next) {
		if (t == mine || (nonempty_only && !atomic_load_explicit(
						   &t->used, memory_order_acquire)))
			continue;
		atomic_store_explicit(&t->want, 1, memory_order_seq_cst);
		flagged++;
	}
	if (flagged && atomic_load_explicit(&fast, memory_order_relaxed))
		hg_os_barrier();
	for (struct table *t = atomic_load(&tables); t; t = t->next)
		if (t != mine && atomic_load_explicit(&t->want,
						      memory_order_relaxed))
			while (atomic_load_explicit(&t->busy, memory_order_seq_cst))
				__builtin_ia32_pause();
}

static void unflag_others(void)
{
	for (struct table *t = atomic_load(&tables); t; t = t->next)
		if (t != mine)
			atomic_store_explicit(&t->want, 0, memory_order_release);
}

static bool others_hold_blocks(void)
{
	for (struct table *t = atomic_load_explicit(&tables, memory_order_acquire);
	     t; t = t->next)
		if (t != mine && atomic_load_explicit(&t->used, memory_order_acquire))
			return true;
	return false;
}

#ifndef HL_TSAN
/* Whether t holds addr, read as its owner writes: true when unsure. */
static bool held_by(struct table *t, uintptr_t addr)
{
	unsigned seq = atomic_load_explicit(&t->seq, memory_order_acquire);
	bool found = false;
	uint32_t i = home_of(addr);

	if (seq & 1)
		return true;
	for (uint32_t n = 0; n < CAP; n++, i = (i + 1) & MASK) {
		uintptr_t a = __atomic_load_n(&t->slots[i].addr, __ATOMIC_RELAXED);

		if (!a || (found = a == addr))
			break;
	}
	atomic_thread_fence(memory_order_acquire);
	return found ||
	       atomic_load_explicit(&t->seq, memory_order_relaxed) != seq;
}
#endif

bool reg_host_local_elsewhere(uintptr_t addr)
{
#ifdef HL_TSAN
	(void)addr;
	return others_hold_blocks(); /* it would see the reading as a race */
#else
	for (struct table *t = atomic_load_explicit(&tables, memory_order_acquire);
	     t; t = t->next)
		if (t != mine &&
		    atomic_load_explicit(&t->used, memory_order_acquire) &&
		    held_by(t, addr))
			return true;
	return false;
#endif
}

bool reg_host_local_publish(uintptr_t wanted)
{
	bool moved = false;

	if (!others_hold_blocks())
		return false;
	hg_spin_lock(&pub_lock);
	flag_others(true);
	for (struct table *t = atomic_load(&tables); t; t = t->next)
		if (t != mine && atomic_load_explicit(&t->want, memory_order_relaxed))
			moved |= drain(t, wanted);
	unflag_others();
	hg_spin_unlock(&pub_lock);
	return moved;
}

size_t reg_host_local_count(void)
{
	size_t n = 0;

	for (struct table *t = atomic_load(&tables); t; t = t->next)
		n += atomic_load_explicit(&t->used, memory_order_acquire);
	return n;
}

/* No owner may be inside an operation when the child is made: its thread
 * will not exist there to finish it. */
void reg_host_local_fork_prepare(void)
{
	hg_spin_lock(&pub_lock);
	flag_others(false);
}

void reg_host_local_fork_parent(void)
{
	unflag_others();
	hg_spin_unlock(&pub_lock);
}

/* The other threads are gone: their blocks, still live in the child's copy
 * of the heap, join the shared table. */
void reg_host_local_fork_child(void)
{
	for (struct table *t = atomic_load(&tables); t; t = t->next) {
		if (t == mine)
			continue;
		drain(t, 0);
		t->shared_left = 0;
		t->vacant = true;
	}
	unflag_others();
	atomic_store_explicit(&fast, 0, memory_order_relaxed);
#ifndef HL_TSAN
	if (set_up && hg_os_barrier_register())
		atomic_store_explicit(&fast, 1, memory_order_relaxed);
#endif
	hg_spin_reset(&pub_lock);
}
