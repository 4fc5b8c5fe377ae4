/* SPDX-License-Identifier: MIT */
#include "reg.h"

#include <stdatomic.h>
#include <string.h>

#include "hg_tp.h"
#include "hg_tp_text.h"

void reg_emit_callsite(uint64_t id, const uint64_t *frames, uint16_t n)
{
	lttng_ust_tracepoint(hipgrain, callsite, id, frames, n);
}

/*
 * The record widened to a whole number of 4-byte groups, written as its
 * text (hg_tp.h).  The words are packed only when a session takes the
 * event: without one, an allocation pays for the test alone, as with
 * lttng_ust_tracepoint.
 */
void reg_emit_alloc(const struct hg_tp_alloc *a)
{
	char t[HG_TP_TEXT_MAX(HG_ALLOC_WORDS)];

	if (!lttng_ust_tracepoint_enabled(hipgrain, alloc))
		return;
	hg_tp_text_alloc(a, t);
	lttng_ust_do_tracepoint(hipgrain, alloc, t);
}

void reg_emit_free(const struct hg_tp_free *f)
{
	char t[HG_TP_TEXT_MAX(HG_FREE_WORDS)];

	if (!lttng_ust_tracepoint_enabled(hipgrain, free))
		return;
	hg_tp_text_free(f, t);
	lttng_ust_do_tracepoint(hipgrain, free, t);
}

void reg_emit_advise(const struct hg_tp_range_op *r)
{
	lttng_ust_tracepoint(hipgrain, advise, r);
}

void reg_emit_prefetch(const struct hg_tp_range_op *r)
{
	lttng_ust_tracepoint(hipgrain, prefetch, r);
}

void reg_emit_exit(void)
{
	lttng_ust_tracepoint(hipgrain, exit, 1);
}

void reg_emit_died(const struct hg_tp_died *d)
{
	lttng_ust_tracepoint(hipgrain, died, d);
}

void reg_emit_granularity(const struct hg_tp_granularity *g)
{
	lttng_ust_tracepoint(hipgrain, granularity, g);
}

void reg_emit_memcpy(const struct hg_tp_memcpy *m)
{
	char t[HG_TP_TEXT_MAX(HG_MEMCPY_WORDS)];

	if (!lttng_ust_tracepoint_enabled(hipgrain, memcpy))
		return;
	hg_tp_text_memcpy(m, t);
	lttng_ust_do_tracepoint(hipgrain, memcpy, t);
}

void reg_emit_memset(const struct hg_tp_memset *m)
{
	char t[HG_TP_TEXT_MAX(HG_MEMSET_WORDS)];

	if (!lttng_ust_tracepoint_enabled(hipgrain, memset))
		return;
	hg_tp_text_memset(m, t);
	lttng_ust_do_tracepoint(hipgrain, memset, t);
}

/*
 * A launch's head (kernel, stream, dimensions, shmem, rc, call site, GPU,
 * api) is
 * declared once, by a `head` event, under a number unique in the process; a
 * launch writes the number.  Each thread keeps the heads it declared lately, one
 * a slot by a hash of the kernel and dimensions: a thread declares a head
 * again only when another one took its slot.
 */
#define HEADS 32

struct head_slot {
	uint8_t key[HG_TP_LAUNCH_KEY];
	uint32_t api;
	uint32_t id; /* 0: empty */
};

static __thread struct head_slot heads[HEADS]
	__attribute__((tls_model("initial-exec")));
static atomic_uint head_ids;

_Static_assert(HG_TP_LAUNCH_KEY == 60, "a launch's key has no gap");
_Static_assert(HG_PACK_REF_MAX <= HG_TP_LAUNCH_ROOM,
	       "a launch's number and repeat fit the room before its arguments");

static __attribute__((noinline)) uint32_t declare(struct head_slot *s,
						   const struct hg_tp_launch *l)
{
	uint32_t id = atomic_fetch_add_explicit(&head_ids, 1,
						memory_order_relaxed) + 1;

	lttng_ust_tracepoint(hipgrain, head, id, l);
	memcpy(s->key, l, sizeof(s->key));
	s->api = l->api;
	s->id = id;
	return id;
}

static inline uint32_t head_of(const struct hg_tp_launch *l)
{
	struct head_slot *s = &heads[(l->handle >> 4 ^ l->handle >> 12 ^
				      l->grid[0] ^ l->block[0] >> 5) % HEADS];

	if (s->id && s->api == l->api && !memcmp(s->key, l, sizeof(s->key)))
		return s->id;
	return declare(s, l);
}

void reg_emit_forget_heads(void)
{
	memset(heads, 0, sizeof(heads));
}

