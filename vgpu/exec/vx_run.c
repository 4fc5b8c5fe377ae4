/* SPDX-License-Identifier: MIT */
/*
 * A dispatch: its descriptor read and checked, then its work-groups handed
 * out in order to as many threads as the device allows (the caller's among
 * them), each with its own caches and frame, as a GPU's compute units take
 * work-groups.  The threads' results are merged so that a dispatch that
 * runs to its end says the same whatever the number of threads (unless its
 * waves wait on each other or on the host, and count their spins): counts
 * summed, the atomics that did nothing keyed by instruction and region in
 * address order.  A dispatch that stops takes its reason from the lowest
 * work-group that stopped; groups after it are abandoned, and what they
 * did before is counted as what a GPU's other compute units would have
 * done meanwhile.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vx_int.h"
#include "vx_fast.h"

/* What gfx9 hardware offers a work-group: beyond it no real dispatch
 * starts, and the frame's allocations stay bounded whatever a descriptor
 * or a packet says. */
#define MAX_ITEMS 1024
#define MAX_LDS (64u << 10)
#define MAX_PRIVATE (128u << 10)	/* per lane: TMPRING's wave size / 64 */
#define MAX_THREADS 64

struct pool {
	uint64_t groups;
	uint64_t next;		/* the next group to hand out */
	uint64_t stop_at;	/* the lowest group that stopped the dispatch */
	uint64_t written[VX_HOLD_WRITTEN];	/* vx_ctx's written */
	struct vx_wback *wb;	/* vx_ctx's wb */
};

struct worker {
	struct pool *p;
	struct vx_ctx c;
	struct vx_frame f;
	struct vx_result r;
	uint64_t stopped;	/* the group that stopped it, or UINT64_MAX */
	pthread_t t;
};

static int read_kd(struct vx_ctx *c)
{
	uint8_t kd[64];
	struct vx_wave probe = { .c = c };
	if (vx_mem_copy(&probe, c->l->kd_va, kd, sizeof(kd), 0) ||
	    isa_kd_parse(kd, c->dev->fam, &c->kd)) {
		c->r->status = VX_BAD_CODE;
		c->r->pc = c->l->kd_va;
		return -1;
	}
	c->code_va = c->l->kd_va + (uint64_t)c->kd.entry_offset;
	return 0;
}

