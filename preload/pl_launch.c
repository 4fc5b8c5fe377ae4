/* SPDX-License-Identifier: MIT */
/*
 * A launch: which allocation every pointer argument reaches.  The layout of
 * the arguments comes from the kernel's code object (pl_profile.c); the
 * values come from the args array (or the `extra` kernarg buffer), which the
 * launch API's contract tells us is valid for the duration of the call.
 *
 * Solvers launch a handful of kernels on a handful of buffers thousands of
 * times, in turn.  Writing each launch would make LTTng's per-event cost the
 * program's: on a 2-core VM one event costs about as much as the launch.
 * So each thread keeps the patterns it has written lately (slots): a launch
 * equivalent to one of them, for every rule the report applies (same
 * kernel, API, stream and return code; every pointer argument in the same
 * allocation, of the same memory class and granularity from the pointer
 * on), is only counted.  The first launch of a pattern is always written at
 * once, so a crash loses counts, never a hazard.  Counts are written as the
 * `repeat` of a copy of their pattern's event before the thread frees,
 * advises, prefetches or unloads a module, when the slot is reused, and at
 * thread or process exit.  A count written after another thread freed the block is still
 * read right: the event names the allocation id resolved at launch time.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_kernel.h"
#include "pl_profile.h"
#include "pl_warn.h"
#include "reg_dev.h"
#include "reg_emit.h"
#include "reg_kernel.h"
#include "reg_lock.h"
#include "reg_track.h"

/* hip_runtime_api.h's HIP_LAUNCH_PARAM_* markers in the `extra` array. */
#define PARAM_BUFFER_POINTER ((void *)0x01)
#define PARAM_BUFFER_SIZE ((void *)0x02)
#define PARAM_END ((void *)0x03)

/* Patterns remembered per thread: more than a Krylov solver's kernels. */
#define SLOTS 16

extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

struct kernarg {
	const unsigned char *buf;
	size_t size;
};

/* A launch as read from the call, before resolving. */
struct raw {
	struct hg_tp_launch ev;
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR];
};

/* A pattern: the event its first launch wrote, and launches counted since. */
struct slot {
	struct hg_tp_launch ev;
	uint64_t key; /* hash of what makes launches equivalent */
	uint32_t pending;
	int gpu_only; /* every argument in a GPU range: see same_values() */
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR], id[REG_KMAX_PTR], off[REG_KMAX_PTR];
	uint8_t mem[REG_KMAX_PTR], gran[REG_KMAX_PTR];
	/* The event's words: its head, then each argument's. */
	uint64_t packed[HG_LAUNCH_HEAD + HG_LAUNCH_WORDS * REG_KMAX_PTR];
};

/* Every thread's memo is on one list, so that exit writes the counts of
 * threads that never end (pools, OpenMP workers); the memo's own lock is
 * taken by its thread around each launch, uncontended but for that. */
struct memo {
	reg_lock_t lock;
	struct memo *link;
	struct slot pool[SLOTS + 1];
	struct slot *slot[SLOTS]; /* patterns, in pool; resolved in place: */
	struct slot *spare;	  /* a launch is resolved here first */
	unsigned used, next;   /* slots filled; the next one to reuse */
	struct reg_kernel *k;  /* the last launch's kernel */
	struct slot *last;     /* ... its pattern, */
	uint64_t last_val[REG_KMAX_PTR]; /* ... argument values */
	uint64_t last_gen;     /* ... and reg_dev_generation() then */
};

static __thread struct memo *memo __attribute__((tls_model("initial-exec")));
static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;
static reg_lock_t memos_lock = REG_LOCK_INIT;
static struct memo *memos;

static void write_pending(struct slot *s)
{
	if (!s->pending)
		return;
	s->ev.repeat = s->pending;
	s->pending = 0;
	reg_emit_launch(&s->ev);
}

static void flush(struct memo *m)
{
	reg_lock(&m->lock);
	for (unsigned i = 0; i < m->used; i++)
		write_pending(m->slot[i]);
	reg_unlock(&m->lock);
}

