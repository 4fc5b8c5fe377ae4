/* SPDX-License-Identifier: MIT */
#include "reg.h"
#include "reg_dev.h"

#include <stdatomic.h>

#include "hg_events.h"
#include "reg_runtime_code.h"
#include "reg_host.h"
#include "reg_host_fast.h"
#include "reg_model.h"
#include "reg_site.h"
#include "reg_unw.h"

struct reg_config reg_cfg = {65536, 24, 0, -1, 0};
static atomic_uint_fast64_t ids = 1;

/* Frames of hipgrain itself above the hook's caller: this file and the hook. */
#define SKIP_FRAMES 2

void reg_track_init(const struct reg_config *cfg)
{
	reg_cfg = *cfg;
	/* The hooks' inline path takes what reg_track_host_alloc's common
	 * case would: a block too small for a stack, with no event. */
	reg_host_fast_max = cfg->host_all ? 0
			    : cfg->stack_threshold < REG_HOST_LARGE
				    ? (size_t)cfg->stack_threshold
				    : REG_HOST_LARGE;
	/* First: setting the unwinder's caching policy starts libunwind, and
	 * an older one opens its pipe as it starts. */
	reg_unw_prime();
	reg_site_set_depth(cfg->stack_depth);
}

/*
 * Each thread takes its ids ID_BLOCK at a time: an atomic add costs an
 * allocation more than the rest of its id, and ids need to be unique in
 * the process, not in the order of allocation across threads.
 */
#define ID_BLOCK 32

static __thread struct {
	uint64_t next, end;
} id_block __attribute__((tls_model("initial-exec")));

uint64_t reg_next_id(void)
{
	if (__builtin_expect(id_block.next == id_block.end, 0)) {
		id_block.next = atomic_fetch_add_explicit(&ids, ID_BLOCK,
							  memory_order_relaxed);
		id_block.end = id_block.next + ID_BLOCK;
	}
	return id_block.next++;
}

static uint64_t site_id(uintptr_t site)
{
	if (site & REG_SITE_ID_TAG)
		return site & ~REG_SITE_ID_TAG;
	return site ? reg_site_from_ip(site) : 0;
}

/* Trace a host block that was only in the registry until now. */
static uint64_t emit_host_block(const struct reg_host_block *b, int lazy)
{
	struct hg_tp_alloc a = {
		.id = reg_next_id(), .addr = b->addr, .size = b->size,
		.callsite = site_id(b->site), .api = b->api,
		.mem = HG_MEM_SYSTEM, .gran = HG_GRAN_FINE, .lazy = (uint8_t)lazy,
		.device = -1,
	};

	reg_emit_alloc(&a);
	return a.id;
}

/* Trace a still-live block once, remembering its id for its free. */
static void trace_live_block(struct reg_host_block *b)
{
	if (!b->id) {
		b->id = emit_host_block(b, 1);
		reg_host_set_id(b->addr, b->id);
	}
}

static __attribute__((noinline)) void host_alloc_slow(void *p, size_t size,
							uint8_t api,
							uintptr_t caller)
{
	uintptr_t site = caller;
	struct reg_host_block b;

	if (!p)
		return;
	if (size >= reg_cfg.stack_threshold)
		site = REG_SITE_ID_TAG | reg_site_capture(SKIP_FRAMES);
	if (!reg_host_insert((uintptr_t)p, size, api, site))
		return;
	if (!reg_cfg.host_all)
		return;
	b = (struct reg_host_block){(uintptr_t)p, size, site, 0, api};
	reg_host_set_id(b.addr, emit_host_block(&b, 0));
}

/* The common case inline and frameless; the rest out of line. */
void reg_track_host_alloc(void *p, size_t size, uint8_t api, uintptr_t caller)
{
	if (__builtin_expect(p && size < reg_cfg.stack_threshold &&
				     size < REG_HOST_LARGE && !reg_cfg.host_all,
			     1))
		reg_host_insert((uintptr_t)p, size, api, caller);
	else
		host_alloc_slow(p, size, api, caller);
}

/* The allocators whose blocks a deallocator frees without a finding, as
 * a mask: the common free's one test, and the pairing rule itself. */
static inline uint64_t plain_allocs(uint8_t free_api)
{
	const uint64_t cxx = (1ull << HG_API_NEW) | (1ull << HG_API_NEW_ARRAY);

	switch (free_api) {
	case HG_API_DELETE:
		return 1ull << HG_API_NEW;
	case HG_API_DELETE_ARRAY:
		return 1ull << HG_API_NEW_ARRAY;
	case HG_API_FREE:
	case HG_API_REALLOC:
		return ~cxx;
	default:
		return 0;
	}
}

/* The deallocator that matches each allocator family (host allocators'
 * ids are all below 64; past the mask, freed as malloc's blocks are). */
static int host_pair_ok(uint8_t alloc_api, uint8_t free_api)
{
	uint64_t ok = plain_allocs(free_api);

	return (int)(ok >> (alloc_api < 64 ? alloc_api : HG_API_MALLOC) & 1);
}

