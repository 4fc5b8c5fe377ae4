/* SPDX-License-Identifier: MIT */
#include "reg_host_local.h"

#include <pthread.h>
#include <stdatomic.h>

#include "hg_events.h"
#include "hg_spin.h"
#include "hg_os.h"
#include "reg_host_fast.h"

/* The back table: blocks whose front slot another block holds. */
#define CAP_BITS 11
#define CAP (1u << CAP_BITS)
#define MASK (CAP - 1)
/* Half full at most, so a probe always meets an empty slot soon. */
#define MAX_LIVE (CAP / 2)
/* After another thread freed one of its blocks, a thread's next blocks go
 * straight to the shared table, so a producer handing blocks to a consumer
 * pays a lock a block rather than a system call a block. */
#define SHARED_SPAN 4096u

#define ADDR(key) REG_HOST_KEY_ADDR(key)

struct table {
	atomic_uint used;      /* back blocks; read without the handshake */
	atomic_uint seq;       /* odd while slots move: see held_by() */
	unsigned shared_left;  /* under the handshake */
	bool vacant;	       /* under pub_lock: its thread has exited */
	struct table *_Atomic next;
	struct reg_host_front *front; /* in the same mapping, after slots */
	struct reg_host_slot slots[CAP];
};

#define FRONT_OFFSET ((sizeof(struct table) + 63) & ~(size_t)63)
#define TABLE_BYTES                                                            \
	(FRONT_OFFSET + sizeof(struct reg_host_front) +                        \
	 REG_HOST_FRONT * sizeof(struct reg_host_fslot))

/* Serialises movers, thread exits and fork; never taken by an owner's
 * insert or remove. */
static hg_spin_t pub_lock = HG_SPIN_INIT;
static struct table *_Atomic tables;
/* Odd while a drain moves blocks to the shared table: a lookup that read
 * neither side in time learns it and looks again. */
static unsigned long drain_seq;
static bool set_up;
static pthread_key_t exit_key;
static bool have_key;

/* What a thread without a table of its own enters: always wanted, so the
 * inline paths fall through to the ones below. */
static struct reg_host_front placeholder = {.want = REG_HOST_WANT};

__thread struct reg_host_front *reg_host_mine
	__attribute__((tls_model("initial-exec"))) = &placeholder;
size_t reg_host_fast_max;
/* Movers can fence every thread (hg_os_barrier): owners need not. */
static int fenceless;

#define DEAD ((struct table *)1) /* this thread has passed its exit handler */
static __thread struct table *mine __attribute__((tls_model("initial-exec")));

static inline struct table *own(void)
{
	return (uintptr_t)mine > (uintptr_t)DEAD ? mine : NULL;
}

static inline bool enter(struct table *t)
{
	return reg_host_fast_enter(t->front, REG_HOST_WANT);
}

static inline void leave(struct table *t)
{
	reg_host_fast_leave(t->front);
}

/* For lookups, which must see the blocks a mover is carrying away. */
static void enter_waiting(struct table *t)
{
	while (!enter(t))
		while (__atomic_load_n(&t->front->want, __ATOMIC_ACQUIRE) &
		       REG_HOST_WANT)
			__builtin_ia32_pause();
}

static unsigned class_of(uint8_t api)
{
	if (api == HG_API_NEW)
		return REG_HOST_BY_DELETE;
	if (api == HG_API_NEW_ARRAY)
		return REG_HOST_BY_DELETE_ARR;
	return REG_HOST_BY_FREE;
}

/* --- the front ------------------------------------------------------- */

static struct reg_host_fslot *front_find(struct table *t, uintptr_t addr)
{
	struct reg_host_fslot *s = reg_host_fast_slot(t->front, addr);

	return s->key && ADDR(s->key) == addr ? s : NULL;
}

static void front_to_slot(const struct reg_host_fslot *f,
			  struct reg_host_slot *s)
{
	s->addr = ADDR(f->key);
	s->meta = f->meta;
	s->site = f->site;
	s->id = f->key & REG_HOST_KEY_TRACED ? f->id : 0;
}