void pl_launch_flush(void)
{
	if (memo)
		flush(memo);
}

void pl_launch_flush_all(void)
{
	reg_lock(&memos_lock);
	for (struct memo *m = memos; m; m = m->link)
		flush(m);
	reg_unlock(&memos_lock);
}

/* In a forked child only this thread goes on: the other memos are the
 * parent's (their locks may even be held), and so are this one's counts. */
void pl_launch_forget(void)
{
	struct memo *m = memo;

	reg_lock_reset(&memos_lock);
	memos = m;
	if (!m)
		return;
	reg_lock_reset(&m->lock);
	m->link = NULL;
	for (unsigned i = 0; i < m->used; i++)
		m->slot[i]->pending = 0;
}

static void thread_gone(void *p)
{
	struct memo *m = p, **at;

	reg_lock(&memos_lock);
	for (at = &memos; *at && *at != m; at = &(*at)->link)
		;
	if (*at)
		*at = m->link;
	reg_unlock(&memos_lock);
	pl_depth++;
	flush(m);
	pl_depth--;
	memo = NULL;
	__libc_free(m);
}

static void make_key(void)
{
	pthread_key_create(&memo_key, thread_gone);
}

static struct memo *my_memo(void)
{
	if (!memo) {
		pthread_once(&memo_once, make_key);
		memo = __libc_calloc(1, sizeof(*memo));
		if (memo) {
			for (unsigned i = 0; i < SLOTS; i++)
				memo->slot[i] = &memo->pool[i];
			memo->spare = &memo->pool[SLOTS];
			pthread_setspecific(memo_key, memo);
			reg_lock(&memos_lock);
			memo->link = memos;
			memos = memo;
			reg_unlock(&memos_lock);
		}
	}
	return memo;
}

static struct kernarg from_extra(void **extra)
{
	struct kernarg ka = {NULL, 0};

	for (int i = 0; extra && i < 16 && extra[i] != PARAM_END; i += 2) {
		if (extra[i] == PARAM_BUFFER_POINTER)
			ka.buf = extra[i + 1];
		else if (extra[i] == PARAM_BUFFER_SIZE && extra[i + 1])
			memcpy(&ka.size, extra[i + 1], sizeof(ka.size));
		else
			break; /* a marker we do not know: stop reading */
	}
	if (!ka.buf)
		ka.size = 0;
	return ka;
}

static struct reg_kernel *profiled(const void *handle, struct memo *m)
{
	struct reg_kernel *k;
	int expected = 0;

	if (m && m->k && m->k->handle == (uintptr_t)handle)
		return m->k;
	k = reg_kernel_get((uintptr_t)handle);
	if (!k)
		return NULL;
	if (atomic_compare_exchange_strong(&k->state, &expected, 1)) {
		pl_profile_kernel(k);
		atomic_store(&k->state, 2);
	}
	while (atomic_load(&k->state) != 2)
		sched_yield(); /* another thread reads the code object */
	if (m)
		m->k = k;
	return k;
}

/* The pointer arguments' values; returns how many could be read.  `nargs`
 * bounds the args array when the caller built it (SIZE_MAX otherwise: a HIP
 * launch's array holds every explicit argument by contract). */
static uint16_t read_args(const struct reg_kernel *k, void **args,
			  size_t nargs, void **extra, uint16_t *idx,
			  uint64_t *val)
{
	struct kernarg ka = args ? (struct kernarg){NULL, 0} : from_extra(extra);
	uint16_t n = 0;

	for (int i = 0; i < k->nptr; i++) {
		if (args && k->ptr_index[i] >= nargs)
			continue;
		if (args && args[k->ptr_index[i]])
			memcpy(&val[n], args[k->ptr_index[i]], sizeof(*val));
		else if (!args && ka.buf &&
			 k->ptr_offset[i] + sizeof(*val) <= ka.size)
			memcpy(&val[n], ka.buf + k->ptr_offset[i], sizeof(*val));
		else
			continue;
		idx[n++] = k->ptr_index[i];
	}
	return n;
}

