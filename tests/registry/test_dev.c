/* SPDX-License-Identifier: MIT */
/* GPU ranges and their per-page granularity (hipMemAdvise splits). */
#include <pthread.h>
#include <stdint.h>

#include "hg_events.h"
#include "reg_dev.h"
#include "reg_recent.h"
#include "tap.h"

static int pieces;

static void count(const struct reg_dev_info *r, uintptr_t a, size_t n,
		  uint8_t g, void *arg)
{
	(void)r, (void)a, (void)n, (void)g, (void)arg;
	pieces++;
}

/* One pointer as a launch asks (pl_launch.c's resolve): the thread's
 * table first, then the registry under its lock. */
static struct reg_dev_hit find1(uint64_t p)
{
	struct reg_dev_hit h;
	int c;

	reg_recent_sync();
	c = p ? reg_recent_find(p) : -1;
	if (c >= 0)
		return (struct reg_dev_hit){reg_recent.id[c], p - reg_recent.base[c],
					    1, reg_recent.mem[c],
					    reg_recent.gran[c]};
	reg_dev_find_far(p, &h);
	return h;
}

/* Whether this thread's table holds p, without asking the registry. */
static int near_holds(uint64_t p)
{
	reg_recent_sync();
	return reg_recent_find(p) >= 0;
}

static void *near_other(void *arg)
{
	return near_holds((uintptr_t)arg) ? arg : NULL;
}

static void *remove_other(void *arg)
{
	struct reg_dev_info o;

	return reg_dev_remove((uintptr_t)arg, &o) ? arg : NULL;
}

static void *advise_other(void *arg)
{
	return reg_dev_set_gran((uintptr_t)arg, 4096, HG_GRAN_FINE, NULL,
				NULL) == 1 ? arg : NULL;
}

/*
 * Each thread remembers the ranges find_n found lately (reg_dev.c): what
 * it remembers must never outlive a change, whoever makes it.
 */
static void recent_lookups(void)
{
	struct reg_dev_info a = {0x200000, 4096, 31, 0, 0, 20, HG_MEM_DEVICE,
				 HG_GRAN_COARSE};
	struct reg_dev_info b = {0x300000, 4096, 32, 0, 0, 20, HG_MEM_DEVICE,
				 HG_GRAN_COARSE};
	struct reg_dev_info o;
	pthread_t t;
	void *r = NULL;

	reg_dev_add(&a);
	reg_dev_add(&b);
	pthread_create(&t, NULL, near_other, (void *)0x200010);
	pthread_join(t, &r);
	ok(near_holds(0x200010) && near_holds(0x300010) && !r,
	   "recent: the thread that allocates a range has it in its table at "
	   "once, another thread not");
	ok(find1(0x200010).id == 31 && find1(0x300010).id == 32 &&
		   find1(0x200010).id == 31,
	   "recent: found, and found again");
	ok(reg_dev_remove(0x300000, &o) && !find1(0x300010).found &&
		   find1(0x200010).id == 31,
	   "recent: this thread's remove forgets that range, keeps the other");
	pthread_create(&t, NULL, remove_other, (void *)0x200000);
	pthread_join(t, &r);
	ok(r && !find1(0x200010).found,
	   "recent: another thread's remove is seen");
	a.id = 33;
	reg_dev_add(&a);
	ok(find1(0x200010).id == 33, "recent: the address reused, new id");
	pthread_create(&t, NULL, advise_other, (void *)0x200000);
	pthread_join(t, &r);
	ok(r && find1(0x200010).gran == HG_GRAN_FINE,
	   "recent: another thread's advice is seen");
	ok(reg_dev_set_gran(0x200000, 4096, HG_GRAN_COARSE, NULL, NULL) == 1 &&
		   find1(0x200010).gran == HG_GRAN_COARSE,
	   "recent: this thread's advice is seen");
	b = (struct reg_dev_info){0x1ff000, 8192, 34, 0, 0, 20, HG_MEM_DEVICE,
				  HG_GRAN_FINE};
	ok(reg_dev_add(&b) && find1(0x200010).id == 34 &&
		   find1(0x200010).gran == HG_GRAN_FINE,
	   "recent: a range that replaces an overlapping one is seen");
	a = (struct reg_dev_info){0x400000, 2 * 4096, 35, 0, 0, 20,
				  HG_MEM_MANAGED, HG_GRAN_FINE};
	reg_dev_add(&a);
	reg_dev_set_gran(0x400000, 4096, HG_GRAN_COARSE, NULL, NULL);
	ok(find1(0x400000).gran == HG_GRAN_COARSE &&
		   find1(0x401000).gran == HG_GRAN_FINE &&
		   find1(0x400000).gran == HG_GRAN_COARSE,
	   "recent: a split range answers per page, every time");
	pthread_create(&t, NULL, remove_other, (void *)0x1ff000);
	pthread_join(t, &r);
	reg_dev_remove(0x400000, &o);
	ok(r && !find1(0x200010).found && !find1(0x400000).found &&
		   reg_dev_count() == 0,
	   "recent: everything removed, nothing found");
	/* An entry emptied by a free keeps its address: the address
	 * allocated again lands in another entry, and its free must empty
	 * that one. */
	a = (struct reg_dev_info){0x500000, 4096, 36, 0, 0, 20, HG_MEM_DEVICE,
				  HG_GRAN_COARSE};
	b = (struct reg_dev_info){0x600000, 4096, 37, 0, 0, 20, HG_MEM_DEVICE,
				  HG_GRAN_COARSE};
	reg_dev_add(&a);
	reg_dev_add(&b);
	find1(0x500000);
	reg_dev_remove(0x500000, &o);
	reg_dev_remove(0x600000, &o);
	a.id = 38;
	reg_dev_add(&a);
	reg_dev_remove(0x500000, &o);
	ok(!near_holds(0x500000) && !find1(0x500000).found,
	   "recent: an address freed, allocated again and freed is forgotten");
}