static void front_unpack(const struct reg_host_fslot *f,
			 struct reg_host_block *out)
{
	struct reg_host_slot s;

	front_to_slot(f, &s);
	reg_host_slot_unpack(&s, out);
}

static void front_fill(struct reg_host_fslot *f, uintptr_t addr,
		       uint64_t meta, uintptr_t site)
{
	f->key = REG_HOST_KEY(addr) | REG_HOST_KEY_USED | class_of((uint8_t)meta);
	f->meta = meta;
	f->site = site;
}

static void front_clear(struct table *t, struct reg_host_fslot *f)
{
	f->key = 0;
	reg_host_fast_count(t->front, -1);
}

/* --- the back table ---------------------------------------------------- */

static inline uint32_t home_of(uintptr_t a)
{
	return (uint32_t)(((a >> 4) * 0x9e3779b97f4a7c15ull) >> (64 - CAP_BITS));
}

static struct reg_host_slot *probe(struct table *t, uintptr_t addr)
{
	if (!atomic_load_explicit(&t->used, memory_order_relaxed))
		return NULL;
	for (uint32_t i = home_of(addr);; i = (i + 1) & MASK) {
		struct reg_host_slot *s = &t->slots[i];

		if (s->addr == addr)
			return s;
		if (!s->addr)
			return NULL;
	}
}

/* An address already here was freed unseen: replaced. */
static bool put(struct table *t, const struct reg_host_slot *src)
{
	uint32_t i = home_of(src->addr);
	unsigned used = atomic_load_explicit(&t->used, memory_order_relaxed);

	if (used >= MAX_LIVE) /* full: no probe through its clusters */
		return false;
	while (t->slots[i].addr && t->slots[i].addr != src->addr)
		i = (i + 1) & MASK;
	if (!t->slots[i].addr)
		atomic_store_explicit(&t->used, used + 1, memory_order_relaxed);
	t->slots[i] = *src;
	return true;
}

/* Slots move only between these two (an eviction, an erase, a drain), so
 * that a thread reading the table without the handshake knows whether it
 * read it whole. */
#ifndef REG_HOST_TSAN
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

/* Linear probing's deletion without tombstones: later members of the
 * cluster whose home is not between the hole and themselves move up. */
static void erase(struct table *t, uint32_t i)
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

static unsigned live_of(struct table *t)
{
	return atomic_load_explicit(&t->used, memory_order_acquire) +
	       (unsigned)__atomic_load_n(&t->front->live, __ATOMIC_ACQUIRE);
}

/* Into the shared table, by whoever holds the table: a mover after the
 * handshake, its owner at exit, or the child after fork. */
static bool drain(struct table *t, uintptr_t wanted)
{
	struct reg_host_front *f = t->front;
	bool hit = false;

	if (!live_of(t))
		return false;
	__atomic_fetch_add(&drain_seq, 1, __ATOMIC_SEQ_CST);
	moving(t);
	for (uint32_t i = 0; i < REG_HOST_FRONT && f->live; i++) {
		struct reg_host_slot s;

		if (!f->slot[i].key)
			continue;
		front_to_slot(&f->slot[i], &s);
		hit |= s.addr == wanted;
		reg_host_shared_put(&s); /* on failure it goes untracked */
		f->slot[i].key = 0;
		reg_host_fast_count(f, -1);
	}
	for (uint32_t i = 0; i < CAP; i++) {
		struct reg_host_slot *s = &t->slots[i];

		if (!s->addr)
			continue;
		hit |= s->addr == wanted;
		reg_host_shared_put(s);
		s->addr = 0;
	}
	moved(t);
	atomic_store_explicit(&t->used, 0, memory_order_release);
	__atomic_fetch_add(&drain_seq, 1, __ATOMIC_SEQ_CST);
	if (hit) {
		t->shared_left = SHARED_SPAN;
		__atomic_fetch_or(&f->want, REG_HOST_DIVERT, __ATOMIC_SEQ_CST);
	}
	return true;
}

