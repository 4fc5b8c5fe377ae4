/* SPDX-License-Identifier: MIT */
/*
 * One finding for one fault: a launch whose three arguments each point into
 * malloc memory is one mistake made three times, and three findings that
 * differ in a digit read as noise.  Groups equal but for the argument their
 * message names are folded into the one of the lowest index, which names
 * them all, each with its allocation.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_output.h"
#include "an_rule.h"

/* Where "argument N" is in the message: the number's offset and length;
 * -1 when it names none. */
static int an_msg_arg(const char *m, size_t *at, size_t *len)
{
	const char *p = m ? strstr(m, "argument ") : NULL;
	char *end;
	long v;

	if (!p || !isdigit((unsigned char)p[9]))
		return -1;
	v = strtol(p + 9, &end, 10);
	*at = (size_t)(p + 9 - m);
	*len = (size_t)(end - (p + 9));
	return v < 0 || v > 65535 ? -1 : (int)v;
}

static bool an_foldable(const struct an_group *a, const struct an_group *b)
{
	const struct an_finding *x = a->first, *y = b->first;
	const char *mx = x->message, *my = y->message;
	size_t ax, lx, ay, ly;

	if (a->arg < 0 || b->arg < 0 || a->arg == b->arg || x->rule != y->rule ||
	    x->sev != y->sev || x->proc != y->proc || a->count != b->count ||
	    !x->kernel || !y->kernel || !x->kernel->name || !y->kernel->name ||
	    strcmp(x->kernel->name, y->kernel->name) || !x->has_alloc ||
	    !y->has_alloc || x->alloc.api != y->alloc.api ||
	    x->alloc.gran != y->alloc.gran || x->alloc.mem != y->alloc.mem ||
	    strcmp(a->call.site, b->call.site) ||
	    strcmp(a->freed.site, b->freed.site))
		return false;
	an_msg_arg(mx, &ax, &lx);
	an_msg_arg(my, &ay, &ly);
	return ax == ay && !strncmp(mx, my, ax) && !strcmp(mx + ax + lx, my + ay + ly);
}

static int an_by_arg(const void *a, const void *b)
{
	return ((const struct an_group *)a)->arg - ((const struct an_group *)b)->arg;
}

/* "... as arguments 0, 1 and 2 while ..." */
static char *an_fold_message(const struct an_group *g)
{
	const char *m = g->first->message;
	size_t at, len, cap, o;
	char *buf;

	an_msg_arg(m, &at, &len);
	cap = strlen(m) + 16 * (g->nalso + 2);
	buf = malloc(cap);
	if (!buf)
		return NULL;
	o = (size_t)snprintf(buf, cap, "%.*ss %d", (int)(at - 1), m, g->arg);
	for (unsigned i = 0; i < g->nalso && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%d",
				      i + 1 == g->nalso ? " and " : ", ",
				      g->also[i].arg);
	if (o < cap)
		snprintf(buf + o, cap - o, "%s", m + at + len);
	return buf;
}

/* b's place in a's list, or a's head given to b when b has the lower
 * index: the head is always the first argument. */
static int an_fold_into(struct an_group *a, struct an_group *b)
{
	struct an_group *v = realloc(a->also, (a->nalso + 1) * sizeof(*v));

	if (!v)
		return -1;
	a->also = v;
	a->also[a->nalso++] = *b;
	return 0;
}

static void an_fold_order(struct an_group *g)
{
	unsigned lo = 0;

	for (unsigned i = 1; i < g->nalso; i++)
		if (g->also[i].arg < g->also[lo].arg)
			lo = i;
	if (g->nalso && g->also[lo].arg < g->arg) {
		struct an_group head = *g, low = g->also[lo];

		head.also = NULL;
		head.nalso = 0;
		low.also = g->also;
		low.nalso = g->nalso;
		low.also[lo] = head;
		*g = low;
	}
	qsort(g->also, g->nalso, sizeof(*g->also), an_by_arg);
}

void an_groups_fold(struct an_groups *gs)
{
	size_t o = 0;
	size_t at, len;

	for (size_t i = 0; i < gs->n; i++)
		gs->g[i].arg = an_msg_arg(gs->g[i].first->message, &at, &len);
	for (size_t i = 0; i < gs->n; i++) {
		struct an_group *a = &gs->g[i];

		if (!a->first)
			continue; /* folded */
		for (size_t j = i + 1; j < gs->n; j++) {
			struct an_group *b = &gs->g[j];

			if (!b->first || !an_foldable(a, b))
				continue;
			for (unsigned k = 0; k < a->nalso; k++)
				if (a->also[k].arg == b->arg)
					goto next; /* one allocation per argument */
			if (an_fold_into(a, b))
				break;
			gs->by_sev[b->first->sev & 3]--;
			b->first = NULL;
next:;
		}
		if (a->nalso) {
			an_fold_order(a);
			a->message = an_fold_message(a);
		}
	}
	for (size_t i = 0; i < gs->n; i++)
		if (gs->g[i].first)
			gs->g[o++] = gs->g[i];
	gs->n = o;
}
