/* SPDX-License-Identifier: MIT */
/*
 * The traffic table's merge, driven directly: what one kernel cannot show
 * on vx-probe, because one dispatch there has one context.  Contexts that
 * ran apart (threads of work-groups) flush into one result: the same
 * buffer object adds up, runs of pages in no object that meet become one
 * row and runs apart stay apart, and rows past the table's size are summed
 * in traffic_more rather than lost.
 */
#include <stdio.h>
#include <string.h>

#include "vx_int.h"

static int failed, n;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
	failed += !cond;
}

/* Count len bytes at va in a page of region as the engine would: the
 * slot filled, then the access counted, then the slot refilled. */
static void touch(struct vx_ctx *c, uint64_t region, uint64_t va, unsigned len, int write)
{
	struct vx_wave w = { .c = c };
	unsigned slot = (unsigned)(va / VX_PAGE % VX_TLB);
	vx_traffic_evict(c, slot);
	c->tlb.vpn[slot] = va / VX_PAGE + 1;
	c->tlb.page[slot].region = region;
	vx_count(&w, va, len, write);
	vx_traffic_evict(c, slot);
}

static const struct vx_traffic *row_at(const struct vx_result *r, uint64_t region,
				       uint64_t lo)
{
	for (unsigned i = 0; i < r->ntraffic; i++)
		if (r->traffic[i].region == region && r->traffic[i].lo == lo)
			return &r->traffic[i];
	return NULL;
}

static void contexts_meet(void)
{
	static struct vx_ctx a, b;
	static struct vx_result r;
	touch(&a, 0, 0x100000, 64, 0);
	touch(&a, 0, 0x102000, 64, 1);
	touch(&a, 0x900000, 0x900100, 16, 0);
	touch(&b, 0, 0x101040, 32, 0);
	touch(&b, 0, 0x104000, 8, 1);
	touch(&b, 0x900000, 0x900000, 16, 1);
	vx_traffic_flush(&a, &r);
	ok(r.ntraffic == 3, "one context: its two runs apart, its object");
	vx_traffic_flush(&b, &r);
	const struct vx_traffic *run = row_at(&r, 0, 0x100000);
	const struct vx_traffic *apart = row_at(&r, 0, 0x104000);
	const struct vx_traffic *bo = row_at(&r, 0x900000, 0x900000);
	ok(r.ntraffic == 3, "another context's page joins the two runs: three rows");
	ok(run && run->hi == 0x10203f && run->read == 96 && run->written == 64,
	   "the joined run: from its lowest byte to its highest, bytes summed");
	ok(apart && apart->written == 8 && apart->hi == 0x104007,
	   "a run a page apart stays apart");
	ok(bo && bo->hi == 0x90010f && bo->read == 16 && bo->written == 16,
	   "the same object from both contexts adds up");
}

static void rows_past_the_table(void)
{
	static struct vx_ctx c;
	static struct vx_result r;
	for (uint64_t i = 0; i < VX_TRAFFIC + 6; i++)
		touch(&c, 0x1000000 + i * 0x10000, 0x1000000 + i * 0x10000 + 8, 4, 0);
	vx_traffic_flush(&c, &r);
	ok(r.ntraffic == VX_TRAFFIC, "rows past the table are not listed");
	ok(r.traffic_more.read == 24 && r.traffic_more.region == 0 &&
	   r.traffic_more.lo == 0x1000000 + VX_TRAFFIC * 0x10000ull + 8,
	   "but summed, from the lowest byte among them");
}

int main(void)
{
	contexts_meet();
	rows_past_the_table();
	printf("1..%d\n", n);
	return failed != 0;
}