/* --- a thread's table ------------------------------------------------ */

static void on_thread_exit(void *arg)
{
	struct table *t = arg;

	hg_spin_lock(&pub_lock);
	drain(t, 0);
	t->shared_left = 0;
	__atomic_fetch_and(&t->front->want, ~REG_HOST_DIVERT,
			   __ATOMIC_SEQ_CST);
	t->vacant = true;
	hg_spin_unlock(&pub_lock);
	mine = DEAD;
	reg_host_mine = &placeholder;
}

/* Once per process, under pub_lock. */
static void set_up_once(void)
{
	if (set_up)
		return;
	set_up = true;
	have_key = pthread_key_create(&exit_key, on_thread_exit) == 0;
#ifndef REG_HOST_TSAN
	if (hg_os_barrier_register())
		__atomic_store_n(&fenceless, 1, __ATOMIC_RELAXED);
#endif
}

/* Whether t's owner must fence, as the process now stands. */
static void mark_fence(struct table *t)
{
	if (__atomic_load_n(&fenceless, __ATOMIC_RELAXED))
		__atomic_fetch_and(&t->front->want, ~REG_HOST_FENCE,
				   __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_or(&t->front->want, REG_HOST_FENCE,
				  __ATOMIC_SEQ_CST);
}

static struct table *new_table(void)
{
	struct table *t = hg_os_alloc(TABLE_BYTES);

	if (t)
		t->front = (struct reg_host_front *)((char *)t + FRONT_OFFSET);
	return t;
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
	} else if ((t = new_table())) {
		t->next = atomic_load(&tables);
		atomic_store_explicit(&tables, t, memory_order_release);
	}
	hg_spin_unlock(&pub_lock);
	if (!t)
		return NULL;
	mark_fence(t);
	mine = t;
	reg_host_mine = t->front;
	if (have_key)
		pthread_setspecific(exit_key, t);
	return t;
}

static __attribute__((noinline)) bool to_shared(uintptr_t addr, uint64_t meta,
						uintptr_t site)
{
	struct reg_host_slot s = {addr, meta, site, 0};

	return reg_host_shared_put(&s);
}

/* The front slot is another block's: it goes to the back table, so that
 * the newest blocks, the likeliest to be freed next, stay in front. */
static bool evict(struct table *t, struct reg_host_fslot *f, uintptr_t addr,
		  uint64_t meta, uintptr_t site)
{
	struct reg_host_slot old;
	bool ok;

	front_to_slot(f, &old);
	moving(t);
	ok = put(t, &old);
	if (ok)
		front_fill(f, addr, meta, site);
	moved(t);
	return ok;
}

/* Whatever the inline path left (no table yet, the slot taken, a mover
 * waiting, blocks diverted), and the same as it where it would do: the
 * hooks come here only once it said no. */
bool reg_host_local_put(uintptr_t addr, uint64_t meta, uintptr_t site)
{
	struct table *t = own();
	struct reg_host_fslot *f;
	bool ok = true;

	if (!t && !(t = claim()))
		return to_shared(addr, meta, site);
	if (!enter(t))
		return to_shared(addr, meta, site);
	if (t->shared_left) {
		if (--t->shared_left == 0)
			__atomic_fetch_and(&t->front->want, ~REG_HOST_DIVERT,
			   __ATOMIC_SEQ_CST);
		leave(t);
		return to_shared(addr, meta, site);
	}
	f = reg_host_fast_slot(t->front, addr);
	if (!f->key) {
		front_fill(f, addr, meta, site);
		reg_host_fast_count(t->front, 1);
	} else if (ADDR(f->key) == addr) { /* freed unseen, then reused */
		front_fill(f, addr, meta, site);
	} else {
		ok = evict(t, f, addr, meta, site);
	}
	leave(t);
	return ok || to_shared(addr, meta, site);
}

