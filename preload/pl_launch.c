/* SPDX-License-Identifier: MIT */
/*
 * A launch: which allocation every pointer argument reaches.  The layout of
 * the arguments comes from the kernel's code object (pl_profile.c); the
 * values come from the args array (or the `extra` kernarg buffer), which the
 * launch API's contract tells us is valid for the duration of the call.
 *
 * Solvers launch the same kernel on the same buffers thousands of times.
 * Each thread remembers its last launch; an identical one (same kernel,
 * geometry, stream, argument values, and no GPU range changed since) is only
 * counted, and the count is written as the `repeat` of one event before
 * anything else happens on the thread.  The first launch of every pattern is
 * always written at once, so a crash loses counts, never a hazard.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_kernel.h"
#include "pl_profile.h"
#include "pl_warn.h"
#include "reg_dev.h"
#include "reg_emit.h"
#include "reg_kernel.h"
#include "reg_track.h"

/* hip_runtime_api.h's HIP_LAUNCH_PARAM_* markers in the `extra` array. */
#define PARAM_BUFFER_POINTER ((void *)0x01)
#define PARAM_BUFFER_SIZE ((void *)0x02)
#define PARAM_END ((void *)0x03)

extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

struct kernarg {
	const unsigned char *buf;
	size_t size;
};

/* One launch event's content, kept per thread for coalescing. */
struct memo {
	struct hg_tp_launch ev;
	struct reg_kernel *k;
	uint64_t gen;	   /* reg_dev_generation() when resolved */
	int coalescable;   /* succeeded, and every argument is GPU memory */
	uint32_t pending;  /* identical launches counted since ev was written */
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR], id[REG_KMAX_PTR], off[REG_KMAX_PTR];
	uint8_t mem[REG_KMAX_PTR], gran[REG_KMAX_PTR];
};

static __thread struct memo *memo __attribute__((tls_model("initial-exec")));
static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;

void pl_launch_flush(void)
{
	struct memo *m = memo;

	if (!m || !m->pending)
		return;
	m->ev.repeat = m->pending;
	m->pending = 0;
	reg_emit_launch(&m->ev);
}

void pl_launch_forget(void)
{
	if (memo)
		memo->pending = 0;
}

static void thread_gone(void *p)
{
	memo = p;
	pl_depth++;
	pl_launch_flush();
	pl_depth--;
	memo = NULL;
	__libc_free(p);
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
		if (memo)
			pthread_setspecific(memo_key, memo);
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
	return k;
}

/* The pointer arguments' values; returns how many could be read. */
static uint16_t read_args(const struct reg_kernel *k, void **args,
			  void **extra, uint16_t *idx, uint64_t *val)
{
	struct kernarg ka = args ? (struct kernarg){NULL, 0} : from_extra(extra);
	uint16_t n = 0;

	for (int i = 0; i < k->nptr; i++) {
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

static int same_launch(const struct memo *m, const struct hg_tp_launch *l,
		       const uint64_t *val)
{
	return m->coalescable && l->rc == 0 && m->ev.handle == l->handle &&
	       m->ev.api == l->api && m->ev.stream == l->stream &&
	       m->ev.shmem == l->shmem && m->ev.nptr == l->nptr &&
	       !memcmp(m->ev.grid, l->grid, sizeof(l->grid)) &&
	       !memcmp(m->ev.block, l->block, sizeof(l->block)) &&
	       !memcmp(m->val, val, l->nptr * sizeof(*val)) &&
	       m->gen == reg_dev_generation();
}

static int gpu_memory(uint8_t mem)
{
	return mem >= HG_MEM_DEVICE && mem <= HG_MEM_HOST_REGISTERED;
}

/* Resolve into m's arrays and write the event. */
static void record(struct memo *m, struct reg_kernel *k,
		   const struct hg_tp_launch *l, const uint16_t *idx,
		   const uint64_t *val)
{
	m->ev = *l;
	m->k = k;
	m->gen = reg_dev_generation(); /* before resolving: never too new */
	m->coalescable = l->rc == 0 && k != NULL;
	m->ev.arg_index = m->idx, m->ev.arg_value = m->val;
	m->ev.arg_id = m->id, m->ev.arg_offset = m->off;
	m->ev.arg_mem = m->mem, m->ev.arg_gran = m->gran;
	m->ev.repeat = 1;
	for (int i = 0; i < l->nptr; i++) {
		struct reg_ptr r;

		reg_track_resolve((uintptr_t)val[i], &r);
		m->idx[i] = idx[i], m->val[i] = val[i];
		m->id[i] = r.id, m->off[i] = r.off;
		m->mem[i] = r.mem, m->gran[i] = r.gran;
		m->coalescable &= gpu_memory(r.mem);
		if (k)
			pl_warn_launch(k, idx[i], r.id, r.mem, r.gran);
	}
	reg_emit_launch(&m->ev);
}

void pl_rec_launch(uint8_t api, hipError_t rc, const void *handle, dim3 grid,
		   dim3 block, void **args, void **extra, size_t shmem,
		   hipStream_t stream)
{
	struct memo *m = my_memo(), scratch;
	struct reg_kernel *k = profiled(handle, m);
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR];
	struct hg_tp_launch l = {
		.handle = (uintptr_t)handle, .stream = (uintptr_t)stream,
		.grid = {grid.x, grid.y, grid.z},
		.block = {block.x, block.y, block.z},
		.shmem = (uint32_t)shmem, .rc = rc, .api = api,
	};

	if (!k)
		reg_emit_warning(HG_WARN_UNKNOWN_KERNEL,
				 "launch of a kernel that was never registered");
	else
		l.nptr = read_args(k, args, extra, idx, val);
	if (m && same_launch(m, &l, val)) {
		m->pending++;
		return;
	}
	pl_launch_flush();
	record(m ? m : &scratch, k, &l, idx, val);
}
