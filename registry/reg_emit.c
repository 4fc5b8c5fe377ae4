/* SPDX-License-Identifier: MIT */
#include "reg_emit.h"

#include <stddef.h>
#include <string.h>

#include "hg_pack.h"
#include "hg_tp.h"
#include "reg_kernel.h"

void reg_emit_callsite(uint64_t id, const uint64_t *frames, uint16_t n)
{
	lttng_ust_tracepoint(hipgrain, callsite, id, frames, n);
}

/*
 * A size's event when it fits and is enabled (hg_tp.h): `kind##size`, with
 * the bytes widened to it by `widen`.  The words are packed only when a
 * session takes the event: without one, an allocation pays for the test
 * alone, as with lttng_ust_tracepoint.
 */
#define FIXED(kind, size, widen)                                              \
	case size:                                                            \
		if (lttng_ust_tracepoint_enabled(hipgrain, kind##size)) {     \
			widen;                                                \
			lttng_ust_do_tracepoint(hipgrain, kind##size, b);     \
			return;                                               \
		}                                                             \
		break;

void reg_emit_alloc(const struct hg_tp_alloc *a)
{
	uint64_t w[HG_ALLOC_WORDS];
	uint8_t b[HG_PACK_MAX(HG_ALLOC_WORDS)];
	size_t n, c;

	if (!lttng_ust_tracepoint_enabled(hipgrain, alloc))
		return;
	hg_tp_pack_alloc(a, w);
	n = hg_pack_alloc(w, b);
	c = hg_pack_class(n);
	switch (c) {
#define W hg_pack_alloc_widen(w, b, n, (unsigned)(c - n))
		FIXED(alloc, 16, W)
		FIXED(alloc, 20, W)
		FIXED(alloc, 24, W)
		FIXED(alloc, 28, W)
#undef W
	}
	lttng_ust_do_tracepoint(hipgrain, alloc, b, (uint16_t)n);
}

void reg_emit_free(const struct hg_tp_free *f)
{
	uint64_t w[HG_FREE_WORDS];
	uint8_t b[HG_PACK_MAX(HG_FREE_WORDS)];
	size_t n, c;

	if (!lttng_ust_tracepoint_enabled(hipgrain, free))
		return;
	hg_tp_pack_free(f, w);
	hg_pack_v5_free(w);
	n = hg_pack_free(w, b);
	c = hg_pack_class(n);
	switch (c) {
#define W hg_pack_free_widen(w, b, n, (unsigned)(c - n))
		FIXED(free, 8, W)
		FIXED(free, 12, W)
		FIXED(free, 16, W)
#undef W
	}
	lttng_ust_do_tracepoint(hipgrain, free, b, (uint16_t)n);
}

void reg_emit_advise(const struct hg_tp_range_op *r)
{
	lttng_ust_tracepoint(hipgrain, advise, r);
}

void reg_emit_prefetch(const struct hg_tp_range_op *r)
{
	lttng_ust_tracepoint(hipgrain, prefetch, r);
}

void reg_emit_granularity(const struct hg_tp_granularity *g)
{
	lttng_ust_tracepoint(hipgrain, granularity, g);
}

void reg_emit_memcpy(const struct hg_tp_memcpy *m)
{
	lttng_ust_tracepoint(hipgrain, memcpy, m);
}

void reg_emit_memset(const struct hg_tp_memset *m)
{
	lttng_ust_tracepoint(hipgrain, memset, m);
}

/*
 * A thread's launches mostly repeat their head (kernel, stream, grid,
 * block, ...) with new arguments: the head's bytes are kept, right-aligned
 * as they go before the arguments and with zeros after them, and copied
 * while its fields are the same, which saves a third of the packing.  A
 * copy from k bytes further on is the head widened by k (hg_pack_widen)
 * but for its last tag.
 */
#define KEPT_COPY 32 /* a head mostly takes fewer bytes: one fixed copy */

static __thread struct {
	uint8_t head[HG_TP_LAUNCH_HEAD];
	uint8_t b[HG_TP_LAUNCH_ROOM + HG_PACK_STEP]; /* zeros after the head */
	uint8_t n;    /* 0: nothing kept (a head takes 6 bytes at least) */
	uint8_t back; /* the last tag, from the head's end */
} last_head __attribute__((tls_model("initial-exec")));

_Static_assert(HG_TP_LAUNCH_HEAD == 56, "a launch's head has no gap");
_Static_assert(4 * (1 + 2 * 8) + HG_PACK_STEP <= HG_TP_LAUNCH_ROOM,
	       "a head's four pairs, widened, fit the room before the arguments");

static __attribute__((noinline)) void keep_head(const struct hg_tp_launch *l)
{
	uint64_t w[HG_LAUNCH_HEAD];
	uint8_t b[HG_PACK_MAX(HG_LAUNCH_HEAD)];
	size_t n;

	hg_tp_pack_launch_head(l, w);
	hg_pack_v5_launch_head(w);
	n = hg_pack_launch_head(w, b);
	memcpy(last_head.b + HG_TP_LAUNCH_ROOM - n, b, n);
	memcpy(last_head.head, l, sizeof(last_head.head));
	last_head.n = (uint8_t)n;
	last_head.back = (uint8_t)hg_pack_launch_head_back(w);
}

/* Whether the event of size c is taken (and there is one). */
static int launch_fixed(size_t c)
{
	switch (c) {
#define ON(size)                                                              \
	case size:                                                            \
		return lttng_ust_tracepoint_enabled(hipgrain, launch##size);
		ON(12) ON(16) ON(20) ON(24) ON(28) ON(32) ON(36)
#undef ON
	}
	return 0;
}

/* The arguments are packed already (pl_launch.c); the head goes in the
 * room before them. */
void reg_emit_launch(const struct hg_tp_launch *l)
{
	uint8_t *end = l->argb, *b;
	size_t n, c;
	unsigned k;
	int fixed;

	if (!lttng_ust_tracepoint_enabled(hipgrain, launch))
		return;
	if (!last_head.n || memcmp(last_head.head, l, sizeof(last_head.head)))
		keep_head(l);
	n = last_head.n + (size_t)l->nargb;
	c = hg_pack_class(n);
	fixed = launch_fixed(c);
	k = fixed ? (unsigned)(c - n) : 0;
	if (last_head.n + k <= KEPT_COPY)
		memcpy(end - KEPT_COPY,
		       last_head.b + HG_TP_LAUNCH_ROOM + k - KEPT_COPY,
		       KEPT_COPY);
	else
		memcpy(end - HG_TP_LAUNCH_ROOM, last_head.b + k,
		       HG_TP_LAUNCH_ROOM);
	b = end - last_head.n - k;
	if (fixed) {
		end[-(ptrdiff_t)(k + last_head.back)] += (uint8_t)(k << 4);
		switch (c) {
#define W (void)0
			FIXED(launch, 12, W)
			FIXED(launch, 16, W)
			FIXED(launch, 20, W)
			FIXED(launch, 24, W)
			FIXED(launch, 28, W)
			FIXED(launch, 32, W)
			FIXED(launch, 36, W)
#undef W
		}
		return;
	}
	lttng_ust_do_tracepoint(hipgrain, launch, b, (uint16_t)n);
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
