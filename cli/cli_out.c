/* SPDX-License-Identifier: MIT */
/*
 * -o FILE for `report` and `scan`: written beside FILE under a temporary
 * name and renamed over it only when complete, so a failed run never
 * leaves half a report where a CI job would upload it.  What is not a
 * regular file (/dev/null, a FIFO, a symbolic link as /dev/stdout) is
 * written in place: renaming over it would replace the node itself, for every user of the
 * machine when it is /dev/null.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

FILE *cli_out_open(struct cli_out *o, const char *cmd, const char *path)
{
	struct stat st;
	int fd;

	*o = (struct cli_out){.path = path, .cmd = cmd};
	if (!path)
		return o->f = stdout;
	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		o->direct = true;
		if (!(o->f = fopen(path, "we")))
			fprintf(stderr, "hipgrain %s: cannot write %s: %s\n", cmd, path,
				strerror(errno));
		return o->f;
	}
	if (asprintf(&o->tmp, "%s.XXXXXX", path) < 0) {
		o->tmp = NULL;
		return NULL;
	}
	fd = mkstemp(o->tmp);
	if (fd >= 0) { /* mkstemp makes it 0600; a report is an ordinary file */
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		fprintf(stderr, "hipgrain %s: cannot write %s: %s\n", cmd, path,
			strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return NULL;
	}
	return o->f;
}

int cli_out_close(struct cli_out *o, bool keep)
{
	int rc = 0;

	if (!o->tmp && !o->direct)
		return fflush(stdout) ? -1 : 0;
	if (fclose(o->f) || (keep && o->tmp && rename(o->tmp, o->path))) {
		fprintf(stderr, "hipgrain %s: cannot write %s: %s\n", o->cmd,
			o->path, strerror(errno));
		rc = -1;
	}
	if (o->tmp && (rc || !keep))
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return rc;
}