static void emit_free(uint64_t id, uint8_t api, uintptr_t addr, size_t size,
		      int rc, uint8_t alloc_api, uint64_t callsite)
{
	struct hg_tp_free f = {id, addr, size, callsite, rc, api, alloc_api};

	reg_emit_free(&f);
}

/* free()/delete on memory the HIP runtime owns: about to corrupt the heap. */
static void foreign_host_free(uintptr_t p, uint8_t api, uintptr_t caller)
{
	struct reg_dev_info d;

	if (!reg_dev_find(p, &d) || d.base != p)
		return;
	emit_free(d.id, api, p, d.size, 0, d.api, reg_site_from_ip(caller));
}

static __attribute__((noinline)) void host_free_slow(void *p, uint8_t api,
						       uintptr_t caller)
{
	struct reg_host_block b;
	struct reg_dev_info d;

	if (!p)
		return;
	if (!reg_host_remove((uintptr_t)p, &b)) {
		foreign_host_free((uintptr_t)p, api, caller);
		return;
	}
	if (!host_pair_ok(b.api, api) && !b.id && !reg_runtime_code(caller))
		b.id = emit_host_block(&b, 1);
	if (!b.id)
		return;
	reg_dev_remove(b.addr, &d); /* where hipMemAdvise put it, if it did */
	emit_free(b.id, api, b.addr, b.size, 0, b.api, reg_site_from_ip(caller));
}

void reg_track_host_free(void *p, uint8_t api, uintptr_t caller)
{
	if (__builtin_expect(p != NULL, 1) &&
	    reg_host_drop_plain((uintptr_t)p, plain_allocs(api)))
		return;
	host_free_slow(p, api, caller);
}

void reg_track_hip_alloc(uint8_t api, int rc, void *p, size_t size,
			 uint32_t flags, uint64_t extra, int device)
{
	struct hg_tp_alloc a = {
		.addr = (uintptr_t)p, .size = size, .extra = extra,
		.flags = flags, .rc = rc, .device = device, .api = api,
		.callsite = reg_site_capture(SKIP_FRAMES),
	};

	struct reg_model_env env = {reg_cfg.host_coherent,
				    __atomic_load_n(&reg_cfg.rocm_major, __ATOMIC_RELAXED)};

	reg_model(api, flags, &env, &a.mem, &a.gran);
	if (rc == 0 && p) {
		struct reg_dev_info d = {(uintptr_t)p, size, 0, a.callsite,
					 flags, api, a.mem, a.gran};

		a.id = d.id = reg_next_id();
		reg_dev_add(&d);
	}
	reg_emit_alloc(&a);
}

void reg_track_hip_free_begin(void *p, struct reg_hip_free *st)
{
	st->found = p && reg_dev_remove((uintptr_t)p, &st->info);
}

/*
 * A free's call site is its caller's line, as for host frees: a full stack
 * here costs as much as the free event itself, and the report only ever
 * walks an allocation's stack.
 */
void reg_track_hip_free_end(uint8_t api, int rc, void *p,
			    const struct reg_hip_free *st, uintptr_t caller)
{
	uint64_t site = reg_site_from_ip(caller);
	struct reg_host_block b;

	if (st->found) {
		if (rc != 0)
			reg_dev_add(&st->info); /* the runtime kept it */
		emit_free(st->info.id, api, (uintptr_t)p, st->info.size, rc,
			  st->info.api, site);
		return;
	}
	/* hipFree on malloc memory, or on nothing we know. */
	if (p && reg_host_find((uintptr_t)p, &b) && b.addr == (uintptr_t)p) {
		trace_live_block(&b);
		emit_free(b.id, api, b.addr, b.size, rc, b.api, site);
		return;
	}
	emit_free(0, api, (uintptr_t)p, 0, rc, HG_API_UNKNOWN, site);
}

/* A pointer no GPU range holds. */
static void resolve_host(uintptr_t p, struct reg_ptr *out)
{
	struct reg_host_block b;

	*out = (struct reg_ptr){0, 0, HG_MEM_NULLPTR, HG_GRAN_UNKNOWN};
	if (!p)
		return;
	if (reg_host_find(p, &b)) {
		trace_live_block(&b);
		*out = (struct reg_ptr){b.id, p - b.addr, HG_MEM_SYSTEM,
					HG_GRAN_FINE};
		return;
	}
	out->mem = HG_MEM_SYSTEM_UNTRACKED;
}

void reg_track_resolve(uintptr_t p, struct reg_ptr *out)
{
	struct reg_dev_info d;

	if (p && reg_dev_find(p, &d))
		*out = (struct reg_ptr){d.id, p - d.base, d.mem, d.gran};
	else
		resolve_host(p, out);
}

/* A pointer no GPU range holds, as a launch argument's resolution. */
static void resolve_rest(uint64_t p, struct reg_dev_hit *out)
{
	struct reg_ptr o;

	resolve_host((uintptr_t)p, &o);
	*out = (struct reg_dev_hit){o.id, o.off, 0, o.mem, o.gran};
}

void reg_track_resolve_far(uint64_t p, struct reg_dev_hit *out)
{
	if (!reg_dev_find_far(p, out))
		resolve_rest(p, out);
}
