/* SPDX-License-Identifier: MIT */
/* A trace's summary file: its result (an_result.h), written whole or not
 * at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an.h"
#include "an_inputs.h"
#include "an_judge.h"

static int an_summary_save(const struct an_wbuf *b, const char *path,
			   FILE *err)
{
	char tmp[4096];
	struct stat st;
	FILE *f;
	bool ok;
	/* what is not a regular file (/dev/null, a symbolic link) is written
	 * in place, not replaced by a rename */
	bool direct = !lstat(path, &st) && !S_ISREG(st.st_mode);

	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	f = fopen(direct ? path : tmp, "wbe");
	ok = f && fwrite(b->p, 1, b->n, f) == b->n;
	if (f && fclose(f))
		ok = false;
	if (ok && !direct && rename(tmp, path))
		ok = false;
	if (!ok) {
		fprintf(err, "hipgrain: cannot write the summary %s: %s\n", path,
			strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int an_summary_write(const char *trace, const char *path, FILE *err)
{
	struct an_opts o = {.format = AN_FMT_TEXT};
	struct an_fate fate = {0};
	struct an_wbuf b = {0};
	char **dirs = NULL;
	size_t n = 0;
	int rc = an_find_traces(trace, &dirs, &n);

	if (rc || n != 1) {
		fprintf(err, "hipgrain: %s: %s\n", trace,
			rc ? strerror(-rc)
			   : n ? "more than one trace here: a summary is of one"
			       : "no CTF trace here (no 'metadata' file in it "
				 "or below it)");
		rc = -1;
		goto end;
	}
	an_fate_find(dirs[0], trace, &fate);
	an_judge(&o, dirs[0], &fate, &b);
	rc = b.failed ? -1 : an_summary_save(&b, path, err);
	if (b.failed)
		fprintf(err, "hipgrain: %s: out of memory\n", trace);
end:
	an_wbuf_free(&b);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return rc;
}
