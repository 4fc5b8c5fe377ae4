/* SPDX-License-Identifier: MIT */
/*
 * A kernel's sys_sites through the analyzer: replay keeps the `kernel`
 * event's field in struct an_kernel, and a summary (what -j and --summary
 * write) gives it back unchanged, an empty one empty.
 *
 * usage: kernel_sync TRACE HANDLE SITES [HANDLE SITES]...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "an_inputs.h"
#include "an_reader.h"
#include "an_replay.h"
#include "an_result.h"
#include "an_state.h"

static int failed;

static void check(const char *what, int cond)
{
	printf("%sok - %s\n", cond ? "" : "not ", what);
	failed |= !cond;
}

struct find {
	uint64_t handle;
	const struct an_kernel *k;
};

static void find_proc(void *val, void *arg)
{
	struct find *f = arg;
	const struct an_kernel *k = an_kernel_get(val, f->handle, false);

	if (k && !f->k)
		f->k = k;
}

/* The kernel of this handle in any process of c, or NULL. */
static const struct an_kernel *kernel(struct an_ctx *c, uint64_t handle)
{
	struct find f = {handle, NULL};

	hg_map_each(&c->procs, find_proc, &f);
	return f.k;
}

static void expect(struct an_ctx *c, const char *how, char **pairs, int n)
{
	char what[512];

	for (int i = 0; i + 1 < n; i += 2) {
		uint64_t h = strtoull(pairs[i], NULL, 0);
		const struct an_kernel *k = kernel(c, h);
		const char *got = k && k->sys_sites ? k->sys_sites : "(none)";

		snprintf(what, sizeof(what), "%s: kernel %s has sys_sites \"%s\" (%s)",
			 how, pairs[i], pairs[i + 1], got);
		check(what, k && !strcmp(got, pairs[i + 1]));
	}
}

int main(int argc, char **argv)
{
	struct an_opts o = {0};
	struct an_ctx *t = calloc(1, sizeof(*t)), *u = calloc(1, sizeof(*u));
	struct an_wbuf b = {0};
	char **dirs = NULL;
	size_t ndirs = 0;
	int rc;

	if (argc < 4 || !t || !u)
		return 2;
	t->opts = u->opts = &o;
	/* Where the trace is under the session's directory. */
	if (an_find_traces(argv[1], &dirs, &ndirs) || ndirs != 1)
		return 2;
	rc = an_read(t, dirs, ndirs, stderr);
	check("the trace is read", rc == 0);
	an_replay_end_procs(t);
	expect(t, "replay", argv + 2, argc - 2);
	an_result_put(&b, t, rc, "");
	rc = an_result_merge(u, b.p, b.n, stderr, "summary");
	check("its summary is merged", rc == 0 && !b.failed);
	expect(u, "summary", argv + 2, argc - 2);
	free(b.p);
	free(dirs[0]);
	free(dirs);
	an_state_fini(t);
	an_state_fini(u);
	free(t);
	free(u);
	return failed;
}
