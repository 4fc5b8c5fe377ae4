/* SPDX-License-Identifier: MIT */
/*
 * Which code object the runtime would load, for a bundle holding a generic
 * target beside specific ones (made by test_targets.py): a specific
 * target's code wins over a generic one's, and the generic one serves the
 * rest of its family.
 *
 * usage: co_select_test BUNDLE
 */
#include <stdio.h>
#include <string.h>

#include "co.h"

static int failed;

static void picks(const struct co_set *set, const char *dev, const char *want)
{
	long i = co_set_select(set, dev);
	const char *got = i >= 0 ? co_set_entry(set, i)->target : "(none)";
	bool ok = !strcmp(got, want);

	printf("%s - device %s loads %s (got %s)\n", ok ? "ok" : "not ok", dev,
	       want, got);
	failed |= !ok;
}

int main(int argc, char **argv)
{
	struct co_error err;
	char msg[512];
	struct co_set *set;

	if (argc != 2)
		return 64;
	set = co_set_from_file(argv[1], &err);
	if (!set) {
		printf("not ok - %s\n", co_error_str(&err, msg, sizeof msg));
		return 1;
	}
	picks(set, "gfx942", "gfx942");
	picks(set, "gfx950:xnack-", "gfx9-4-generic");
	picks(set, "gfx940", "gfx9-4-generic");
	picks(set, "gfx90a", "gfx90a");
	picks(set, "gfx1102", "gfx1102");
	picks(set, "gfx1030", "(none)");
	co_set_free(set);
	return failed;
}
