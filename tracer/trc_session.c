/* SPDX-License-Identifier: MIT */
/*
 * One LTTng session per run.  Per-UID buffers live in the consumer daemon,
 * so what a crashing program wrote survives it; discard mode keeps the
 * program's speed and LTTng counts what it drops (the report shows it);
 * --lossless blocks the program instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "trc_int.h"

#define CHANNEL "hipgrain"

static const char *const patterns[] = {
    "hipgrain:*",	     /* our provider */
    "lttng_ust_statedump:*", /* what is mapped where, at start */
    "lttng_ust_dl:*",	     /* ... and as it changes */
};

/*
 * Only what the analyzer reads: every context field is priced on every
 * event.  A process is named by the `process` event of the image it runs.
 */
static const enum lttng_event_context_type contexts[] = {
    LTTNG_EVENT_CONTEXT_VPID,
};

static int fail(const char *what, int rc)
{
	trc_err("cannot %s: %s", what, lttng_strerror(rc < 0 ? rc : -rc));
	return -1;
}

static void make_name(char *buf, size_t len)
{
	struct timespec ts;
	unsigned r;

	clock_gettime(CLOCK_REALTIME, &ts);
	r = (unsigned)(ts.tv_nsec ^ (getpid() << 16)) * 2654435761u;
	snprintf(buf, len, "hipgrain-%ld-%lld-%08x", (long)getpid(),
		 (long long)ts.tv_sec, r);
}

/* A relayed session is named for the trace it makes: lttng-relayd files
 * it as HOST/NAME-DATE on its side. */
static void relay_name(char *buf, size_t len, const char *dir)
{
	size_t o = 0;

	for (const char *p = dir; *p && o + 1 < len; p++)
		buf[o++] = *p == '/' ? '-' : *p;
	buf[o] = '\0';
}

static struct lttng_session_descriptor *describe(struct trc_session *s,
						 const char *dir,
						 const struct trc_opts *o)
{
	char url[300];

	if (!o->relay) {
		make_name(s->name, sizeof(s->name));
		return lttng_session_descriptor_local_create(s->name, dir);
	}
	relay_name(s->name, sizeof(s->name), dir);
	snprintf(url, sizeof(url), "net://%s", o->relay);
	return lttng_session_descriptor_network_create(s->name, url, NULL);
}

static int create(struct trc_session *s, const char *dir,
		  const struct trc_opts *o)
{
	struct lttng_session_descriptor *desc;
	enum lttng_error_code rc;

	desc = describe(s, dir, o);
	if (!desc)
		return fail("describe the session", -LTTNG_ERR_NOMEM);
	rc = lttng_create_session_ext(desc);
	lttng_session_descriptor_destroy(desc);
	if (rc != LTTNG_OK && o->relay) {
		trc_err("cannot stream to lttng-relayd at %s: %s (is it "
			"running and reachable?)", o->relay,
			lttng_strerror(-(int)rc));
		return -1;
	}
	if (rc != LTTNG_OK)
		return fail("create the tracing session", -(int)rc);
	s->created = true;
	return 0;
}

static int add_channel(struct lttng_handle *h, struct lttng_domain *dom,
		       const struct trc_opts *o)
{
	struct lttng_channel *ch = lttng_channel_create(dom);
	int rc;

	if (!ch)
		return fail("describe the channel", -LTTNG_ERR_NOMEM);
	snprintf(ch->name, sizeof(ch->name), "%s", CHANNEL);
	/* lttng_channel_create() leaves `enabled` at 0.  lttng-tools 2.13
	 * ignored it; 2.16's session daemon creates the channel disabled,
	 * so every event in it is dropped and the trace comes out empty. */
	ch->enabled = 1;
	ch->attr.overwrite = 0;
	ch->attr.subbuf_size = o->subbuf_size;
	ch->attr.num_subbuf = o->num_subbuf;
	ch->attr.output = LTTNG_EVENT_MMAP;
	rc = o->lossless ? lttng_channel_set_blocking_timeout(ch, -1) : 0;
	if (rc == 0)
		rc = lttng_enable_channel(h, ch);
	lttng_channel_destroy(ch);
	return rc < 0 ? fail("create the channel", rc) : 0;
}

