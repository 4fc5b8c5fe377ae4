/* SPDX-License-Identifier: MIT */
/*
 * A launch: which allocation every pointer argument reaches.  The layout of
 * the arguments comes from the kernel's code object (pl_profile.c); the
 * values come from the args array (or the `extra` kernarg buffer), which the
 * launch API's contract tells us is valid for the duration of the call.
 *
 * Solvers launch a handful of kernels on a handful of buffers thousands of
 * times, in turn.  Writing each launch would make LTTng's per-event cost the
 * program's, and one event costs about as much as the launch itself.
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
#include <time.h>

#include "hg_events.h"
#include "hg_pack.h"
#include "pl_boot.h"
#include "pl_device.h"
#include "pl_launch.h"
#include "pl_stream.h"
#include "pl_profile.h"
#include "pl_warn.h"
#include "reg.h"
#include "hg_spin.h"
#include "hg_olock.h"
#include "reg_recent.h"

/* hip_runtime_api.h's HIP_LAUNCH_PARAM_* markers in the `extra` array. */
#define PARAM_BUFFER_POINTER ((void *)0x01)
#define PARAM_BUFFER_SIZE ((void *)0x02)
#define PARAM_END ((void *)0x03)

/* Patterns remembered per thread: more than a Krylov solver's kernels. */
#define SLOTS 16
_Static_assert(SLOTS <= 16, "slots_at holds a slot per bit");
_Static_assert(REG_KMAX_PTR <= 64, "resolve() keeps an argument per bit");

extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

struct kernarg {
	const unsigned char *buf;
	size_t size;
};

/* A pattern: the event its first launch wrote, and launches counted since.
 * The arguments' words are the pattern: per argument its value, allocation
 * id, offset, and index | mem << 16 | gran << 24 (hg_events.h).  A launch
 * is read and resolved straight into the spare slot, and its arguments
 * packed as they are resolved, after the room the emitter's head takes. */
struct slot {
	struct hg_tp_launch ev; /* ev.argb: in bytes, always */
	uint32_t pending;
	int in_ranges; /* every argument in a device range: same_values() */
	int unknown;   /* a pointer argument in no live block (resolve_far) */
	uint64_t packed[HG_LAUNCH_WORDS * REG_KMAX_PTR];
	uint8_t bytes[HG_TP_LAUNCH_ROOM + HG_PACK_ARG_MAX * REG_KMAX_PTR + 8];
};

/* Every thread's memo is on one list, so that exit writes the counts of
 * threads that never end (pools, OpenMP workers); the memo's own lock is
 * taken by its thread around each launch, uncontended but for that, which
 * is what hg_olock makes cheap. */
struct memo {
	hg_olock_t lock;
	struct memo *link;
	struct slot pool[SLOTS + 1];
	struct slot *slot[SLOTS]; /* patterns, in pool; resolved in place: */
	uint64_t key[SLOTS];      /* ... each one's hash of what makes
				     launches equivalent, */
	uint16_t slots_at[64];    /* ... and, by a key's low 6 bits, the
				     slots whose key has them: a new
				     pattern mostly finds none */
	struct slot *spare;	  /* a launch is resolved here first */
	unsigned used, next;   /* slots filled; the next one to reuse */
	unsigned counting;     /* slots with launches pending */
	struct reg_kernel *k;  /* the last launch's kernel */
	struct slot *last;     /* ... its pattern, */
	uint64_t last_val[REG_KMAX_PTR]; /* ... argument values (read_args) */
	uint64_t last_gen;     /* ... and reg_dev_generation() then */
};

static __thread struct memo *memo __attribute__((tls_model("initial-exec")));
static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;
static hg_spin_t memos_lock = HG_SPIN_INIT;
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

static void write_all_pending(struct memo *m)
{
	for (unsigned i = 0; m->counting && i < m->used; i++)
		write_pending(m, m->slot[i]);
}

/* By the memo's own thread, before every free: mostly nothing is pending. */
static void flush(struct memo *m)
{
	int locked = hg_olock_own(&m->lock);

	write_all_pending(m);
	hg_olock_disown(&m->lock, locked);
}

void pl_launch_flush(void)
{
	if (memo)
		flush(memo);
}