int main(void)
{
	struct reg_dev_info d = {0x10000, 8 * 4096, 7, 0, 0, 21, HG_MEM_MANAGED,
				 HG_GRAN_FINE};
	struct reg_dev_info o;

	ok(reg_dev_add(&d), "add a managed range of 8 pages");
	ok(reg_dev_find(0x10000 + 5000, &o) && o.id == 7 &&
		   o.gran == HG_GRAN_FINE,
	   "interior pointer resolves, fine grain");
	ok(reg_dev_set_gran(0x10000, 4 * 4096, HG_GRAN_COARSE, count, NULL) ==
		   1 && pieces == 1,
	   "coarse-grain advice on the first half touches one range");
	ok(reg_dev_find(0x10000, &o) && o.gran == HG_GRAN_MIXED,
	   "from the start, the kernel can reach both halves: mixed");
	ok(reg_dev_find(0x10000 + 4 * 4096, &o) && o.gran == HG_GRAN_FINE,
	   "a pointer into the second half sees only fine pages");
	ok(reg_dev_find(0x10000 + 4 * 4096 - 1, &o) && o.gran == HG_GRAN_MIXED,
	   "the last byte of the first half still reaches the fine half");
	{
		/* A launch's arguments at once: what one find says, each. */
		const uint64_t p[5] = {0x10000, 0x10000 + 4 * 4096, 0,
				       0x10000 + 8 * 4096, 0x10000 + 4095};
		struct reg_dev_hit h[5];

		for (int i = 0; i < 5; i++)
			h[i] = find1(p[i]);
		ok(h[0].found && h[0].id == 7 && h[0].off == 0 &&
			   h[0].mem == HG_MEM_MANAGED &&
			   h[0].gran == HG_GRAN_COARSE && h[1].found &&
			   h[1].off == 4 * 4096 && h[1].gran == HG_GRAN_FINE &&
			   h[4].found && h[4].off == 4095 &&
			   h[4].gran == HG_GRAN_COARSE,
		   "interior pointers, offsets, the granularity of the page "
		   "each points into");
		ok(!h[2].found && !h[3].found,
		   "NULL and one past the end are in no range");
	}
	ok(reg_dev_set_gran(0x10000, 8 * 4096, HG_GRAN_COARSE, NULL, NULL) == 1,
	   "advice on the whole range");
	ok(reg_dev_find(0x10000, &o) && o.gran == HG_GRAN_COARSE,
	   "now coarse everywhere (pieces coalesced)");
	ok(reg_dev_set_gran(0x90000, 4096, HG_GRAN_COARSE, NULL, NULL) == 0,
	   "advice outside every range touches none");
	d = (struct reg_dev_info){0x14000, 4096, 8, 0, 0, 20, HG_MEM_DEVICE,
				  HG_GRAN_COARSE};
	ok(reg_dev_add(&d) && reg_dev_find(0x10000, &o) == 0 &&
		   reg_dev_find(0x14000, &o) && o.id == 8,
	   "an overlapping new range replaces a stale one");
	ok(reg_dev_remove(0x14000, &o) && o.id == 8 && reg_dev_count() == 0,
	   "remove by base");
	ok(!reg_dev_remove(0x14000, &o), "second remove finds nothing");
	recent_lookups();
	return done();
}
