/* SPDX-License-Identifier: MIT */
/* Pieces of the run module that talk to each other; not exported. */
#ifndef HG_TRC_INT_H
#define HG_TRC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "trc.h"

/* Messages: "hipgrain run: ..." on stderr; trc_info is silenced by -q. */
void trc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void trc_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A virtual GPU's program without code for its target is named at start
 * (trc_vgpu.c). */
struct vg_profile;
void trc_vgpu_check_code(const struct vg_profile *p, const char *prog);
extern bool trc_quiet;

/* trc_job.c: the rank, job and node, from the launcher's environment. */
struct trc_job {
	bool active; /* started by an MPI launcher or srun */
	char rank[16], job[64], host[64];
};
void trc_job_detect(struct trc_job *j);
/* tmpl with %h %p %r %j %% expanded; 0, or -1 after a message. */
int trc_job_expand(const char *tmpl, const struct trc_job *j, char *out,
		   size_t cap);
/* ./hipgrain-trace-DATE-TIME-PID, or under a launcher
 * ./hipgrain-trace-jobJOB/rankRANK-HOST. */
void trc_job_default_output(const struct trc_job *j, char *buf, size_t len);

/* trc_outdir.c: make (or accept with force) the output directory; abs gets
 * its absolute path.  0 or -1 after a message. */
int trc_outdir_make(const char *path, bool force, char *abs, size_t abslen);

/* trc_daemon.c */
struct trc_daemon {
	pid_t pid;	 /* private lttng-sessiond we started; 0 if reused */
	char home[96];	 /* private LTTNG_HOME (non-root), "" otherwise */
	int lock_fd;	 /* root without namespaces: serialises runs; or -1 */
	bool private_ns; /* we live in our own mount namespace */
	int ns_errno;	 /* why we could not, if not */
};
int trc_daemon_up(struct trc_daemon *d);
void trc_daemon_down(struct trc_daemon *d);
/* Pieces trc_shared.c builds on. */
int trc_unshare_mounts(void);
int trc_hide_root_rundir(void);
int trc_start_sessiond(struct trc_daemon *d, bool shared);
struct stat;
struct FTW;
int trc_rm_entry(const char *p, const struct stat *sb, int flag,
		 struct FTW *ftw);

/* trc_shared.c: under a launcher, one daemon per node, user and job,
 * started by the first rank and stopped by the last. */
struct trc_shared {
	int dir_fd;	     /* the job's rendezvous directory, or -1 */
	char dir[128];	     /* its path: also the user's LTTNG_HOME */
	pid_t daemon;	     /* the daemon the ranks share; 0 if reused */
	bool member;	     /* counted among the daemon's users */
};
int trc_shared_join(struct trc_shared *sh, const struct trc_job *j);
void trc_shared_leave(struct trc_shared *sh);

/* trc_session.c */
struct lttng_process_attr_tracker_handle;
struct trc_session {
	char name[128];
	bool created;
	struct lttng_process_attr_tracker_handle *tracker; /* track only */
};
/* track: record only the processes trc_session_track() adds. */
int trc_session_up(struct trc_session *s, const char *dir,
		   const struct trc_opts *o, bool track);
int trc_session_track(struct trc_session *s, pid_t pid);
int trc_session_down(struct trc_session *s);

/* trc_prog.c: resolve like execvp and vet the binary.  0, or the exit
 * status to use after a message. */
int trc_prog_find(const char *name, char *path, size_t len);
/* The same without messages: 0 or -1. */
int trc_prog_find_quiet(const char *name, char *path, size_t len);
int trc_prog_vet(const char *path);

/* trc_env.c: the program's environment; NULL after a message. */
char **trc_env_build(bool lossless, bool vgpu);
/* Set NAME=value in an env from trc_env_build, which leaves room for
 * TRC_ENV_SPARE - 4 more. */
#define TRC_ENV_SPARE 8
int trc_env_put(char **env, const char *name, const char *value);
void trc_env_free(char **env);

/* trc_spawn.c */
void trc_signals_install(void);
void trc_signals_restore(void);
int trc_signal_pending(void); /* a forwarded-kind signal hipgrain got, or 0 */
/* fork + execve; 0 and *pid, or an exit status after a message.  gate
 * (if not NULL) runs between the fork and the exec, with the child's pid:
 * the child waits for it, and does not run if it fails. */
int trc_spawn(const char *path, char *const argv[], char *const envp[],
	      pid_t *pid, int (*gate)(pid_t pid, void *arg), void *arg);
/* Wait for the program, forwarding signals; its status as a shell sees it,
 * and waitpid's own in *wstatus (-1 when it was lost). */
int trc_wait(pid_t pid, int *wstatus);

#endif /* HG_TRC_INT_H */