/* By whichever thread exits the process: other threads may be launching. */
void pl_launch_flush_all(void)
{
	hg_spin_lock(&memos_lock);
	for (struct memo *m = memos; m; m = m->link) {
		if (!hg_olock_visit(&m->lock))
			continue; /* its counts are lost, not its hazards */
		write_all_pending(m);
		hg_olock_leave(&m->lock);
	}
	hg_spin_unlock(&memos_lock);
}

/* Only a virtual GPU raises a fault from within the process: elsewhere a
 * launch pays nothing for the count. */
bool pl_launch_watched;
static unsigned in_flight;
static __thread unsigned mine __attribute__((tls_model("initial-exec")));

void pl_launch_begin(void)
{
	mine++;
	__atomic_add_fetch(&in_flight, 1, __ATOMIC_ACQ_REL);
}

void pl_launch_end(void)
{
	__atomic_sub_fetch(&in_flight, 1, __ATOMIC_ACQ_REL);
	mine--;
}

/* A launch waiting for room in a queue that will never drain would keep
 * the wait from ending: it is bounded, and the record then may lack it. */
#define SETTLE_TRIES 2000

void pl_launch_settle(void)
{
	const struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < SETTLE_TRIES &&
			__atomic_load_n(&in_flight, __ATOMIC_ACQUIRE) > mine; i++)
		nanosleep(&ms, NULL);
	pl_launch_flush_all();
}

/* In a forked child only this thread goes on: the other memos are the
 * parent's (their locks may even be held), and so are this one's counts. */
void pl_launch_forget(void)
{
	struct memo *m = memo;

	hg_spin_reset(&memos_lock);
	memos = m;
	if (!m)
		return;
	hg_olock_reset(&m->lock);
	m->link = NULL;
	for (unsigned i = 0; i < m->used; i++)
		m->slot[i]->pending = 0;
	m->counting = 0;
}

