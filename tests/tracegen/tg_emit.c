/* SPDX-License-Identifier: MIT */
/*
 * One small builder per `hipgrain` event: script keys are the field names of
 * provider/hg_tp.h, missing keys default to 0 or "".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hg_events.h"
#include "hg_pack.h"
#include "hg_text.h"
#include "hg_tp.h"
#include "hg_tp_text.h"
#include "tg.h"

#define U(k) tg_u64(l, k, 0)
#define I(k) ((int32_t)tg_i64(l, k, 0))
#define S(k) tg_str(l, k, "")

/* Ids, call sites and offsets are under 2^63 (the writers count on it,
 * hg_pack_len63): a script that says otherwise is refused, not bent. */
static uint64_t under63(uint64_t v, const char *key)
{
	if (v >> 63) {
		fprintf(stderr, "tracegen: %s=%#llx: must be under 2^63\n", key,
			(unsigned long long)v);
		exit(2);
	}
	return v;
}

#define U63(k) under63(U(k), k)

/* Return addresses inside this program, so symbolisation has real code. */
static __attribute__((noinline)) uint64_t tg_self_frame(void)
{
	return (uint64_t)(uintptr_t)__builtin_return_address(0);
}

/* Frames in functions of their own (frames=call, frames=other): a
 * script's calls then symbolise apart from its allocations (frames=self)
 * and from each other, by name.  The barrier keeps the call out of tail
 * position, so the frame is in the function named; the barriers differ, so
 * the compiler cannot fold the two functions into one. */
static __attribute__((noinline)) uint64_t tg_call_site(void)
{
	uint64_t pc = tg_self_frame();

	__asm__ volatile("" ::: "memory");
	return pc;
}

static __attribute__((noinline)) uint64_t tg_other_site(void)
{
	uint64_t pc = tg_self_frame();

	__asm__ volatile("# other" ::: "memory");
	return pc;
}

static void tg_process(const struct tg_line *l)
{
	struct hg_tp_process p = {I("ppid"), S("exe"), S("version"),
				  (uint8_t)U("host_mode"), U("stack_threshold"),
				  (uint32_t)U("stack_depth"),
				  /* schema=N writes N; absent, this build's */
				  (uint16_t)tg_u64(l, "schema", HG_TRACE_SCHEMA)};

	lttng_ust_tracepoint(hipgrain, process, &p);
	tg_had_process = true;
}

static void tg_env(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, env, S("name"), S("value"));
}

static void tg_runtime(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, runtime, S("path"), I("version"), I("rc"));
}

static void tg_device(const struct tg_line *l)
{
	struct hg_tp_device d = {I("ordinal"), I("rc"), S("arch"), S("name"),
				 (uint8_t)U("xnack"), (uint8_t)U("sramecc"),
				 I("managed_memory"), I("runtime_version")};

	lttng_ust_tracepoint(hipgrain, device, &d);
}

static void tg_callsite(const struct tg_line *l)
{
	uint64_t frames[TG_MAX_ARGS];
	int n;

	if (!strcmp(S("frames"), "self")) {
		frames[0] = tg_self_frame();
		n = 1;
	} else if (!strcmp(S("frames"), "call")) {
		frames[0] = tg_call_site();
		n = 1;
	} else if (!strcmp(S("frames"), "other")) {
		frames[0] = tg_other_site();
		n = 1;
	} else {
		n = tg_list(l, "frames", frames, TG_MAX_ARGS);
	}
	lttng_ust_tracepoint(hipgrain, callsite, U("id"), frames, (uint16_t)n);
}

static void tg_alloc(const struct tg_line *l)
{
	struct hg_tp_alloc a = {
		.id = U63("id"), .addr = U("addr"), .size = U("size"),
		.extra = U("extra"), .callsite = U63("callsite"),
		.flags = (uint32_t)U("flags"), .rc = I("rc"),
		.device = I("device"), .api = (uint8_t)U("api"),
		.mem = (uint8_t)U("mem"), .gran = (uint8_t)U("gran"),
		.lazy = (uint8_t)U("lazy"),
	};
	char t[HG_TP_TEXT_MAX(HG_ALLOC_WORDS)];

	hg_tp_text_alloc(&a, t);
	lttng_ust_tracepoint(hipgrain, alloc, t);
}

