/* SPDX-License-Identifier: MIT */
/*
 * -j N: forked workers judge the inputs, one at a time as the parent hands
 * them out, and send each result back on a pipe; the parent merges them in
 * input order whatever order they finish in.  Processes, not threads: each
 * worker has babeltrace2, the reader's guard and the symbol caches to
 * itself, and a worker that dies takes no other trace with it.  A worker is
 * handed an input only while few enough results wait to be merged, so the
 * parent's memory stays bounded whatever the number of inputs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "an_jobs.h"
#include "an_judge.h"
#include "an_mpi.h"
#include "an_tally.h"

#define AN_JOBS_AHEAD 4 /* results waiting to be merged, per worker */

struct an_worker {
	pid_t pid;
	int cmd, res; /* the pipe it takes inputs from, the one it answers on */
	bool busy;
};

struct an_pool {
	struct an_tally *t;
	const struct an_fate *fates;
	struct an_worker *w;
	unsigned nw;
	size_t n, next, merged; /* inputs; the next to hand out; merged */
	struct an_wbuf *done;	/* results waiting, by input */
	bool *have;
	struct pollfd *fds; /* one per worker */
};

static int an_io(int fd, void *buf, size_t n, bool out)
{
	for (size_t k = 0; k < n;) {
		ssize_t got = out ? write(fd, (char *)buf + k, n - k)
				  : read(fd, (char *)buf + k, n - k);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		k += (size_t)got;
	}
	return 0;
}

static void an_worker_main(const struct an_opts *o, char **inputs,
			   const struct an_fate *fates, int cmd, int res)
{
	uint64_t i, head[2];

	while (!an_io(cmd, &i, sizeof(i), false)) {
		struct an_wbuf b = {0};

		an_judge(o, inputs[i], &fates[i], &b);
		head[0] = i;
		head[1] = b.failed ? UINT64_MAX : b.n;
		if (an_io(res, head, sizeof(head), true) ||
		    (!b.failed && an_io(res, b.p, b.n, true)))
			_exit(1);
		an_wbuf_free(&b);
	}
	_exit(0);
}

static int an_worker_start(struct an_pool *pl, struct an_worker *w)
{
	int cmd[2], res[2];

	if (pipe2(cmd, O_CLOEXEC))
		return -1;
	if (pipe2(res, O_CLOEXEC)) {
		close(cmd[0]);
		close(cmd[1]);
		return -1;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid == 0) {
		close(cmd[1]);
		close(res[0]);
		/* The other workers' pipes are the parent's business. */
		for (unsigned k = 0; k < pl->nw; k++)
			if (pl->w[k].pid > 0) {
				close(pl->w[k].cmd);
				close(pl->w[k].res);
			}
		an_worker_main(pl->t->c->opts, pl->t->inputs, pl->fates,
			       cmd[0], res[1]);
	}
	close(cmd[0]);
	close(res[1]);
	w->cmd = cmd[1];
	w->res = res[0];
	if (w->pid < 0) {
		close(w->cmd);
		close(w->res);
		return -1;
	}
	return 0;
}

/* Hands w the next input if the window allows; false if it stays idle. */
static bool an_hand_out(struct an_pool *pl, struct an_worker *w)
{
	uint64_t i = pl->next;

	if (pl->next >= pl->n ||
	    pl->next >= pl->merged + (size_t)AN_JOBS_AHEAD * pl->nw)
		return false;
	if (an_io(w->cmd, &i, sizeof(i), true))
		return false;
	pl->next++;
	w->busy = true;
	return true;
}

/* One result from w, kept until its turn; -1 if w died or lied. */
static int an_take(struct an_pool *pl, struct an_worker *w)
{
	uint64_t head[2];
	struct an_wbuf b = {0};

	if (an_io(w->res, head, sizeof(head), false) || head[0] >= pl->n ||
	    pl->have[head[0]])
		return -1;
	if (head[1] == UINT64_MAX) {
		b.failed = true;
	} else if (head[1]) {
		b.p = malloc(head[1]);
		if (!b.p || an_io(w->res, b.p, head[1], false)) {
			free(b.p);
			return -1;
		}
		b.n = b.cap = head[1];
	}
	pl->done[head[0]] = b;
	pl->have[head[0]] = true;
	w->busy = false;
	return 0;
}

