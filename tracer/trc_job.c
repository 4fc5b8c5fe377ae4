/* SPDX-License-Identifier: MIT */
/*
 * Who we are in a job: the rank, the job and the node, read from what MPI
 * launchers and Slurm put in every rank's environment, and the output
 * template (%h %p %r %j) expanded with them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trc_int.h"

/* The first of names that is set and not empty. */
static const char *first_env(const char *const *names)
{
	for (; *names; names++) {
		const char *v = getenv(*names);

		if (v && *v)
			return v;
	}
	return NULL;
}

/* A value goes into file names: keep it to a safe alphabet. */
static void copy_safe(char *dst, size_t cap, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < cap; i++)
		dst[i] = strchr("/\\ \t\n:*?\"'<>|", src[i]) ? '_' : src[i];
	dst[i] = '\0';
}

void trc_job_detect(struct trc_job *j)
{
	static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK",
					    "PMIX_RANK", "PMI_RANK",
					    "SLURM_PROCID", NULL};
	static const char *const jobs[] = {"SLURM_JOB_ID",
					   "OMPI_MCA_ess_base_jobid",
					   "PMIX_NAMESPACE", NULL};
	const char *rank = first_env(ranks), *job = first_env(jobs);
	const char *step = getenv("SLURM_STEP_ID");
	const char *slurm = getenv("SLURM_JOB_ID");

	memset(j, 0, sizeof(*j));
	if (gethostname(j->host, sizeof(j->host) - 1) < 0)
		snprintf(j->host, sizeof(j->host), "localhost");
	copy_safe(j->host, sizeof(j->host), j->host);
	if (!rank)
		return;
	j->active = true;
	copy_safe(j->rank, sizeof(j->rank), rank);
	if (job && step && *step && slurm && !strcmp(job, slurm))
		snprintf(j->job, sizeof(j->job), "%s.%s", job, step);
	else if (job)
		snprintf(j->job, sizeof(j->job), "%s", job);
	else /* ranks of one launch on a node share the launcher's daemon */
		snprintf(j->job, sizeof(j->job), "ppid%ld", (long)getppid());
	copy_safe(j->job, sizeof(j->job), j->job);
}

static int put(char *out, size_t cap, size_t *o, const char *s)
{
	size_t n = strlen(s);

	if (*o + n >= cap)
		return -1;
	memcpy(out + *o, s, n);
	*o += n;
	return 0;
}

int trc_job_expand(const char *tmpl, const struct trc_job *j, char *out,
		   size_t cap)
{
	char pid[24];
	size_t o = 0;

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	for (const char *t = tmpl; *t; t++) {
		const char *v = NULL;
		char c[2] = {*t, '\0'};

		if (*t == '%') {
			switch (*++t) {
			case 'h': v = j->host; break;
			case 'p': v = pid; break;
			case 'r': v = j->active ? j->rank : "0"; break;
			case 'j': v = j->active ? j->job : "0"; break;
			case '%': v = "%"; break;
			default:
				trc_err("--output: unknown placeholder '%%%c' "
					"(known: %%h host, %%p pid, %%r rank, "
					"%%j job, %%%% a percent sign)",
					*t ? *t : ' ');
				return -1;
			}
		}
		if (put(out, cap, &o, v ? v : c) < 0) {
			trc_err("--output: the expanded path is too long");
			return -1;
		}
	}
	out[o] = '\0';
	return 0;
}

void trc_job_default_output(const struct trc_job *j, char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	if (j->active) {
		/* A job's ranks side by side, whichever node they ran on. */
		snprintf(buf, len, "hipgrain-trace-job%s/rank%s-%s", j->job,
			 j->rank, j->host);
		return;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "hipgrain-trace-%s-%ld", stamp, (long)getpid());
}

int trc_output_check(const char *tmpl)
{
	struct trc_job j = {0};
	char buf[PATH_MAX];

	return trc_job_expand(tmpl, &j, buf, sizeof(buf));
}