static int gpu_memory(uint8_t mem)
{
	return mem >= HG_MEM_DEVICE && mem <= HG_MEM_HOST_REGISTERED;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static void pack(uint64_t *w, uint16_t idx, uint64_t val, const struct reg_ptr *p)
{
	w[0] = val, w[1] = p->id, w[2] = p->off;
	w[3] = idx | (uint64_t)p->mem << 16 | (uint64_t)p->gran << 24;
}

/* Resolve r's arguments into s and key the pattern.  A pointer the registry
 * does not know is keyed by its value: use-after-free needs each one. */
static void resolve(struct slot *s, const struct raw *r)
{
	struct reg_ptr p[REG_KMAX_PTR];
	uint64_t h = mix(mix(mix(0xcbf29ce484222325ull, r->ev.handle),
			     r->ev.stream),
			 (uint64_t)r->ev.api << 48 ^ (uint32_t)r->ev.rc ^
				 (uint64_t)r->ev.nptr << 32);

	s->ev = r->ev;
	s->ev.words = s->packed;
	s->ev.nwords = (uint16_t)(r->ev.nptr * HG_LAUNCH_WORDS);
	s->ev.repeat = 1;
	s->gpu_only = 1;
	reg_track_resolve_n(r->val, r->ev.nptr, p);
	for (int i = 0; i < r->ev.nptr; i++) {
		s->idx[i] = r->idx[i], s->val[i] = r->val[i];
		s->id[i] = p[i].id, s->off[i] = p[i].off;
		s->mem[i] = p[i].mem, s->gran[i] = p[i].gran;
		pack(&s->packed[HG_LAUNCH_HEAD + i * HG_LAUNCH_WORDS], r->idx[i],
		     r->val[i], &p[i]);
		s->gpu_only &= gpu_memory(p[i].mem);
		h = mix(mix(h, p[i].id ? p[i].id : r->val[i]),
			(uint64_t)r->idx[i] << 16 | p[i].mem << 8 | p[i].gran);
	}
	s->key = h;
}

static int equivalent(const struct slot *a, const struct slot *b)
{
	if (a->key != b->key || a->ev.handle != b->ev.handle ||
	    a->ev.stream != b->ev.stream || a->ev.api != b->ev.api ||
	    a->ev.rc != b->ev.rc || a->ev.nptr != b->ev.nptr)
		return 0;
	for (int i = 0; i < a->ev.nptr; i++)
		if (a->idx[i] != b->idx[i] || a->id[i] != b->id[i] ||
		    a->mem[i] != b->mem[i] || a->gran[i] != b->gran[i] ||
		    (!a->id[i] && a->val[i] != b->val[i]))
			return 0;
	return 1;
}

/* The same values as the last launch, into GPU ranges that have not
 * changed since: the same pattern, without resolving again.  Host blocks
 * come and go without a generation, so they are always resolved. */
static int same_values(const struct memo *m, const struct raw *r)
{
	const struct slot *s = m->last;

	return s && s->gpu_only && s->ev.handle == r->ev.handle &&
	       s->ev.stream == r->ev.stream && s->ev.api == r->ev.api &&
	       s->ev.rc == r->ev.rc && s->ev.nptr == r->ev.nptr &&
	       !memcmp(s->idx, r->idx, r->ev.nptr * sizeof(*r->idx)) &&
	       !memcmp(m->last_val, r->val, r->ev.nptr * sizeof(*r->val)) &&
	       m->last_gen == reg_dev_generation();
}

/* What same_values() compares the next launch with. */
static void set_last(struct memo *m, struct slot *s, const struct raw *r,
		     uint64_t gen)
{
	m->last = s;
	m->last_gen = gen;
	memcpy(m->last_val, r->val, r->ev.nptr * sizeof(*r->val));
}

static void count(struct memo *m, struct slot *s, const struct raw *r,
		  uint64_t gen)
{
	if (s->pending == UINT32_MAX)
		write_pending(s);
	s->pending++;
	set_last(m, s, r, gen);
}

static void warn(const struct reg_kernel *k, const struct slot *s)
{
	if (!k || !pl_warn_wanted(k))
		return;
	for (int i = 0; i < s->ev.nptr; i++)
		pl_warn_launch(k, s->idx[i], s->id[i], s->mem[i], s->gran[i]);
}

/* The spare, resolved: counted against its pattern, or written as a new
 * one that takes the next slot (whose counts are written first). */
static void launch_pattern(struct memo *m, struct reg_kernel *k,
			   const struct raw *r, uint64_t gen)
{
	struct slot *s = m->spare;

	for (unsigned i = 0; i < m->used; i++)
		if (equivalent(m->slot[i], s)) {
			count(m, m->slot[i], r, gen);
			return;
		}
	write_pending(m->slot[m->next]);
	m->spare = m->slot[m->next];
	m->slot[m->next] = s;
	m->next = (m->next + 1) % SLOTS;
	if (m->used < SLOTS)
		m->used++;
	s->pending = 0;
	reg_emit_launch(&s->ev);
	warn(k, s);
	set_last(m, s, r, gen);
}

static void launch(uint8_t api, int rc, const void *handle, dim3 grid,
		   dim3 block, void **args, size_t nargs, void **extra,
		   size_t shmem, hipStream_t stream)
{
	struct memo *m = my_memo();
	struct reg_kernel *k = profiled(handle, m);
	struct raw r; /* not zeroed: only the first nptr entries are read */
	uint64_t gen;

	r.ev = (struct hg_tp_launch){
		.handle = (uintptr_t)handle, .stream = (uintptr_t)stream,
		.grid = {grid.x, grid.y, grid.z},
		.block = {block.x, block.y, block.z},
		.shmem = (uint32_t)shmem, .rc = rc, .api = api,
	};
	if (!k) {
		uint64_t head[HG_LAUNCH_HEAD];

		/* Nothing to resolve, and each one is a warning of its own. */
		r.ev.words = head;
		reg_emit_warning(HG_WARN_UNKNOWN_KERNEL,
				 "launch of a kernel that was never registered");
		r.ev.repeat = 1;
		reg_emit_launch(&r.ev);
		return;
	}
	r.ev.nptr = read_args(k, args, nargs, extra, r.idx, r.val);
	if (!m) { /* no memory for a memo: write every launch */
		struct slot one;

		resolve(&one, &r);
		reg_emit_launch(&one.ev);
		warn(k, &one);
		return;
	}
	reg_lock(&m->lock);
	if (same_values(m, &r)) {
		count(m, m->last, &r, m->last_gen);
	} else {
		gen = reg_dev_generation(); /* before resolving: never too new */
		resolve(m->spare, &r);
		launch_pattern(m, k, &r, gen);
	}
	reg_unlock(&m->lock);
}

void pl_rec_launch(uint8_t api, hipError_t rc, const void *handle, dim3 grid,
		   dim3 block, void **args, void **extra, size_t shmem,
		   hipStream_t stream)
{
	launch(api, rc, handle, grid, block, args, SIZE_MAX, extra, shmem,
	       stream);
}

void pl_rec_launch_n(uint8_t api, int rc, const void *handle, dim3 grid,
		     dim3 block, void **args, size_t nargs)
{
	launch(api, rc, handle, grid, block, args, nargs, NULL, 0, NULL);
}

/* For a launch made later from values read now (a graph's kernel node). */
const struct reg_kernel *pl_launch_layout(const void *handle)
{
	return profiled(handle, NULL);
}

uint16_t pl_launch_read(const struct reg_kernel *k, void **args, void **extra,
			uint16_t *idx, uint64_t *val)
{
	return read_args(k, args, SIZE_MAX, extra, idx, val);
}

void pl_rec_launch_args(uint8_t api, int rc, const void *handle, dim3 grid,
			dim3 block, void **args, size_t nargs, size_t shmem,
			hipStream_t stream)
{
	launch(api, rc, handle, grid, block, args, nargs, NULL, shmem, stream);
}
