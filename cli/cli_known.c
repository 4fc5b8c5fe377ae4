/* SPDX-License-Identifier: MIT */
/*
 * Which virtual products the ROCm runtime here can drive, for `hipgrain
 * run`'s --help and list and before a run: a runtime that does not know
 * a product's target makes no agent of it ("Agent creation failed"), and
 * the program crashes or finds no GPU, long after the user could have
 * been told.
 */
#include "cli_known.h"

#include <stdio.h>
#include <string.h>

#include "vg_known.h"
#include "vg_node.h"

/* The runtime, looked for once per command. */
static const struct vg_rt *runtime(void)
{
	static struct vg_rt rt;
	static int state; /* 0 not looked for, 1 found, -1 none */

	if (!state)
		state = vg_known_runtime(&rt) ? -1 : 1;
	return state > 0 ? &rt : NULL;
}

/* Whether the runtime here knows gfx, each target read once: the list
 * asks of every product, and an unknown target is a read of the whole
 * library. */
static int knows(const char *gfx)
{
	static struct {
		const char *gfx;
		int known;
	} seen[8];
	const struct vg_rt *rt = runtime();
	size_t i = 0;

	for (; i < sizeof(seen) / sizeof(seen[0]) && seen[i].gfx; i++)
		if (!strcmp(seen[i].gfx, gfx))
			return seen[i].known;
	int k = rt ? vg_known_target(rt->path, gfx) : -1;
	if (i < sizeof(seen) / sizeof(seen[0]))
		seen[i].gfx = gfx, seen[i].known = k;
	return k;
}

const char *cli_known_mark(const struct vg_profile *p)
{
	int k = knows(p->gfx);

	return k > 0 ? "yes" : k == 0 ? "no" : "?";
}

/* The products' names whose target the runtime does (known = 1) or does
 * not (0) know, comma-separated. */
static void names(int known, char *buf, size_t cap)
{
	const struct vg_rt *rt = runtime();
	const struct vg_node *n;
	size_t w = 0;

	buf[0] = '\0';
	for (size_t i = 0; rt && (n = vg_node_at(i)) && w < cap; i++)
		if ((knows(n->gpu->gfx) > 0) == (known != 0))
			w += (size_t)snprintf(buf + w, cap - w, "%s%s", w ? ", " : "", n->name);
}

void cli_known_note(FILE *f)
{
	const struct vg_rt *rt = runtime();
	char yes[256], no[256];
	const struct vg_node *n;
	const char *gfx = NULL, *since;

	if (!rt) {
		fprintf(f, "No ROCm runtime (libhsa-runtime64.so.1) was found: a program run on a "
			   "virtual GPU needs one.\n");
		return;
	}
	names(1, yes, sizeof(yes));
	names(0, no, sizeof(no));
	fprintf(f, "The ROCm%s%s runtime here (%s) can drive %s", rt->release[0] ? " " : "",
		rt->release, rt->path, yes[0] ? yes : "none of them");
	for (size_t i = 0; no[0] && !gfx && (n = vg_node_at(i)); i++)
		if (!knows(n->gpu->gfx))
			gfx = n->gpu->gfx;
	if (!gfx) {
		fputs(".\n", f);
		return;
	}
	since = vg_known_since(gfx);
	fprintf(f, "; not %s: it does not know %s%s%s%s; --force-gpu runs them anyway.\n", no,
		gfx, since ? " (ROCm " : "", since ? since : "", since ? " and later do)" : "");
}

int cli_known_check(const struct vg_node *n, char *why, size_t cap)
{
	const struct vg_rt *rt = runtime();

	return rt && vg_known_why(rt, n->gpu->gfx, why, cap);
}