static int add_events(struct lttng_handle *h)
{
	for (size_t i = 0; i < sizeof(patterns) / sizeof(*patterns); i++) {
		struct lttng_event *ev = lttng_event_create();
		int rc;

		if (!ev)
			return fail("describe an event rule", -LTTNG_ERR_NOMEM);
		ev->type = LTTNG_EVENT_TRACEPOINT;
		ev->loglevel_type = LTTNG_EVENT_LOGLEVEL_ALL;
		snprintf(ev->name, sizeof(ev->name), "%s", patterns[i]);
		rc = lttng_enable_event(h, ev, CHANNEL);
		lttng_event_destroy(ev);
		if (rc < 0) {
			trc_err("cannot enable events %s", patterns[i]);
			return fail("enable events", rc);
		}
	}
	for (size_t i = 0; i < sizeof(contexts) / sizeof(*contexts); i++) {
		struct lttng_event_context ctx;
		int rc;

		memset(&ctx, 0, sizeof(ctx));
		ctx.ctx = contexts[i];
		rc = lttng_add_context(h, &ctx, NULL, CHANNEL);
		if (rc < 0)
			return fail("add a context field", rc);
	}
	return 0;
}

/* Only the processes trc_session_track() names are recorded: the ranks
 * of a node share a daemon, and each rank's session is its own. */
static int track_none(struct trc_session *s)
{
	enum lttng_error_code rc = lttng_session_get_tracker_handle(
	    s->name, LTTNG_DOMAIN_UST, LTTNG_PROCESS_ATTR_VIRTUAL_PROCESS_ID,
	    &s->tracker);

	if (rc != LTTNG_OK)
		return fail("get the session's process tracker", -(int)rc);
	if (lttng_process_attr_tracker_handle_set_tracking_policy(
		s->tracker, LTTNG_TRACKING_POLICY_INCLUDE_SET) !=
	    LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK) {
		trc_err("cannot restrict the session to this rank's process");
		return -1;
	}
	return 0;
}

int trc_session_track(struct trc_session *s, pid_t pid)
{
	if (!s->tracker)
		return 0;
	if (lttng_process_attr_virtual_process_id_tracker_handle_add_pid(
		s->tracker, pid) != LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK) {
		trc_err("cannot add process %ld to the session", (long)pid);
		return -1;
	}
	return 0;
}

int trc_session_up(struct trc_session *s, const char *dir,
		   const struct trc_opts *o, bool track)
{
	struct lttng_domain dom;
	struct lttng_handle *h;
	int rc;

	memset(s, 0, sizeof(*s));
	if (create(s, dir, o) < 0)
		return -1;
	memset(&dom, 0, sizeof(dom));
	dom.type = LTTNG_DOMAIN_UST;
	dom.buf_type = LTTNG_BUFFER_PER_UID;
	h = lttng_create_handle(s->name, &dom);
	if (!h)
		return fail("open the session", -LTTNG_ERR_NOMEM);
	rc = add_channel(h, &dom, o);
	if (rc == 0)
		rc = add_events(h);
	lttng_destroy_handle(h);
	if (rc == 0 && track)
		rc = track_none(s);
	if (rc < 0)
		return -1;
	rc = lttng_start_tracing(s->name);
	return rc < 0 ? fail("start tracing", rc) : 0;
}

/* Stopping waits until the consumer has written everything out. */
int trc_session_down(struct trc_session *s)
{
	int rc = 0, r;

	if (s->tracker)
		lttng_process_attr_tracker_handle_destroy(s->tracker);
	s->tracker = NULL;
	if (!s->created)
		return 0;
	r = lttng_stop_tracing(s->name);
	if (r < 0 && r != -LTTNG_ERR_TRACE_ALREADY_STOPPED)
		rc = fail("stop tracing", r);
	r = lttng_destroy_session(s->name);
	if (r < 0)
		rc = fail("destroy the tracing session", r);
	s->created = false;
	return rc;
}