static void tg_free(const struct tg_line *l)
{
	struct hg_tp_free f = {
		.id = U63("id"), .addr = U("addr"), .size = U("size"),
		.callsite = U63("callsite"), .rc = I("rc"),
		.api = (uint8_t)U("api"), .alloc_api = (uint8_t)U("alloc_api"),
	};
	char t[HG_TP_TEXT_MAX(HG_FREE_WORDS)];

	hg_tp_text_free(&f, t);
	lttng_ust_tracepoint(hipgrain, free, t);
}

static void tg_range(const struct tg_line *l, struct hg_tp_range_op *r)
{
	*r = (struct hg_tp_range_op){
		.addr = U("addr"), .size = U("size"), .id = U("id"),
		.stream = U("stream"), .callsite = U("callsite"),
		.advice = I("advice"), .device = I("device"), .rc = I("rc"),
		.api = (uint8_t)U("api"), .mem = (uint8_t)U("mem"),
	};
}

static void tg_advise(const struct tg_line *l)
{
	struct hg_tp_range_op r;

	tg_range(l, &r);
	lttng_ust_tracepoint(hipgrain, advise, &r);
}

static void tg_prefetch(const struct tg_line *l)
{
	struct hg_tp_range_op r;

	tg_range(l, &r);
	lttng_ust_tracepoint(hipgrain, prefetch, &r);
}

static void tg_granularity(const struct tg_line *l)
{
	struct hg_tp_granularity g = {
		.id = U("id"), .addr = U("addr"), .size = U("size"),
		.rc = I("rc"), .gran = (uint8_t)U("gran"),
		.source = (uint8_t)U("source"),
	};

	lttng_ust_tracepoint(hipgrain, granularity, &g);
}

static void tg_memcpy(const struct tg_line *l)
{
	struct hg_tp_memcpy m = {
		.dst = U("dst"), .src = U("src"), .size = U("size"),
		.dst_id = U63("dst_id"), .src_id = U63("src_id"),
		.stream = U("stream"), .callsite = U63("callsite"),
		.kind = I("kind"), .rc = I("rc"), .api = (uint8_t)U("api"),
		.dst_mem = (uint8_t)U("dst_mem"),
		.src_mem = (uint8_t)U("src_mem"), .async = (uint8_t)U("async"),
	};
	char t[HG_TP_TEXT_MAX(HG_MEMCPY_WORDS)];

	hg_tp_text_memcpy(&m, t);
	lttng_ust_tracepoint(hipgrain, memcpy, t);
}

static void tg_memset(const struct tg_line *l)
{
	struct hg_tp_memset m = {
		.dst = U("dst"), .size = U("size"), .dst_id = U63("dst_id"),
		.stream = U("stream"), .callsite = U63("callsite"),
		.value = I("value"), .rc = I("rc"), .api = (uint8_t)U("api"),
		.dst_mem = (uint8_t)U("dst_mem"),
	};
	char t[HG_TP_TEXT_MAX(HG_MEMSET_WORDS)];

	hg_tp_text_memset(&m, t);
	lttng_ust_tracepoint(hipgrain, memset, t);
}

static void tg_code_object(const struct tg_line *l)
{
	struct hg_tp_code_object c = {
		.module = U("module"), .image = U("image"), .size = U("size"),
		.hash = U("hash"), .targets = S("targets"), .path = S("path"),
		.rc = I("rc"), .api = (uint8_t)U("api"),
	};

	lttng_ust_tracepoint(hipgrain, code_object, &c);
}

static void tg_function(const struct tg_line *l)
{
	struct hg_tp_function f = {
		.module = U("module"), .handle = U("handle"), .name = S("name"),
		.rc = I("rc"), .api = (uint8_t)U("api"),
	};

	lttng_ust_tracepoint(hipgrain, function, &f);
}

