/* SPDX-License-Identifier: MIT */
/*
 * The output directory.  The session daemon may run with more privileges
 * than the directory's neighbours, so a directory we create is walked with
 * openat() and O_NOFOLLOW: a symlink planted where we create (or at the
 * final name) is refused instead of followed.  Existing parents may be
 * symlinks (/tmp often is); that is the user's own layout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trc_int.h"

static bool dir_is_empty(int fd)
{
	int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	bool empty = true;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return false;
	}
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* Open (creating if missing) one component below dirfd.  A component we
 * create must still be a plain directory when reopened. */
static int step(int dirfd, const char *comp, bool last, bool *created)
{
	int fd;

	*created = false;
	if (mkdirat(dirfd, comp, 0700) == 0)
		*created = true;
	else if (errno != EEXIST)
		return -1;
	fd = openat(dirfd, comp,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			((*created || last) ? O_NOFOLLOW : 0));
	if (fd >= 0 && *created && fchmod(fd, 0700) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int walk(const char *path, bool force)
{
	char *copy = strdup(path), *save = NULL, *comp, *next;
	int dirfd = open(path[0] == '/' ? "/" : ".",
			 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool created = false;

	if (!copy || dirfd < 0)
		goto fail;
	for (comp = strtok_r(copy, "/", &save); comp; comp = next) {
		next = strtok_r(NULL, "/", &save);
		int fd = step(dirfd, comp, !next, &created);

		close(dirfd);
		dirfd = fd;
		if (fd < 0) {
			int e = errno;

			if (e == ELOOP || e == ENOTDIR)
				trc_err(
				    "%s: refusing output directory: '%s' is a "
				    "symlink or not a directory",
				    path, comp);
			else
				trc_err("%s: cannot create output directory at "
					"'%s': %s",
					path, comp, strerror(e));
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (!created && !force && !dir_is_empty(dirfd)) {
		trc_err("%s: output directory exists and is not empty "
			"(--force to write into it anyway)",
			path);
		close(dirfd);
		return -1;
	}
	return dirfd;
fail:
	trc_err("%s: cannot create output directory: %s", path,
		strerror(errno));
	free(copy);
	if (dirfd >= 0)
		close(dirfd);
	return -1;
}

int trc_outdir_make(const char *path, bool force, char *abs, size_t abslen)
{
	char link[64];
	ssize_t n;
	int fd;

	if (!*path) {
		trc_err("empty output directory name");
		return -1;
	}
	fd = walk(path, force);
	if (fd < 0)
		return -1;
	/* The daemon needs an absolute path; take the one we actually hold. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, abs, abslen - 1);
	close(fd);
	if (n <= 0 || (size_t)n >= abslen - 1) {
		trc_err("%s: cannot resolve output directory", path);
		return -1;
	}
	abs[n] = '\0';
	return 0;
}