/*
 * The arguments are packed already (pl_launch.c), at most REG_KMAX_PTR of
 * them; the head's number and the repeat go in the room before them, the
 * repeat widened to a whole number of 4-byte groups.
 */
#define LAUNCH_MAX (HG_TP_LAUNCH_ROOM + HG_PACK_ARG_MAX * REG_KMAX_PTR)

void reg_emit_launch(const struct hg_tp_launch *l)
{
	uint32_t id, rep = l->repeat - 1;
	char t[HG_TEXT_LEN(LAUNCH_MAX) + 1];
	size_t nref, c;

	if (!lttng_ust_tracepoint_enabled(hipgrain, launch))
		return;
	id = head_of(l);
	c = hg_pack_launch_whole(l->argb, id, rep, (size_t)l->nargb, &nref);
	if (c > LAUNCH_MAX)
		return; /* more arguments than a slot holds: never packed */
	hg_text_encode(l->argb - nref, c, t);
	lttng_ust_do_tracepoint(hipgrain, launch, t);
}

void reg_emit_kernel(const struct hg_tp_kernel *k)
{
	lttng_ust_tracepoint(hipgrain, kernel, k);
}

void reg_emit_code_object(const struct hg_tp_code_object *c)
{
	lttng_ust_tracepoint(hipgrain, code_object, c);
}

void reg_emit_function(const struct hg_tp_function *f)
{
	lttng_ust_tracepoint(hipgrain, function, f);
}

void reg_emit_call(uint8_t api, int32_t rc, uint64_t arg)
{
	lttng_ust_tracepoint(hipgrain, call, api, rc, arg);
}

void reg_emit_warning(uint16_t code, const char *message)
{
	lttng_ust_tracepoint(hipgrain, warning, code, message);
}

void reg_emit_process(const struct hg_tp_process *p)
{
	lttng_ust_tracepoint(hipgrain, process, p);
}

void reg_emit_env(const char *name, const char *value)
{
	lttng_ust_tracepoint(hipgrain, env, name, value);
}

void reg_emit_device(const struct hg_tp_device *d)
{
	lttng_ust_tracepoint(hipgrain, device, d);
}

void reg_emit_runtime(const char *path, int32_t version, int32_t rc)
{
	lttng_ust_tracepoint(hipgrain, runtime, path, version, rc);
}

void reg_emit_kfd_alloc(const struct hg_tp_kfd_alloc *a)
{
	lttng_ust_tracepoint(hipgrain, kfd_alloc, a);
}

void reg_emit_kfd_free(uint64_t handle, int32_t rc)
{
	lttng_ust_tracepoint(hipgrain, kfd_free, handle, rc);
}

void reg_emit_kfd_svm(uint64_t start, uint64_t size, uint8_t op,
		      const uint32_t *attrs, uint16_t n, int32_t rc)
{
	lttng_ust_tracepoint(hipgrain, kfd_svm, start, size, op, attrs, n, rc);
}

void reg_emit_kfd_xnack(int32_t requested, int32_t enabled, int32_t rc)
{
	lttng_ust_tracepoint(hipgrain, kfd_xnack, requested, enabled, rc);
}

void reg_emit_kfd_node(const struct hg_tp_kfd_node *n)
{
	lttng_ust_tracepoint(hipgrain, kfd_node, n);
}

void reg_emit_kfd_smi_open(uint32_t gpu_id, int32_t rc)
{
	lttng_ust_tracepoint(hipgrain, kfd_smi_open, gpu_id, rc);
}

void reg_emit_kfd_smi(const struct hg_tp_kfd_smi *e)
{
	lttng_ust_tracepoint(hipgrain, kfd_smi, e);
}

void reg_emit_vgpu_dispatch(const struct hg_tp_vgpu_dispatch *d)
{
	lttng_ust_tracepoint(hipgrain, vgpu_dispatch, d);
}

void reg_emit_vgpu_drop(const struct hg_tp_vgpu_drop *x)
{
	lttng_ust_tracepoint(hipgrain, vgpu_drop, x);
}

void reg_emit_vgpu_traffic(const struct hg_tp_vgpu_traffic *t)
{
	lttng_ust_tracepoint(hipgrain, vgpu_traffic, t);
}

void reg_emit_vgpu_race(const struct hg_tp_vgpu_race *x)
{
	lttng_ust_tracepoint(hipgrain, vgpu_race, x);
}

void reg_emit_vgpu_stale(const struct hg_tp_vgpu_stale *x)
{
	lttng_ust_tracepoint(hipgrain, vgpu_stale, x);
}

void reg_emit_vgpu_unwritten(const struct hg_tp_vgpu_unwritten *x)
{
	lttng_ust_tracepoint(hipgrain, vgpu_unwritten, x);
}
