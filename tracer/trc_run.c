/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain run` from start to end.  Everything set up is undone in
 * reverse order whatever happens to the program; the trace is only
 * announced once the session is stopped, i.e. flushed to disk.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hg_env.h"
#include "trc_int.h"
#include "vg_node.h"
#include "vg_profile.h"
#include "vg_sysfs.h"

static int track_child(pid_t pid, void *session)
{
	return trc_session_track(session, pid);
}

/* Run the program inside a started session; its exit status. */
static int trace_program(const char *path, char *const argv[], char **env,
			 struct trc_session *s, struct trc_result *r)
{
	pid_t pid;
	int st, sig = trc_signal_pending();

	if (sig) {
		trc_err("interrupted by signal %d before the program started",
			sig);
		return 128 + sig;
	}
	st = trc_spawn(path, argv, env, &pid, s->tracker ? track_child : NULL,
		       s);
	if (st)
		return st;
	r->pid = pid;
	return trc_wait(pid, &r->wstatus);
}

/* Once per run, where no GPU is: the one way to audit here anyway. */
static void hint_no_gpu(const struct trc_opts *o, const struct trc_job *j)
{
	if (o->virtual_gpu || access("/dev/kfd", F_OK) == 0 ||
	    (j->active && strcmp(j->rank, "0")))
		return;
	trc_info("no AMD GPU on this machine (/dev/kfd is missing): "
		 "--virtual-gpu MI210 runs the program on a virtual one, and "
		 "'hipgrain scan PROGRAM' audits its kernels offline");
}

static int in_session(const struct trc_opts *o, const char *path,
		      char *const argv[], char **env, struct trc_result *r,
		      const struct trc_job *j)
{
	struct trc_session s = {0};
	int status = TRC_EXIT_INTERNAL;

	if (trc_session_up(&s, r->dir, o, r->in_job) == 0) {
		snprintf(r->session, sizeof(r->session), "%s", s.name);
		hint_no_gpu(o, j);
		status = trace_program(path, argv, env, &s, r);
		if (trc_session_down(&s) == 0)
			r->written = true;
	}
	trc_session_down(&s);
	return status;
}

static int with_daemon(const struct trc_opts *o, const char *path,
		       char *const argv[], char **env, const struct trc_job *j,
		       struct trc_result *r)
{
	struct trc_daemon d;
	int status = TRC_EXIT_INTERNAL;

	if (trc_daemon_up(&d) == 0 &&
	    (!d.home[0] || trc_env_put(env, "LTTNG_HOME", d.home) == 0))
		status = in_session(o, path, argv, env, r, j);
	trc_daemon_down(&d);
	return status;
}

/* A rank: the node's shared daemon, a session of its own. */
static int with_shared_daemon(const struct trc_opts *o, const char *path,
			      char *const argv[], char **env,
			      const struct trc_job *j, struct trc_result *r)
{
	struct trc_shared sh;
	const char *home;
	int status = TRC_EXIT_INTERNAL;

	if (trc_shared_join(&sh, j) == 0) {
		home = getenv("LTTNG_HOME");
		if (!home || trc_env_put(env, "LTTNG_HOME", home) == 0)
			status = in_session(o, path, argv, env, r, j);
	}
	trc_shared_leave(&sh);
	return status;
}

static int make_output(const struct trc_opts *o, const struct trc_job *j,
		       struct trc_result *r)
{
	char path[PATH_MAX];

	if (o->output) {
		if (trc_job_expand(o->output, j, path, sizeof(path)) < 0)
			return -1;
	} else {
		trc_job_default_output(j, path, sizeof(path));
	}
	if (o->relay) { /* nothing here: the name travels to the relay */
		r->relayed = true;
		snprintf(r->dir, sizeof(r->dir), "%s", path);
		return 0;
	}
	return trc_outdir_make(path, o->force, r->dir, sizeof(r->dir));
}

/* A virtual GPU's topology, made here so that every process of the
 * program reads one tree and none outlives the run. */
static int vgpu_up(const struct trc_opts *o, char **env, char *tree, size_t cap)
{
	struct vg_node node;
	const struct vg_node *p = &node;
	char why[160];
	int rc;

	if (vg_node_parse(o->virtual_gpu, &node, why, sizeof(why))) {
		trc_err("--virtual-gpu %s: %s", o->virtual_gpu, why);
		return -1;
	}
	rc = vg_sysfs_make(p, tree, cap);
	if (rc < 0) {
		trc_err("virtual GPU topology in %s: %s", tree, strerror(-rc));
		vg_sysfs_remove(tree);
		tree[0] = '\0';
		return -1;
	}
	if (trc_env_put(env, hg_env_table[HG_ENV_VIRTUAL_GPU].name, p->spec) ||
	    trc_env_put(env, hg_env_table[HG_ENV_VGPU_SYSFS].name, tree) ||
	    trc_env_put(env, hg_env_table[HG_ENV_VGPU_EXEC].name, o->no_exec ? "0" : "1") ||
	    (o->vgpu_why && trc_env_put(env, hg_env_table[HG_ENV_VGPU_UNKNOWN].name, o->vgpu_why)))
		return -1;
	const char *as = p->gpus > 1 ? "as GPUs" : "as a GPU";
	if (o->no_exec)
		trc_info("virtual %s (%s): offered to the ROCm runtime %s; kernels "
			 "are not executed", p->spec, p->gpu->gfx, as);
	else
		trc_info("virtual %s (%s): offered to the ROCm runtime %s; kernels "
			 "run on hipgrain's gfx9 interpreter", p->spec, p->gpu->gfx, as);
	return 0;
}

void trc_run(const struct trc_opts *o, char *const argv[], struct trc_result *r)
{
	char tree[PATH_MAX] = "";
	char path[PATH_MAX];
	struct trc_job job;
	char **env;

	trc_quiet = o->quiet;
	memset(r, 0, sizeof(*r));
	r->wstatus = -1;
	trc_job_detect(&job);
	r->in_job = job.active;
	memcpy(r->rank, job.rank, sizeof(r->rank));
	memcpy(r->host, job.host, sizeof(r->host));
	r->status = trc_prog_find(argv[0], path, sizeof(path));
	if (!r->status)
		r->status = trc_prog_vet(path);
	if (r->status)
		return;
	env = trc_env_build(o->lossless, o->virtual_gpu != NULL);
	if (!env || (o->virtual_gpu && vgpu_up(o, env, tree, sizeof(tree)) < 0)) {
		vg_sysfs_remove(tree);
		trc_env_free(env);
		r->status = TRC_EXIT_INTERNAL;
		return;
	}
	if (o->virtual_gpu) {
		struct vg_node n;
		char why[8];
		if (!vg_node_parse(o->virtual_gpu, &n, why, sizeof(why)))
			trc_vgpu_check_code(n.gpu, path);
	}
	if (make_output(o, &job, r) < 0) {
		vg_sysfs_remove(tree);
		trc_env_free(env);
		r->status = TRC_EXIT_INTERNAL;
		return;
	}
	trc_signals_install();
	r->status = job.active
			    ? with_shared_daemon(o, path, argv, env, &job, r)
			    : with_daemon(o, path, argv, env, &job, r);
	trc_signals_restore();
	vg_sysfs_remove(tree);
	trc_env_free(env);
	if (r->written && r->relayed && !(r->in_job && o->rank_line))
		trc_info("trace streamed to lttng-relayd at %s as session %s",
			 o->relay, r->session);
	else if (r->written && !(r->in_job && o->rank_line))
		trc_info("trace written to %s", r->dir);
}