/* Copies a number list into a narrower array. */
#define TG_NARROW(dst, src, n)                                                 \
	do {                                                                   \
		for (int i_ = 0; i_ < (n); i_++)                               \
			(dst)[i_] = (__typeof__((dst)[0]))(src)[i_];           \
	} while (0)

static void tg_kernel(const struct tg_line *l)
{
	uint64_t t[TG_MAX_ARGS];
	uint32_t off[TG_MAX_ARGS] = {0}, sz[TG_MAX_ARGS] = {0};
	uint8_t kind[TG_MAX_ARGS] = {0}, space[TG_MAX_ARGS] = {0};
	int n = tg_list(l, "arg_kind", t, TG_MAX_ARGS);

	TG_NARROW(kind, t, n);
	TG_NARROW(off, t, tg_list(l, "arg_offset", t, n));
	TG_NARROW(sz, t, tg_list(l, "arg_size", t, n));
	TG_NARROW(space, t, tg_list(l, "arg_space", t, n));
	struct hg_tp_kernel k = {
		.handle = U("handle"), .module = U("module"),
		.co_hash = U("co_hash"), .name = S("name"), .target = S("target"),
		.fp_mnemonics = S("fp_mnemonics"),
		.int_mnemonics = S("int_mnemonics"), .arg_offset = off,
		.fp_sites = S("fp_sites"), .int_sites = S("int_sites"),
		.sys_sites = S("sys_sites"),
		.arg_size = sz, .arg_kind = kind, .arg_space = space,
		.fp_first = U("fp_first"), .status = I("status"),
		.kernarg_size = (uint32_t)U("kernarg_size"),
		.fp_ops = (uint32_t)U("fp_ops"), .fp_count = (uint32_t)U("fp_count"),
		.int_ops = (uint32_t)U("int_ops"),
		.int_count = (uint32_t)U("int_count"),
		.cas_count = (uint32_t)U("cas_count"),
		.lds_count = (uint32_t)U("lds_count"), .nargs = (uint16_t)n,
		.xnack = (uint8_t)U("xnack"),
	};

	lttng_ust_tracepoint(hipgrain, kernel, &k);
}

/* The script's parallel lists (arg_index=..., arg_value=...), packed as
 * the preload packs them: a `head` event when the head is not the last
 * one's, then the launch's `ref`, its arguments as hg_pack_launch_args
 * writes them (a memory class or granularity takes four bits). */
/* A launch's GPU, unless its line names one: the last hipSetDevice that
 * succeeded, as the preload's thread keeps it (a script is one thread). */
static int32_t tg_device_now;