static void lower(uint64_t *at, uint64_t g)
{
	uint64_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);
	while (g < cur && !__atomic_compare_exchange_n(at, &cur, g, 1, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

static uint64_t cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *work(void *arg)
{
	struct worker *k = arg;
	struct pool *p = k->p;
	uint64_t t0 = cpu_now();
	for (;;) {
		uint64_t g = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
		if (g >= p->groups || g > __atomic_load_n(&p->stop_at, __ATOMIC_RELAXED))
			break;
		int rc = vx_group_run(&k->c, &k->f, g);
		if (rc < 0) {
			k->stopped = g;
			lower(&p->stop_at, g);
		}
		if (rc)
			break;
	}
	k->r.cpu_ns = cpu_now() - t0;
	return NULL;
}

static int drop_cmp(const void *a, const void *b)
{
	const struct vx_drop *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->region != y->region)
		return x->region < y->region ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

static int race_cmp(const void *a, const void *b)
{
	const struct vx_race *x = a, *y = b;
	if (x->pc[0] != y->pc[0])
		return x->pc[0] < y->pc[0] ? -1 : 1;
	if (x->pc[1] != y->pc[1])
		return x->pc[1] < y->pc[1] ? -1 : 1;
	return x->lds < y->lds ? -1 : x->lds > y->lds;
}

static int traffic_cmp(const void *a, const void *b)
{
	const struct vx_traffic *x = a, *y = b;
	if (x->region != y->region)
		return x->region < y->region ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void merge(struct vx_result *r, struct worker *k, unsigned n)
{
	unsigned first = n;
	for (unsigned i = 0; i < n; i++) {
		r->insns += k[i].r.insns;
		r->cpu_ns += k[i].r.cpu_ns;
		r->drops_lost += k[i].r.drops_lost;
		for (unsigned j = 0; j < k[i].r.ndrops; j++)
			vx_drop_add(r, &k[i].r.drops[j]);
		r->stales_lost += k[i].r.stales_lost;
		for (unsigned j = 0; j < k[i].r.nstales; j++)
			vx_l2row_add(r->stales, &r->nstales, VX_STALES, &r->stales_lost,
				     &k[i].r.stales[j]);
		r->races_lost += k[i].r.races_lost;
		r->races_unchecked += k[i].r.races_unchecked;
		for (unsigned j = 0; j < k[i].r.nraces; j++)
			vx_race_add(r, &k[i].r.races[j]);
		if (k[i].stopped != UINT64_MAX &&
		    (first == n || k[i].stopped < k[first].stopped))
			first = i;
	}
	qsort(r->drops, r->ndrops, sizeof(r->drops[0]), drop_cmp);
	qsort(r->races, r->nraces, sizeof(r->races[0]), race_cmp);
	qsort(r->stales, r->nstales, sizeof(r->stales[0]), vx_l2row_cmp);
	for (unsigned i = 0; i < n; i++)
		vx_traffic_flush(&k[i].c, r);
	qsort(r->traffic, r->ntraffic, sizeof(r->traffic[0]), traffic_cmp);
	if (first == n)
		return;
	const struct vx_result *s = &k[first].r;
	r->status = s->status;
	r->pc = s->pc;
	r->word = s->word;
	memcpy(r->what, s->what, sizeof(r->what));
	r->fault_va = s->fault_va;
	r->fault_write = s->fault_write;
}

static unsigned thread_count(const struct vx_device *dev, const struct vx_launch *l,
			     uint64_t groups)
{
	/* the limit counts one thread's instructions */
	if (l->max_insns)
		return 1;
	uint64_t n = dev->threads ? dev->threads : 1;
	n = n < groups ? n : groups;
	return n < MAX_THREADS ? (unsigned)n : MAX_THREADS;
}

static int setup(struct worker *k, struct pool *p, const struct vx_ctx *c, unsigned n,
		 uint32_t lds, uint32_t priv)
{
	k->p = p;
	k->c = *c;
	k->c.konst_ok = 0;
	k->c.r = &k->r;
	k->c.stop_at = n > 1 ? &p->stop_at : NULL;
	k->c.written = n > 1 ? p->written : NULL;
	k->c.wb = p->wb;
	k->stopped = UINT64_MAX;
	k->c.ic = vx_icache_new();
	return k->c.ic && !vx_frame_alloc(&k->f, &k->c, lds, priv) ? 0 : -1;
}

/* The workers past the first on threads of their own, every signal
 * blocked: the program's handlers are for its own threads.  Returns how
 * many started. */
static unsigned start(struct worker *k, unsigned n)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	unsigned i = 1;
	for (; i < n; i++)
		if (pthread_create(&k[i].t, NULL, work, &k[i]))
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return i;
}

static void run_pool(const struct vx_ctx *c, struct vx_result *r, uint64_t groups,
		     uint32_t lds, uint32_t priv)
{
	/* without room for dirty lines, stores write through */
	struct pool p = { .groups = groups, .stop_at = UINT64_MAX,
			  .wb = vx_wback_new(c->dev) };
	unsigned n = thread_count(c->dev, c->l, groups);
	struct worker *k = calloc(n, sizeof(*k));
	unsigned ready = 0;
	while (k && ready < n && !setup(&k[ready], &p, c, n, lds, priv))
		ready++;
	if (!k || ready < n) {
		r->status = VX_NOMEM;
	} else {
		unsigned started = start(k, n);
		work(&k[0]);
		for (unsigned i = 1; i < started; i++)
			pthread_join(k[i].t, NULL);
		/* threads that could not start leave their groups to the others */
		merge(r, k, started);
	}
	/* What a dispatch cut short left in the L2 is said before the end
	 * writes it back: on the card it would stay there (a hung kernel's
	 * stores), unseen by whoever waits for them. */
	if (r->status != VX_DONE)
		vx_wback_unwritten(p.wb, r);
	vx_wback_free(p.wb);	/* the kernel's end writes the L2 back */
	/* a worker never set up is zeros: nothing to free */
	for (unsigned i = 0; k && i < n; i++) {
		vx_frame_free(&k[i].f);
		free(k[i].c.ic);
		vx_hold_free(&k[i].c);
	}
	free(k);
}

/* What no gfx9 work-group can have, said in the dispatch's own terms
 * (the hardware would not start it). */
static bool too_large(struct vx_ctx *c, uint32_t lds, uint32_t priv)
{
	const struct vx_launch *l = c->l;
	uint64_t items = (uint64_t)l->wg[0] * l->wg[1] * l->wg[2];
	struct vx_result *r = c->r;

	if (items > MAX_ITEMS)
		snprintf(r->what, sizeof(r->what), "%llu work-items a group, over %u",
			 (unsigned long long)items, MAX_ITEMS);
	else if (lds > MAX_LDS)
		snprintf(r->what, sizeof(r->what), "%u bytes of LDS, over %u", lds,
			 MAX_LDS);
	else if (priv > MAX_PRIVATE)
		snprintf(r->what, sizeof(r->what),
			 "%u private bytes a lane, over %u", priv, MAX_PRIVATE);
	else
		return false;
	r->status = VX_TOO_LARGE;
	r->pc = l->kd_va;
	return true;
}

enum vx_status vx_run(const struct vx_device *dev, const struct vx_launch *l,
		      struct vx_result *r)
{
	memset(r, 0, sizeof(*r));
	struct vx_ctx c = { .dev = dev, .l = l, .r = r, .cap = UINT64_MAX,
			    .lanes = vx_fast_table(dev) };
	if (l->max_insns || l->budget)
		c.cap = l->max_insns ? l->max_insns : l->budget;
	if (read_kd(&c))
		return r->status;
	uint64_t groups = 1;
	for (int i = 0; i < 3; i++) {
		if (!l->wg[i] || !l->grid[i])
			return r->status;	/* nothing to run: an empty grid */
		groups *= ((uint64_t)l->grid[i] + l->wg[i] - 1) / l->wg[i];
	}
	/* The packet's group segment size is the kernel's static LDS plus
	 * what the launch adds (the HSA runtime spec; ROCclr writes it so):
	 * the descriptor's figure is a floor, never an addend. */
	uint32_t lds = c.kd.group_segment_fixed_size > l->group_segment_size
		       ? c.kd.group_segment_fixed_size : l->group_segment_size;
	uint32_t priv = c.kd.private_segment_fixed_size > l->private_segment_size
			? c.kd.private_segment_fixed_size : l->private_segment_size;
	if (too_large(&c, lds, priv))
		return r->status;
	run_pool(&c, r, groups, lds, priv);
	return r->status;
}
