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

/* A pattern: the event its first launch wrote, and launches counted since.
 * The event's words are the pattern: per argument its value, allocation
 * id, offset, and index | mem << 16 | gran << 24 (hg_tp_types.h). */
struct slot {
	struct hg_tp_launch ev;
	uint32_t pending;
	int gpu_only; /* every argument in a GPU range: see same_values() */
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
	uint64_t key[SLOTS];      /* ... each one's hash of what makes
				     launches equivalent, */
	uint8_t keys_at[64];      /* ... and how many keys have each low 6
				     bits: a new pattern mostly finds 0 */
	struct slot *spare;	  /* a launch is resolved here first */
	unsigned used, next;   /* slots filled; the next one to reuse */
	unsigned counting;     /* slots with launches pending */
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

static void write_pending(struct memo *m, struct slot *s)
{
	if (!s->pending)
		return;
	s->ev.repeat = s->pending;
	s->pending = 0;
	m->counting--;
	reg_emit_launch(&s->ev);
}

/* Before every free: mostly nothing is pending. */
static void flush(struct memo *m)
{
	reg_lock(&m->lock);
	for (unsigned i = 0; m->counting && i < m->used; i++)
		write_pending(m, m->slot[i]);
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
	m->counting = 0;
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

static struct reg_kernel *profile(const void *handle, struct memo *m)
{
	struct reg_kernel *k;
	int expected = 0;

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

/* The kernel of the thread's last launch, mostly. */
static inline struct reg_kernel *profiled(const void *handle, struct memo *m)
{
	if (m && m->k && m->k->handle == (uintptr_t)handle)
		return m->k;
	return profile(handle, m);
}

/* The pointer arguments' values; returns how many could be read.  `nargs`
 * bounds the args array when the caller built it (SIZE_MAX otherwise: a HIP
 * launch's array holds every explicit argument by contract). */
static inline __attribute__((always_inline)) uint16_t
read_args(const struct reg_kernel *k, void **args, size_t nargs, void **extra,
	  uint16_t *idx, uint64_t *val)
{
	struct kernarg ka;
	uint16_t n = 0;

	if (args) {
		for (int i = 0; i < k->nptr; i++) {
			uint16_t at = k->ptr_index[i];

			if (at >= nargs || !args[at])
				continue;
			memcpy(&val[n], args[at], sizeof(*val));
			idx[n++] = at;
		}
		return n;
	}
	ka = from_extra(extra);
	for (int i = 0; i < k->nptr; i++) {
		if (!ka.buf || k->ptr_offset[i] + sizeof(*val) > ka.size)
			continue;
		memcpy(&val[n], ka.buf + k->ptr_offset[i], sizeof(*val));
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

/* An argument's words in the event. */
static const uint64_t *arg_words(const struct slot *s, int i)
{
	return &s->packed[HG_LAUNCH_HEAD + i * HG_LAUNCH_WORDS];
}

/* Resolve r's arguments into s; returns the pattern's key.  A pointer the
 * registry does not know is keyed by its value: use-after-free needs each
 * one. */
static uint64_t resolve(struct slot *s, const struct raw *r)
{
	struct reg_dev_hit p[REG_KMAX_PTR];
	uint64_t h = mix(mix(mix(0xcbf29ce484222325ull, r->ev.handle),
			     r->ev.stream),
			 (uint64_t)r->ev.api << 48 ^ (uint32_t)r->ev.rc ^
				 (uint64_t)r->ev.nptr << 32);
	int gpu_only = 1;

	s->ev = r->ev;
	s->ev.words = s->packed;
	s->ev.nwords = (uint16_t)(r->ev.nptr * HG_LAUNCH_WORDS);
	s->ev.repeat = 1;
	reg_track_resolve_n(r->val, r->ev.nptr, p);
	for (int i = 0; i < r->ev.nptr; i++) {
		uint64_t *w = &s->packed[HG_LAUNCH_HEAD + i * HG_LAUNCH_WORDS];
		uint64_t what = r->idx[i] | (uint64_t)p[i].mem << 16 |
				(uint64_t)p[i].gran << 24;

		w[0] = r->val[i], w[1] = p[i].id, w[2] = p[i].off, w[3] = what;
		gpu_only &= gpu_memory(p[i].mem);
		h = mix(h, (p[i].id ? p[i].id : r->val[i]) ^ what << 32);
	}
	s->gpu_only = gpu_only;
	return h;
}

/* Equivalent for every rule: the same allocation (or, for an unknown
 * pointer, the same value), index, memory class and granularity. */
static int equivalent(const struct slot *a, const struct slot *b)
{
	if (a->ev.handle != b->ev.handle || a->ev.stream != b->ev.stream ||
	    a->ev.api != b->ev.api || a->ev.rc != b->ev.rc ||
	    a->ev.nptr != b->ev.nptr)
		return 0;
	for (int i = 0; i < a->ev.nptr; i++) {
		const uint64_t *x = arg_words(a, i), *y = arg_words(b, i);

		if (x[1] != y[1] || x[3] != y[3] || (!x[1] && x[0] != y[0]))
			return 0;
	}
	return 1;
}

/* The same values as the last launch, into GPU ranges that have not
 * changed since: the same pattern, without resolving again.  Host blocks
 * come and go without a generation, so they are always resolved. */
static int same_values(const struct memo *m, const struct raw *r)
{
	const struct slot *s = m->last;

	if (!s || !s->gpu_only || s->ev.handle != r->ev.handle ||
	    s->ev.stream != r->ev.stream || s->ev.api != r->ev.api ||
	    s->ev.rc != r->ev.rc || s->ev.nptr != r->ev.nptr)
		return 0;
	for (int i = 0; i < r->ev.nptr; i++) /* a few: no memcmp call */
		if ((uint16_t)arg_words(s, i)[3] != r->idx[i] ||
		    m->last_val[i] != r->val[i])
			return 0;
	return m->last_gen == reg_dev_generation();
}

/* What same_values() compares the next launch with. */
static void set_last(struct memo *m, struct slot *s, const struct raw *r,
		     uint64_t gen)
{
	m->last = s;
	m->last_gen = gen;
	for (int i = 0; i < r->ev.nptr; i++)
		m->last_val[i] = r->val[i];
}

static void count(struct memo *m, struct slot *s, const struct raw *r,
		  uint64_t gen)
{
	if (s->pending == UINT32_MAX)
		write_pending(m, s);
	m->counting += s->pending == 0;
	s->pending++;
	set_last(m, s, r, gen);
}

static inline void warn(const struct reg_kernel *k, const struct slot *s)
{
	if (!k || !k->atomic_ops || !pl_warn_wanted(k)) /* atomics only */
		return;
	for (int i = 0; i < s->ev.nptr; i++) {
		const uint64_t *w = arg_words(s, i);

		pl_warn_launch(k, (uint16_t)w[3], w[1], (uint8_t)(w[3] >> 16),
			       (uint8_t)(w[3] >> 24));
	}
}

/* The spare, resolved: counted against its pattern, or written as a new
 * one that takes the next slot (whose counts are written first). */
static void launch_pattern(struct memo *m, struct reg_kernel *k,
			   const struct raw *r, uint64_t key, uint64_t gen)
{
	struct slot *s = m->spare;

	for (unsigned i = 0; m->keys_at[key & 63] && i < m->used; i++)
		if (m->key[i] == key && equivalent(m->slot[i], s)) {
			count(m, m->slot[i], r, gen);
			return;
		}
	write_pending(m, m->slot[m->next]);
	if (m->next < m->used)
		m->keys_at[m->key[m->next] & 63]--;
	m->keys_at[key & 63]++;
	m->spare = m->slot[m->next];
	m->slot[m->next] = s;
	m->key[m->next] = key;
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
		launch_pattern(m, k, &r, resolve(m->spare, &r), gen);
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