static void an_merge_ready(struct an_pool *pl)
{
	while (pl->merged < pl->n && pl->have[pl->merged]) {
		struct an_wbuf *b = &pl->done[pl->merged];

		if (b->failed && !pl->t->bad) {
			fprintf(pl->t->err, "hipgrain report: out of memory\n");
			pl->t->bad = true;
		} else if (!b->failed) {
			an_tally_merge(pl->t, pl->merged, b->p, b->n);
		}
		an_wbuf_free(b);
		pl->merged++;
	}
}

/* Waits for a result from any busy worker and keeps it; -1 if one died. */
static int an_wait_one(struct an_pool *pl)
{
	struct pollfd *fds = pl->fds;
	unsigned nf = 0;

	for (unsigned k = 0; k < pl->nw; k++)
		fds[k] = (struct pollfd){.fd = pl->w[k].busy ? pl->w[k].res : -1,
					 .events = POLLIN};
	while (poll(fds, pl->nw, -1) < 0)
		if (errno != EINTR)
			return -1;
	for (unsigned k = 0; k < pl->nw; k++)
		if (fds[k].revents) {
			if (an_take(pl, &pl->w[k]))
				return -1;
			nf++;
		}
	return nf ? 0 : -1;
}

static int an_pool_run(struct an_pool *pl)
{
	while (pl->merged < pl->n && !pl->t->bad) {
		unsigned busy = 0;

		for (unsigned k = 0; k < pl->nw; k++) {
			if (!pl->w[k].busy)
				an_hand_out(pl, &pl->w[k]);
			busy += pl->w[k].busy;
		}
		if (!busy || an_wait_one(pl)) {
			fprintf(pl->t->err, "hipgrain report: a worker reading "
					    "the traces ended unexpectedly\n");
			return -1;
		}
		an_merge_ready(pl);
	}
	return 0;
}

/* Closing its input pipe ends a worker; one stopped early is killed. */
static void an_pool_stop(struct an_pool *pl, bool kill_them)
{
	for (unsigned k = 0; k < pl->nw; k++) {
		close(pl->w[k].cmd);
		close(pl->w[k].res);
		if (kill_them)
			kill(pl->w[k].pid, SIGKILL);
	}
	for (unsigned k = 0; k < pl->nw; k++)
		while (waitpid(pl->w[k].pid, NULL, 0) < 0 && errno == EINTR)
			;
	for (size_t i = 0; i < pl->n; i++)
		an_wbuf_free(&pl->done[i]);
}

/* Every input judged by `jobs` workers and merged through t; -1 (said on
 * t->err) when they cannot start or one dies. */
static int an_jobs_run(struct an_tally *t, size_t n, const struct an_fate *fates,
		unsigned jobs)
{
	struct an_pool pl = {.t = t, .fates = fates, .n = n,
			     .w = calloc(jobs, sizeof(*pl.w)),
			     .done = calloc(n, sizeof(*pl.done)),
			     .have = calloc(n, sizeof(*pl.have)),
			     .fds = calloc(jobs, sizeof(*pl.fds))};
	int rc = -1;

	if (!pl.w || !pl.done || !pl.have || !pl.fds) {
		fprintf(t->err, "hipgrain report: out of memory\n");
		goto end;
	}
	for (; pl.nw < jobs; pl.nw++)
		if (an_worker_start(&pl, &pl.w[pl.nw]))
			break;
	if (!pl.nw) {
		fprintf(t->err, "hipgrain report: cannot start workers: %s\n",
			strerror(errno));
		goto end;
	}
	rc = an_pool_run(&pl);
	an_pool_stop(&pl, rc != 0 || t->bad);
end:
	free(pl.w);
	free(pl.done);
	free(pl.have);
	free(pl.fds);
	return rc;
}

int an_judge_all(struct an_ctx *c, char **inputs, size_t n,
		 const struct an_fate *fates, FILE *err)
{
	struct an_tally t = {.c = c, .inputs = inputs, .err = err};
	unsigned jobs = c->opts->jobs ? c->opts->jobs : 1;

	if (jobs > n)
		jobs = (unsigned)n;
	if (c->opts->mpi)
		return an_mpi_judge_all(&t, n, fates);
	if (jobs > 1) {
		if (an_jobs_run(&t, n, fates, jobs))
			return -1;
	} else {
		for (size_t i = 0; i < n && !t.bad; i++) {
			struct an_wbuf b = {0};

			an_judge(c->opts, inputs[i], &fates[i], &b);
			if (b.failed)
				t.bad = true, fprintf(err, "hipgrain report: "
						      "out of memory\n");
			else
				an_tally_merge(&t, i, b.p, b.n);
			an_wbuf_free(&b);
		}
	}
	if (t.bad)
		return -1;
	return t.any ? 0 : 1;
}
