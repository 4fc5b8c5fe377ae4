/* SPDX-License-Identifier: MIT */
/* GPU ranges and their per-page granularity (hipMemAdvise splits). */
#include <stdint.h>

#include "hg_events.h"
#include "reg_dev.h"
#include "tap.h"

static int pieces;

static void count(const struct reg_dev_info *r, uintptr_t a, size_t n,
		  uint8_t g, void *arg)
{
	(void)r, (void)a, (void)n, (void)g, (void)arg;
	pieces++;
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

		reg_dev_find_n(p, 5, h);
		ok(h[0].found && h[0].id == 7 && h[0].off == 0 &&
			   h[0].mem == HG_MEM_MANAGED &&
			   h[0].gran == HG_GRAN_COARSE && h[1].found &&
			   h[1].off == 4 * 4096 && h[1].gran == HG_GRAN_FINE &&
			   h[4].found && h[4].off == 4095 &&
			   h[4].gran == HG_GRAN_COARSE,
		   "find_n: interior pointers, offsets, the granularity of the "
		   "page each points into");
		ok(!h[2].found && !h[3].found,
		   "find_n: NULL and one past the end are in no range");
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
	return done();
}
