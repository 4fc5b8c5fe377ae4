/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain run` from start to end.  Everything set up is undone in
 * reverse order whatever happens to the program; the trace is only
 * announced once the session is stopped, i.e. flushed to disk.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trc_int.h"

bool trc_quiet;

void trc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hipgrain run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void trc_info(const char *fmt, ...)
{
	va_list ap;

	if (trc_quiet)
		return;
	va_start(ap, fmt);
	fputs("hipgrain: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Run the program inside a started session; its exit status. */
static int trace_program(const char *path, char *const argv[], char **env)
{
	pid_t pid;
	int st, sig = trc_signal_pending();

	if (sig) {
		trc_err("interrupted by signal %d before the program started",
			sig);
		return 128 + sig;
	}
	st = trc_spawn(path, argv, env, &pid);
	return st ? st : trc_wait(pid);
}

static int with_daemon(const struct trc_opts *o, const char *path,
		       char *const argv[], char **env, struct trc_result *r)
{
	struct trc_daemon d;
	struct trc_session s = {0};
	int status = TRC_EXIT_INTERNAL;

	if (trc_daemon_up(&d) < 0)
		goto out;
	if (d.home[0] && trc_env_put(env, "LTTNG_HOME", d.home) < 0)
		goto out;
	if (trc_session_up(&s, r->dir, o) < 0)
		goto out;
	status = trace_program(path, argv, env);
	if (trc_session_down(&s) == 0)
		r->written = true;
out:
	trc_session_down(&s);
	trc_daemon_down(&d);
	return status;
}

void trc_run(const struct trc_opts *o, char *const argv[], struct trc_result *r)
{
	char path[PATH_MAX], def[128];
	char **env;

	trc_quiet = o->quiet;
	memset(r, 0, sizeof(*r));
	r->status = trc_prog_find(argv[0], path, sizeof(path));
	if (!r->status)
		r->status = trc_prog_vet(path);
	if (r->status)
		return;
	env = trc_env_build(o->lossless);
	if (!env) {
		r->status = TRC_EXIT_INTERNAL;
		return;
	}
	if (!o->output)
		trc_outdir_default(def, sizeof(def));
	if (trc_outdir_make(o->output ? o->output : def, o->force, r->dir,
			    sizeof(r->dir)) < 0) {
		trc_env_free(env);
		r->status = TRC_EXIT_INTERNAL;
		return;
	}
	trc_signals_install();
	r->status = with_daemon(o, path, argv, env, r);
	trc_signals_restore();
	trc_env_free(env);
	if (r->written)
		trc_info("trace written to %s", r->dir);
}
