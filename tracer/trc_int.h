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
extern bool trc_quiet;

/* trc_outdir.c: make (or accept with force) the output directory; abs gets
 * its absolute path.  0 or -1 after a message. */
int trc_outdir_make(const char *path, bool force, char *abs, size_t abslen);
void trc_outdir_default(char *buf, size_t len);

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

/* trc_session.c */
struct trc_session {
	char name[128];
	bool created;
};
int trc_session_up(struct trc_session *s, const char *dir,
		   const struct trc_opts *o);
int trc_session_down(struct trc_session *s);

/* trc_prog.c: resolve like execvp and vet the binary.  0, or the exit
 * status to use after a message. */
int trc_prog_find(const char *name, char *path, size_t len);
/* The same without messages: 0 or -1. */
int trc_prog_find_quiet(const char *name, char *path, size_t len);
int trc_prog_vet(const char *path);

/* trc_env.c: the program's environment; NULL after a message. */
char **trc_env_build(bool lossless);
/* Set NAME=value in an env from trc_env_build (room for one more). */
int trc_env_put(char **env, const char *name, const char *value);
void trc_env_free(char **env);

/* trc_spawn.c */
void trc_signals_install(void);
void trc_signals_restore(void);
int trc_signal_pending(void); /* a forwarded-kind signal hipgrain got, or 0 */
/* fork + execve; 0 and *pid, or an exit status after a message. */
int trc_spawn(const char *path, char *const argv[], char *const envp[],
	      pid_t *pid);
/* Wait for the program, forwarding signals; its status as a shell sees it. */
int trc_wait(pid_t pid);

#endif /* HG_TRC_INT_H */