/* This thread's table, entered for a lookup; NULL if it has none. */
static struct table *own_entered(void)
{
	struct table *t = own();

	if (t)
		enter_waiting(t);
	return t;
}

enum own_op { OWN_GET, OWN_TAKE, OWN_SET_ID };

/* One lookup in this thread's table, front then back, and what to do with
 * the block it finds: read it, take it out, or mark it traced under id. */
static bool own_block(uintptr_t addr, enum own_op op,
		      struct reg_host_block *out, uint64_t id)
{
	struct table *t = own_entered();
	struct reg_host_fslot *f;
	struct reg_host_slot *s = NULL;

	if (!t)
		return false;
	if ((f = front_find(t, addr))) {
		if (op == OWN_SET_ID) {
			f->id = id;
			f->key |= REG_HOST_KEY_TRACED;
		} else {
			front_unpack(f, out);
			if (op == OWN_TAKE)
				front_clear(t, f);
		}
	} else if ((s = probe(t, addr))) {
		if (op == OWN_SET_ID) {
			s->id = id;
		} else {
			reg_host_slot_unpack(s, out);
			if (op == OWN_TAKE)
				erase(t, (uint32_t)(s - t->slots));
		}
	}
	leave(t);
	return f || s;
}

bool reg_host_local_take(uintptr_t addr, struct reg_host_block *out)
{
	return own_block(addr, OWN_TAKE, out, 0);
}

static bool plain_for(uint64_t meta, uint64_t plain)
{
	uint8_t api = (uint8_t)meta;

	return api < 64 && (plain >> api & 1);
}

int reg_host_local_drop(uintptr_t addr, uint64_t plain)
{
	struct table *t = own();
	struct reg_host_fslot *f;
	struct reg_host_slot *s;
	int r = -1;

	if (!t)
		return -1;
	if (!enter(t))
		return 0; /* being moved: the out-of-line path will see */
	if ((f = front_find(t, addr))) {
		r = !(f->key & REG_HOST_KEY_TRACED) && plain_for(f->meta, plain);
		if (r)
			front_clear(t, f);
	} else if ((s = probe(t, addr))) {
		r = !s->id && plain_for(s->meta, plain);
		if (r)
			erase(t, (uint32_t)(s - t->slots));
	}
	leave(t);
	return r;
}

bool reg_host_local_get(uintptr_t addr, struct reg_host_block *out)
{
	return own_block(addr, OWN_GET, out, 0);
}

bool reg_host_local_set_id(uintptr_t addr, uint64_t id)
{
	return own_block(addr, OWN_SET_ID, NULL, id);
}

/* --- other threads' tables ------------------------------------------- */

/* The mover's half: flag every other table, one barrier for all of them,
 * then wait for each owner to be out of its operation. */
static void flag_others(bool nonempty_only)
{
	int flagged = 0;

	for (struct table *t = atomic_load(&tables); t; t = t->next) {
		if (t == mine || (nonempty_only && !live_of(t)))
			continue;
		__atomic_fetch_or(&t->front->want, REG_HOST_WANT,
				  __ATOMIC_SEQ_CST);
		flagged++;
	}
	if (flagged && __atomic_load_n(&fenceless, __ATOMIC_RELAXED))
		hg_os_barrier();
	for (struct table *t = atomic_load(&tables); t; t = t->next)
		if (t != mine && (__atomic_load_n(&t->front->want,
						  __ATOMIC_RELAXED) &
				  REG_HOST_WANT))
			while (__atomic_load_n(&t->front->busy, __ATOMIC_SEQ_CST))
				__builtin_ia32_pause();
}

static void unflag_others(void)
{
	for (struct table *t = atomic_load(&tables); t; t = t->next)
		if (t != mine)
			__atomic_fetch_and(&t->front->want, ~REG_HOST_WANT,
					   __ATOMIC_SEQ_CST);
}

