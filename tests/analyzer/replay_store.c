/* SPDX-License-Identifier: MIT */
/*
 * Where replay keeps what it looks up at every event: live blocks behind
 * their cache (an_state_blocks.c), launch heads by number
 * (an_state_heads.c).  A block freed must not be found again through the
 * cache, whatever reuses its memory; a head put in the map for numbers far beyond the table must
 * still be found once the table has grown past its number.
 */
#include <stdio.h>
#include <stdlib.h>

#include "an_state.h"

static int failed;

static void check(const char *what, int cond)
{
	printf("%sok - %s\n", cond ? "" : "not ", what);
	failed |= !cond;
}

static void blocks(void)
{
	struct an_proc *p = calloc(1, sizeof(*p));
	struct an_alloc *a = an_alloc_new(p, 7), *b;

	check("a new block is found by its id", an_alloc_get(p, 7) == a);
	check("an unknown id finds nothing", !an_alloc_get(p, 8));
	check("id 0 finds nothing", !an_alloc_get(p, 0));
	an_alloc_drop(p, a);
	check("a dropped block is not found", !an_alloc_get(p, 7));
	b = an_alloc_new(p, 7 + AN_HOT_BLOCKS);
	check("its memory serves the next block", b == a);
	check("which its own id finds",
	      an_alloc_get(p, 7 + AN_HOT_BLOCKS) == b);
	check("and the old id still does not", !an_alloc_get(p, 7));
	a = an_alloc_new(p, 7);
	check("a block of the cache's slot taken is found through the map",
	      an_alloc_get(p, 7 + AN_HOT_BLOCKS) == b &&
		      an_alloc_get(p, 7) == a);
	an_blocks_fini(p);
	free(p);
}

static void heads(void)
{
	struct an_heads hs = {0};
	struct an_head *far = an_head_put(&hs, 100000), *h;

	check("a number far beyond the table is kept", far != NULL);
	for (uint64_t id = 1; id <= 200000; id++)
		if (id != 100000 && !an_head_put(&hs, id))
			break;
	check("the table grew past it", hs.cap > 100000);
	check("and it is still found", an_head_get(&hs, 100000) == far);
	h = an_head_put(&hs, 5);
	check("a number declared again is the same head",
	      h == an_head_get(&hs, 5) && h != far);
	check("number 0 is no head", !an_head_get(&hs, 0));
	check("a number never declared is none", !an_head_get(&hs, 300000));
	an_heads_fini(&hs);
}

int main(void)
{
	blocks();
	heads();
	return failed;
}