static void tg_launch(const struct tg_line *l)
{
	uint64_t val[TG_MAX_ARGS] = {0}, id[TG_MAX_ARGS] = {0};
	uint64_t off[TG_MAX_ARGS] = {0}, idx[TG_MAX_ARGS] = {0};
	uint64_t mem[TG_MAX_ARGS] = {0}, gran[TG_MAX_ARGS] = {0};
	uint64_t w[TG_MAX_ARGS * HG_LAUNCH_WORDS];
	uint8_t b[HG_PACK_REF_MAX + HG_PACK_MAX(TG_MAX_ARGS * HG_LAUNCH_WORDS)];
	static char t[HG_TEXT_LEN(sizeof(b)) + 1];
	static struct hg_tp_launch last;
	static uint32_t head;
	size_t nb, nref, c;
	int n = tg_list(l, "arg_value", val, TG_MAX_ARGS);

	tg_list(l, "arg_index", idx, n);
	tg_list(l, "arg_id", id, n);
	tg_list(l, "arg_offset", off, n);
	tg_list(l, "arg_mem", mem, n);
	tg_list(l, "arg_gran", gran, n);
	for (int i = 0; i < n; i++) {
		uint64_t *p = &w[i * HG_LAUNCH_WORDS];

		p[0] = val[i], p[1] = under63(id[i], "arg_id");
		p[2] = id[i] ? under63(off[i], "arg_offset") : off[i];
		p[3] = (idx[i] & 0xffff) | (mem[i] & 0xff) << 16 |
		       (gran[i] & 0xff) << 24;
	}
	struct hg_tp_launch la = {
		.handle = U("handle"), .stream = U("stream"),
		.grid = {1, 1, 1}, .block = {1, 1, 1},
		.shmem = (uint32_t)U("shmem"), .rc = I("rc"), .nptr = (uint16_t)n,
		.callsite = U("callsite"),
		.api = (uint8_t)tg_u64(l, "api", 90),
		.repeat = (uint32_t)tg_u64(l, "repeat", 1),
		.device = (int32_t)tg_i64(l, "device", tg_device_now),
	};

	if (!head || memcmp(&last, &la, HG_TP_LAUNCH_KEY) || last.api != la.api) {
		last = la;
		lttng_ust_tracepoint(hipgrain, head, ++head, &la);
	}
	nb = hg_pack_launch_args(w, (size_t)n, b + HG_PACK_REF_MAX);
	c = hg_pack_launch_whole(b + HG_PACK_REF_MAX, head, la.repeat - 1, nb,
				 &nref);
	hg_text_encode(b + HG_PACK_REF_MAX - nref, c, t);
	lttng_ust_tracepoint(hipgrain, launch, t);
}

static void tg_call(const struct tg_line *l)
{
	if (U("api") == HG_API_HIP_SET_DEVICE && !I("rc"))
		tg_device_now = (int32_t)U("arg");
	lttng_ust_tracepoint(hipgrain, call, (uint8_t)U("api"), I("rc"), U("arg"));
}

static void tg_warning(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, warning, (uint16_t)U("code"), S("message"));
}

/* A script's process ends normally (an `exit` event after its last line)
 * unless the script says `noexit`: killed, or its trace cut. */
bool tg_noexit;
bool tg_had_process;

/* A script's own exit replaces the one written at its end. */
static void tg_exit(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, exit, (uint8_t)tg_u64(l, "normal", 1));
	tg_noexit = true;
}

/* The range keys are the call's (api, addr, size, advice, ...); name is
 * the entry point's. */
static void tg_died(const struct tg_line *l)
{
	struct hg_tp_range_op r;
	tg_range(l, &r);
	struct hg_tp_died d = {
		.name = tg_str(l, "name", ""), .callsite = r.callsite, .op = &r,
		.signal = I("signal"), .here = (uint8_t)U("here"),
	};

	lttng_ust_tracepoint(hipgrain, died, &d);
}

static void tg_noexit_line(const struct tg_line *l)
{
	(void)l;
	tg_noexit = true;
}

static const struct {
	const char *name;
	void (*fn)(const struct tg_line *l);
} tg_events[] = {
	{"exit", tg_exit},	   {"noexit", tg_noexit_line},
	{"died", tg_died},
	{"process", tg_process},   {"env", tg_env},
	{"runtime", tg_runtime},   {"device", tg_device},
	{"callsite", tg_callsite}, {"alloc", tg_alloc},
	{"free", tg_free},	   {"advise", tg_advise},
	{"prefetch", tg_prefetch}, {"granularity", tg_granularity},
	{"memcpy", tg_memcpy},	   {"memset", tg_memset},
	{"code_object", tg_code_object}, {"function", tg_function},
	{"kernel", tg_kernel},	   {"launch", tg_launch},
	{"call", tg_call},	   {"warning", tg_warning},
};

int tg_emit(const struct tg_line *l)
{
	for (size_t i = 0; i < sizeof(tg_events) / sizeof(tg_events[0]); i++) {
		if (!strcmp(l->event, tg_events[i].name)) {
			tg_events[i].fn(l);
			return 0;
		}
	}
	return tg_emit_kfd(l) == -ENOENT ? tg_emit_vgpu(l) : 0;
}