static void thread_gone(void *p)
{
	struct memo *m = p, **at;

	hg_spin_lock(&memos_lock);
	for (at = &memos; *at && *at != m; at = &(*at)->link)
		;
	if (*at)
		*at = m->link;
	hg_spin_unlock(&memos_lock);
	{
		PL_NESTED();

		flush(m);
	}
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
			hg_olock_start(&memo->lock);
			for (unsigned i = 0; i < SLOTS; i++)
				memo->slot[i] = &memo->pool[i];
			for (unsigned i = 0; i <= SLOTS; i++)
				memo->pool[i].ev.argb =
					memo->pool[i].bytes + HG_TP_LAUNCH_ROOM;
			memo->spare = &memo->pool[SLOTS];
			pthread_setspecific(memo_key, memo);
			hg_spin_lock(&memos_lock);
			memo->link = memos;
			memos = memo;
			hg_spin_unlock(&memos_lock);
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

/* An argument's words in the event. */
static inline uint64_t *arg_at(struct slot *s, int i)
{
	return &s->packed[i * HG_LAUNCH_WORDS];
}

static inline const uint64_t *arg_words(const struct slot *s, int i)
{
	return &s->packed[i * HG_LAUNCH_WORDS];
}

/* The pointer arguments' values and indexes, into the first and last word
 * of each argument's, and how many could be read into s->ev.  `nargs`
 * bounds the args array when the caller built it (SIZE_MAX otherwise: a
 * HIP launch's array holds every explicit argument by contract).  Each
 * value is also compared with, and then replaces, last[] (see
 * same_values): returns 0 when all were the same and none was skipped (a
 * skipped argument moves the indexes of those after it). */
static inline __attribute__((always_inline)) uint64_t
read_args(const struct reg_kernel *k, void **args, size_t nargs, void **extra,
	  struct slot *s, uint64_t *last)
{
	struct kernarg ka;
	uint64_t d = 0, *w = arg_at(s, 0), v;
	unsigned n = 0;
	int np = k->nptr; /* not read again: our stores may alias it */

	if (args) {
		for (int i = 0; i < np; i++) {
			uint16_t at = k->ptr_index[i];

			if (at >= nargs || !args[at]) {
				d = 1;
				continue;
			}
			memcpy(&v, args[at], sizeof(v));
			w[0] = v, w[3] = at;
			w += HG_LAUNCH_WORDS;
			d |= last[n] ^ v;
			last[n++] = v;
		}
		goto done;
	}
	ka = from_extra(extra);
	for (int i = 0; i < np; i++) {
		if (!ka.buf || k->ptr_offset[i] + sizeof(v) > ka.size) {
			d = 1;
			continue;
		}
		memcpy(&v, ka.buf + k->ptr_offset[i], sizeof(v));
		w[0] = v, w[3] = k->ptr_index[i];
		w += HG_LAUNCH_WORDS;
		d |= last[n] ^ v;
		last[n++] = v;
	}
done:
	s->ev.nptr = (uint16_t)n;
	return d;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

/* What makes launches equivalent (see equivalent()), hashed: the kernel,
 * stream, API, return code and count, then per argument the allocation
 * (for a pointer the registry does not know, the value: use-after-free
 * needs each one), index, memory class and granularity. */
static inline uint64_t head_key(const struct slot *s)
{
	return mix(mix(mix(0xcbf29ce484222325ull, s->ev.handle), s->ev.stream),
		   (uint64_t)s->ev.api << 48 ^ (uint32_t)s->ev.rc ^
			   (uint64_t)s->ev.nptr << 32);
}

static inline uint64_t arg_key(uint64_t id, uint64_t val, uint64_t what)
{
	uint64_t x = ((id ? id : val) ^ what << 32) * 0x9e3779b97f4a7c15ull;

	return x ^ x >> 29;
}

/* An argument the thread's table of ranges did not hold (mostly a buffer
 * allocated by another thread), under the registry's lock: resolved and
 * packed at p; returns the end of its bytes. */
static __attribute__((noinline)) void
resolve_far(struct slot *s, uint64_t *w, struct hg_argpack *ap,
	    unsigned *next)
{
	struct reg_dev_hit hit;
	uint64_t c, where;

	reg_track_resolve_far(w[0], &hit);
	w[1] = hit.id, w[2] = hit.off;
	w[3] |= (uint64_t)hit.mem << 16 | (uint64_t)hit.gran << 24;
	s->in_ranges &= hit.found;
	s->unknown |= w[0] && !w[1];
	c = hg_pack_v5_codes(w[3], next);
	where = w[1] ? w[2] : w[0];
	hg_argpack_put(ap, w[1], hg_pack_len63(w[1]), where, hg_pack_len(where),
		       c, hg_pack_len63(c));
}

/* Resolve the spare's arguments in place, from the thread's table of
 * ranges where it can, and pack them; returns the pattern's key. */
static inline __attribute__((always_inline)) uint64_t resolve(struct slot *s)
{
	uint64_t h = head_key(s);
	uint64_t *w = arg_at(s, 0);
	struct hg_argpack ap = {s->ev.argb, NULL};
	int n = s->ev.nptr;
	unsigned next = 0; /* an index is written as its step from here */

	s->in_ranges = 1; /* the table holds device ranges only */
	s->unknown = 0;
	reg_recent_sync();
	for (int i = 0; i < n; i++, w += HG_LAUNCH_WORDS) {
		int c = w[0] ? reg_recent_find(w[0]) : -1;
		uint64_t id, code;
		unsigned at = (unsigned)w[3];

		if (c < 0) {
			resolve_far(s, w, &ap, &next);
			h += arg_key(w[1], w[0], w[3]);
			continue;
		}
		w[1] = id = reg_recent.id[c], w[2] = w[0] - reg_recent.base[c];
		code = reg_recent.cls5[c] | (uint64_t)((at - next) & 0xffff) << 8;
		hg_argpack_put(&ap, id, reg_recent.idlen[c], w[2],
			       hg_pack_len63(w[2]), code, hg_pack_len63(code));
		next = at + 1;
		w[3] |= reg_recent.what[c];
		h += arg_key(id, 0, w[3]); /* a range's id is never 0 */
	}
	s->ev.nargb = (uint16_t)(hg_argpack_end(&ap) - s->ev.argb);
	return h;
}

/* Equivalent for every rule: the same allocation (or, for an unknown
 * pointer, the same value), index, memory class and granularity. */
static int equivalent(const struct slot *a, const struct slot *b)
{
	if (a->ev.handle != b->ev.handle || a->ev.stream != b->ev.stream ||
	    a->ev.api != b->ev.api || a->ev.rc != b->ev.rc ||
	    a->ev.device != b->ev.device || a->ev.nptr != b->ev.nptr)
		return 0;
	for (int i = 0; i < a->ev.nptr; i++) {
		const uint64_t *x = arg_words(a, i), *y = arg_words(b, i);

		if (x[1] != y[1] || x[3] != y[3] || (!x[1] && x[0] != y[0]))
			return 0;
	}
	return 1;
}

/* The same values as the last launch (`differs` from read_args), into
 * device ranges, none of which has changed since (a range comes, goes or
 * changes only with a new generation): the same pattern, without resolving
 * again.  Host blocks come and go without one, so they are always
 * resolved. */
static int same_values(const struct memo *m, const struct slot *s,
		       uint64_t differs)
{
	const struct slot *l = m->last;

	return !differs && l && l->ev.nptr == s->ev.nptr && l->in_ranges &&
	       l->ev.handle == s->ev.handle && l->ev.stream == s->ev.stream &&
	       l->ev.api == s->ev.api && l->ev.rc == s->ev.rc &&
	       l->ev.device == s->ev.device && m->last_gen == reg_dev_generation();
}

static void count(struct memo *m, struct slot *l, uint64_t gen)
{
	if (l->pending == UINT32_MAX)
		write_pending(m, l);
	m->counting += l->pending == 0;
	l->pending++;
	m->last = l, m->last_gen = gen;
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

/* A pointer in no live block may be freed memory, and use-after-free is
 * reported at the launch: such a pattern, rare, carries its call site. */
static inline void site_if_unknown(struct slot *s)
{
	if (s->unknown)
		s->ev.callsite = reg_track_launch_site();
}

/* The spare, resolved: counted against its pattern, or written as a new
 * one that takes the next slot (whose counts are written first). */
static void launch_pattern(struct memo *m, struct reg_kernel *k, uint64_t key,
			   uint64_t gen)
{
	struct slot *s = m->spare;

	for (unsigned b = m->slots_at[key & 63]; b; b &= b - 1) {
		unsigned i = (unsigned)__builtin_ctz(b);

		if (m->key[i] == key && equivalent(m->slot[i], s)) {
			count(m, m->slot[i], gen);
			return;
		}
	}
	write_pending(m, m->slot[m->next]);
	if (m->next < m->used)
		m->slots_at[m->key[m->next] & 63] &= (uint16_t)~(1u << m->next);
	m->slots_at[key & 63] |= (uint16_t)(1u << m->next);
	m->spare = m->slot[m->next];
	m->slot[m->next] = s;
	m->key[m->next] = key;
	m->next = (m->next + 1) % SLOTS;
	if (m->used < SLOTS)
		m->used++;
	s->pending = 0;
	site_if_unknown(s);
	reg_emit_launch(&s->ev);
	warn(k, s);
	m->last = s, m->last_gen = gen;
}

/* The call's fields and pointer arguments, into s; returns whether the
 * values differ from last[] (read_args). */
static inline __attribute__((always_inline)) uint64_t
read_launch(struct slot *s, const struct reg_kernel *k, uint8_t api, int rc,
	    const void *handle, dim3 grid, dim3 block, void **args,
	    size_t nargs, void **extra, size_t shmem, hipStream_t stream,
	    int device, uint64_t *last)
{
	struct hg_tp_launch *ev = &s->ev;

	ev->handle = (uintptr_t)handle, ev->stream = (uintptr_t)stream;
	ev->grid[0] = grid.x, ev->grid[1] = grid.y, ev->grid[2] = grid.z;
	ev->block[0] = block.x, ev->block[1] = block.y, ev->block[2] = block.z;
	ev->shmem = (uint32_t)shmem, ev->rc = rc, ev->api = api;
	ev->callsite = 0, ev->repeat = 1, ev->device = device;
	return read_args(k, args, nargs, extra, s, last);
}

/* Nothing to resolve, and each one is a warning of its own. */
static __attribute__((noinline)) void
unknown_kernel(uint8_t api, int rc, const void *handle, dim3 grid, dim3 block,
	       size_t shmem, hipStream_t stream, int device)
{
	uint8_t room[HG_TP_LAUNCH_ROOM];
	struct hg_tp_launch ev = {
		.handle = (uintptr_t)handle, .stream = (uintptr_t)stream,
		.grid = {grid.x, grid.y, grid.z},
		.block = {block.x, block.y, block.z},
		.shmem = (uint32_t)shmem, .rc = rc, .api = api,
		.argb = room + sizeof(room), .repeat = 1,
		.device = device,
	};

	reg_emit_warning(HG_WARN_UNKNOWN_KERNEL,
			 "launch of a kernel that was never registered");
	reg_emit_launch(&ev);
}

/* No memory for a memo: every launch is written. */
static __attribute__((noinline)) void
launch_alone(const struct reg_kernel *k, uint8_t api, int rc,
	     const void *handle, dim3 grid, dim3 block, void **args,
	     size_t nargs, void **extra, size_t shmem, hipStream_t stream,
	     int device)
{
	struct slot one;
	uint64_t last[REG_KMAX_PTR] = {0};

	one.ev.argb = one.bytes + HG_TP_LAUNCH_ROOM;
	read_launch(&one, k, api, rc, handle, grid, block, args, nargs, extra,
		    shmem, stream, device, last);
	resolve(&one);
	site_if_unknown(&one);
	reg_emit_launch(&one.ev);
	warn(k, &one);
}

static void launch(uint8_t api, int rc, const void *handle, dim3 grid,
		   dim3 block, void **args, size_t nargs, void **extra,
		   size_t shmem, hipStream_t stream, int device)
{
	struct memo *m = my_memo();
	struct reg_kernel *k = profiled(handle, m);
	struct slot *s;
	uint64_t differs;
	int locked;

	if (!k) {
		unknown_kernel(api, rc, handle, grid, block, shmem, stream,
			       device);
		return;
	}
	if (!m) {
		launch_alone(k, api, rc, handle, grid, block, args, nargs,
			     extra, shmem, stream, device);
		return;
	}
	locked = hg_olock_own(&m->lock);
	s = m->spare;
	differs = read_launch(s, k, api, rc, handle, grid, block, args, nargs,
			      extra, shmem, stream, device, m->last_val);
	if (same_values(m, s, differs)) {
		count(m, m->last, m->last_gen);
	} else {
		/* The generation before resolving: never too new. */
		uint64_t gen = reg_dev_generation();

		launch_pattern(m, k, resolve(s), gen);
	}
	hg_olock_disown(&m->lock, locked);
}

void pl_rec_launch(uint8_t api, hipError_t rc, const void *handle, dim3 grid,
		   dim3 block, void **args, void **extra, size_t shmem,
		   hipStream_t stream)
{
	launch(api, rc, handle, grid, block, args, SIZE_MAX, extra, shmem,
	       stream, pl_stream_device(stream));
}

void pl_rec_launch_n(uint8_t api, int rc, const void *handle, dim3 grid,
		     dim3 block, void **args, size_t nargs, int device)
{
	launch(api, rc, handle, grid, block, args, nargs, NULL, 0, NULL,
	       device);
}

/* For a launch made later from values read now (a graph's kernel node). */
const struct reg_kernel *pl_launch_layout(const void *handle)
{
	return profiled(handle, NULL);
}

uint16_t pl_launch_read(const struct reg_kernel *k, void **args, void **extra,
			uint16_t *idx, uint64_t *val)
{
	struct slot one; /* rare: a graph's kernel node */
	uint64_t last[REG_KMAX_PTR] = {0};

	read_args(k, args, SIZE_MAX, extra, &one, last);
	for (int i = 0; i < one.ev.nptr; i++) {
		val[i] = arg_words(&one, i)[0];
		idx[i] = (uint16_t)arg_words(&one, i)[3];
	}
	return one.ev.nptr;
}

void pl_rec_launch_args(uint8_t api, int rc, const void *handle, dim3 grid,
			dim3 block, void **args, size_t nargs, size_t shmem,
			hipStream_t stream)
{
	launch(api, rc, handle, grid, block, args, nargs, NULL, shmem, stream,
	       pl_stream_device(stream));
}
