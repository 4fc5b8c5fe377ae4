/* SPDX-License-Identifier: MIT */
/* One input judged into its result; every input judged and merged. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_judge.h"
#include "an_reader.h"
#include "an_replay.h"
#include "an_result.h"
#include "an_salvage.h"
#include "an_timeline.h"

bool an_is_summary(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The run's program is one process of its trace; the others (its
 * children) ended unrecorded. */
struct an_fate_match {
	const struct an_fate *f;
	uint64_t epoch;
	struct an_proc *last; /* the pid's last image: the one that ended */
};

static void an_fate_proc(void *val, void *arg)
{
	struct an_proc *p = val;
	struct an_fate_match *m = arg;

	if (p->epoch == m->epoch && p->vpid == m->f->pid &&
	    (!m->last || p->image > m->last->image))
		m->last = p;
}

static void an_fate_apply(struct an_ctx *c, const struct an_fate *f)
{
	struct an_fate_match m = {f, c->epoch, NULL};

	if (!f || !f->known)
		return;
	hg_map_each(&c->procs, an_fate_proc, &m);
	if (m.last)
		m.last->fate = *f;
}

/* A summary's bytes, as they are: merging checks them. */
static void an_judge_summary(const char *path, struct an_wbuf *b)
{
	char buf[65536];
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && (got = read(fd, buf, sizeof(buf))) > 0)
		an_w_bytes(b, buf, (size_t)got);
	if (fd < 0 || got < 0) {
		/* An empty result: merging says the file is no summary. */
		b->n = 0;
	}
	if (fd >= 0)
		close(fd);
}

void an_judge(const struct an_opts *o, const char *input,
	      const struct an_fate *fate, struct an_wbuf *b)
{
	struct an_ctx *t = calloc(1, sizeof(*t));
	char *read_from = strdup(input), *msgs = NULL;
	size_t len = 0;
	FILE *ms = open_memstream(&msgs, &len);
	int rc = -1;

	if (an_is_summary(input)) {
		an_judge_summary(input, b);
		goto end;
	}
	if (!t || !read_from || !ms) {
		b->failed = true;
		goto end;
	}
	t->opts = o;
	if (o->format == AN_FMT_HTML || o->format == AN_FMT_PERFETTO)
		t->tl = calloc(1, sizeof(*t->tl));
	if (t->tl || (o->format != AN_FMT_HTML && o->format != AN_FMT_PERFETTO)) {
		rc = an_read(t, &read_from, 1, ms);
		an_fate_apply(t, fate);
		an_replay_end_procs(t);
	}
	fflush(ms);
	an_result_put(b, t, rc, msgs ? msgs : "");
end:
	if (ms)
		fclose(ms);
	free(msgs);
	/* A salvaged copy took dir's place (an_salvage freed dir). */
	if (read_from && strcmp(read_from, input))
		an_salvage_cleanup(read_from);
	free(read_from);
	if (t) {
		an_tl_free_all(t->tl);
		an_state_fini(t);
	}
	free(t);
}