static bool others_hold_blocks(void)
{
	for (struct table *t = atomic_load_explicit(&tables, memory_order_acquire);
	     t; t = t->next)
		if (t != mine && live_of(t))
			return true;
	return false;
}

#ifndef REG_HOST_TSAN
static bool back_holds(struct table *t, uintptr_t addr)
{
	uint32_t i = home_of(addr);

	for (uint32_t n = 0; n < CAP; n++, i = (i + 1) & MASK) {
		uintptr_t a = __atomic_load_n(&t->slots[i].addr, __ATOMIC_RELAXED);

		if (!a)
			return false;
		if (a == addr)
			return true;
	}
	return false;
}

/* Whether t holds a block starting in [lo, hi], read as its owner writes
 * it: true when unsure.  A front slot is one word, read whole; blocks
 * that move between slots do so inside the sequence count. */
static bool back_holds_range(struct table *t, uintptr_t lo, uintptr_t hi)
{
	for (uint32_t i = 0; i < CAP; i++) {
		uintptr_t a = __atomic_load_n(&t->slots[i].addr, __ATOMIC_RELAXED);

		if (a >= lo && a <= hi)
			return true;
	}
	return false;
}

static bool held_by(struct table *t, uintptr_t lo, uintptr_t hi)
{
	unsigned seq = atomic_load_explicit(&t->seq, memory_order_acquire);
	bool back = atomic_load_explicit(&t->used, memory_order_relaxed) != 0;
	bool found = false;

	if (seq & 1)
		return true;
	/* A wide range (a lookup nothing answered) reads the back table
	 * through once rather than probing it for every start. */
	if (back && (hi - lo) / 16 >= CAP) {
		found = back_holds_range(t, lo, hi);
		back = false;
	}
	for (uintptr_t a = hi; !found && a >= lo && a; a -= 16) {
		uintptr_t key = __atomic_load_n(&reg_host_fast_slot(t->front, a)->key,
						__ATOMIC_RELAXED);

		found = (key && ADDR(key) == a) || (back && back_holds(t, a));
	}
	atomic_thread_fence(memory_order_acquire);
	return found ||
	       atomic_load_explicit(&t->seq, memory_order_relaxed) != seq;
}
#endif

unsigned long reg_host_local_drains(void)
{
	return __atomic_load_n(&drain_seq, __ATOMIC_SEQ_CST);
}

bool reg_host_local_elsewhere(uintptr_t lo, uintptr_t hi)
{
#ifdef REG_HOST_TSAN
	(void)lo;
	(void)hi;
	return others_hold_blocks(); /* it would see the reading as a race */
#else
	lo &= ~(uintptr_t)15;
	hi &= ~(uintptr_t)15;
	for (struct table *t = atomic_load_explicit(&tables, memory_order_acquire);
	     t; t = t->next)
		if (t != mine && live_of(t) && held_by(t, lo, hi))
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
		if (t != mine && (__atomic_load_n(&t->front->want,
						  __ATOMIC_RELAXED) &
				  REG_HOST_WANT))
			moved |= drain(t, wanted);
	unflag_others();
	hg_spin_unlock(&pub_lock);
	return moved;
}

size_t reg_host_local_count(void)
{
	size_t n = 0;

	for (struct table *t = atomic_load(&tables); t; t = t->next)
		n += live_of(t);
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
		__atomic_fetch_and(&t->front->want, ~REG_HOST_DIVERT,
			   __ATOMIC_SEQ_CST);
		t->vacant = true;
	}
	unflag_others();
	__atomic_store_n(&fenceless, 0, __ATOMIC_RELAXED);
#ifndef REG_HOST_TSAN
	if (set_up && hg_os_barrier_register())
		__atomic_store_n(&fenceless, 1, __ATOMIC_RELAXED);
#endif
	if (own())
		mark_fence(mine);
	hg_spin_reset(&pub_lock);
}
