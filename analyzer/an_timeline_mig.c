/* SPDX-License-Identifier: MIT */
/* Migrations on the timeline: slices from the driver's start to its end. */
#include <stdio.h>

#include "an_fmt.h"
#include "an_output.h"
#include "an_timeline.h"
#include "kd_smi.h"

/* How far back an end looks for its start: the driver reports the two
 * around one migration, others of the process may come between. */
#define AN_TL_MIG_BACK 64

void an_tl_mig_start(struct an_ctx *c, const struct an_tl_mig *m)
{
	struct an_tl *tl = c->tl;
	struct an_tl_mig *g;

	if (!tl || tl->failed)
		return;
	g = an_tl_grow(tl->mig, &tl->capmig, tl->nmig + 1, sizeof(*g));
	if (!g) {
		tl->failed = true;
		return;
	}
	tl->mig = g;
	g = &tl->mig[tl->nmig++];
	*g = *m;
	g->t = c->now_ns;
	g->tid = c->now_tid;
	g->dur = 0;
	g->ended = false;
	if (!tl->n && tl->nmig == 1)
		tl->t0 = tl->t1 = c->now_ns;
	if (c->now_ns < tl->t0)
		tl->t0 = c->now_ns;
	if (c->now_ns > tl->t1)
		tl->t1 = c->now_ns;
}

void an_tl_mig_end(struct an_ctx *c, const struct an_tl_mig *m)
{
	struct an_tl *tl = c->tl;

	for (size_t i = tl ? tl->nmig : 0, k = 0; i > 0 && k < AN_TL_MIG_BACK;
	     i--, k++) {
		struct an_tl_mig *s = &tl->mig[i - 1];

		if (s->ended || s->proc != m->proc || s->addr != m->addr ||
		    s->size != m->size || s->from != m->from || s->to != m->to)
			continue;
		s->ended = true;
		s->dur = m->ns > s->ns ? m->ns - s->ns : 0;
		s->error = m->error;
		return;
	}
}

static const char *an_tl_node(uint32_t id)
{
	return id ? "GPU" : "system";
}

void an_tl_mig_name(const struct an_tl_mig *m, char *buf, size_t cap)
{
	const char *why =
		kd_smi_trigger_name(KFD_SMI_EVENT_MIGRATE_START, m->trigger);
	char size[32];

	an_bytes_text(m->size, size, sizeof(size));
	snprintf(buf, cap, "migrate %s %s %s→%s", why ? why : "(unknown)",
		 size, an_tl_node(m->from), an_tl_node(m->to));
}
