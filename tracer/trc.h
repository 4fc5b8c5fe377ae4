/* SPDX-License-Identifier: MIT */
/*
 * Session control behind `hipgrain run`: a session daemon (reused or
 * private), one LTTng session writing to an output directory, the program
 * started under the preload, and everything torn down again.
 */
#ifndef HG_TRC_H
#define HG_TRC_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* Exit statuses of `hipgrain run` besides the program's own (as env(1)). */
enum trc_exit {
	TRC_EXIT_INTERNAL = 125, /* hipgrain could not set up tracing */
	TRC_EXIT_NOEXEC = 126,	 /* program found but cannot or must not run */
	TRC_EXIT_NOTFOUND = 127, /* program not found */
};

#define TRC_DEFAULT_SUBBUF_SIZE (256u * 1024u)
#define TRC_DEFAULT_NUM_SUBBUF	4u

struct trc_opts {
	/* NULL: ./hipgrain-trace-DATE-TIME-PID, or under an MPI launcher or
	 * srun ./hipgrain-trace-jobJOB/rankRANK-HOST.  %h %p %r %j expand. */
	const char *output;
	bool force;	    /* accept an existing non-empty output directory */
	bool lossless;	    /* blocking channel instead of discarding */
	bool quiet;	    /* errors only */
	bool rank_line;	    /* a rank's caller prints one line with the path */
	const char *relay;  /* HOST[:CTRL[:DATA]]: stream to lttng-relayd */
	const char *virtual_gpu; /* NAME[:OPTION,...]: run on a virtual GPU */
	bool no_exec;	    /* the virtual GPU retires kernels unexecuted */
	bool force_gpu;	    /* run a virtual GPU the runtime cannot drive */
	/* Why the runtime cannot drive it, recorded for the report; NULL
	 * when it can. */
	const char *vgpu_why;
	uint64_t subbuf_size;
	uint64_t num_subbuf;
};

struct trc_result {
	int status;	    /* what `hipgrain run` exits with */
	bool written;	    /* a trace exists in dir */
	char dir[PATH_MAX]; /* absolute output directory */
	bool in_job;	    /* a rank started by a launcher: rank, host */
	char rank[16], host[64];
	bool relayed;	    /* streamed to o->relay as session, dir is "" */
	int pid;	    /* the program's, once started; else 0 */
	int wstatus;	    /* how it ended, as waitpid says; -1 unknown */
	char session[128];
};

/* Trace argv[0] (looked up like execvp) with argv; never returns early
 * without having undone what it set up. */
void trc_run(const struct trc_opts *o, char *const argv[],
	     struct trc_result *r);

/* Whether an --output template's placeholders are all known; 0 or -1
 * after a message. */
int trc_output_check(const char *tmpl);

#endif /* HG_TRC_H */
