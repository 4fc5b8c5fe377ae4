/* SPDX-License-Identifier: MIT */
/*
 * A trace's findings merged into the report's groups as its result
 * arrives, so that a report of thousands of ranks holds one finding per
 * group, not one per rank.  Groups are equivalence classes (an_same_group
 * asks the same of any two members), made in the order of the list that
 * output would walk: the newest trace's findings first.  So the arriving
 * trace's groups go first, each taking an older group of its class (its
 * counts, ranks and findings), and the older groups it did not take
 * follow in their order: what grouping the whole list at output gives,
 * byte for byte.  A trace's processes are its own (keyed by the result
 * they came in), so each older finding of a class counts as a process
 * other than the new first's.  The HTML and Perfetto formats draw each
 * process's findings and keep them all.
 */
#include <stdlib.h>
#include <string.h>

#include "an_observed.h"
#include "an_output.h"
#include "an_result.h"

bool an_groups_live_for(const struct an_ctx *c)
{
	return c->opts->format != AN_FMT_HTML &&
	       c->opts->format != AN_FMT_PERFETTO;
}

/* The ranks of both, each once, sorted: into a (out of memory: a's). */
static void an_ranks_union(struct an_group *a, const struct an_group *b)
{
	long *v = malloc((a->nranks + b->nranks + 1) * sizeof(*v));
	unsigned i = 0, j = 0, n = 0;

	if (!v)
		return;
	while (i < a->nranks || j < b->nranks) {
		long x = j >= b->nranks || (i < a->nranks && a->ranks[i] <= b->ranks[j])
				 ? a->ranks[i]
				 : b->ranks[j];

		i += i < a->nranks && a->ranks[i] == x;
		j += j < b->nranks && b->ranks[j] == x;
		v[n++] = x;
	}
	free(a->ranks);
	a->ranks = v;
	a->nranks = n;
}

/* The older group of t's class, taken at most once (NULL: none). */
static struct an_group *an_older_of(struct an_groups *old, bool *taken,
				    const struct an_group *t)
{
	for (size_t i = 0; i < old->n; i++)
		if (!taken[i] && an_same_group(&old->g[i], t->first, t->site,
					       t->call.site, t->freed.site)) {
			taken[i] = true;
			return &old->g[i];
		}
	return NULL;
}

static void an_free_finding(struct an_finding *f)
{
	free(f->message);
	free(f);
}

/* The findings that first no group, freed; the firsts relinked as the
 * context's list. */
static void an_keep_firsts(struct an_ctx *c, struct an_finding *list)
{
	struct an_groups *gs = c->live;
	struct an_finding *keep = NULL;

	for (size_t i = 0; i < gs->n; i++)
		((struct an_finding *)gs->g[i].first)->kept = true;
	for (struct an_finding *f = list, *n; f; f = n) {
		n = f->all_next;
		if (f->kernel)
			f->kernel->judged = true;
		if (!f->kept)
			an_free_finding(f);
	}
	for (size_t i = gs->n; i-- > 0;) {
		struct an_finding *f = (struct an_finding *)gs->g[i].first;

		f->kept = false;
		f->all_next = keep;
		keep = f;
	}
	c->findings = keep;
}

int an_groups_arrive(struct an_ctx *c, struct an_finding *list, size_t rows_from)
{
	bool all = c->opts->format == AN_FMT_JSON;
	struct an_groups t = {0}, *old = c->live;
	struct an_group *g = NULL;
	struct an_finding **tail = &list;
	bool *taken = NULL;
	size_t k = 0;

	while (*tail)
		tail = &(*tail)->all_next;
	an_observed_arrive(c, list, rows_from);
	for (const struct an_finding *f = list; f; f = f->all_next)
		if (an_group_add(&t, f, all))
			goto fail;
	taken = calloc(old->n + 1, sizeof(*taken));
	g = malloc((t.n + old->n + 1) * sizeof(*g));
	if (!taken || !g)
		goto fail;
	for (size_t i = 0; i < t.n; i++) {
		struct an_group *o = an_older_of(old, taken, &t.g[i]);

		g[k] = t.g[i];
		if (o) {
			g[k].count += o->count;
			g[k].observed += o->observed;
			g[k].nprocs += o->nfound;
			g[k].nfound += o->nfound;
			an_ranks_union(&g[k], o);
			an_group_free(o);
		}
		k++;
	}
	for (size_t i = 0; i < old->n; i++)
		if (!taken[i])
			g[k++] = old->g[i];
	free(taken);
	free(old->g);
	free(t.g);
	*old = (struct an_groups){.g = g, .n = k};
	/* The older firsts a new first displaced are on the older list. */
	*tail = c->findings;
	an_keep_firsts(c, list);
	return 0;
fail:
	/* Out of memory: the report fails; its findings are freed with it. */
	free(taken);
	free(g);
	an_groups_free(&t);
	*tail = c->findings;
	c->findings = list;
	return -1;
}
