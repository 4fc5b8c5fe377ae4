/* SPDX-License-Identifier: MIT */
/* Finding trace directories: `hipgrain run` output holds ust/uid/... below. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "an_inputs.h"

#define AN_MAX_DEPTH 8

static int an_push(char ***dirs, size_t *n, const char *path)
{
	char **grown = realloc(*dirs, (*n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	*dirs = grown;
	grown[*n] = strdup(path);
	if (!grown[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int an_walk(const char *path, char ***dirs, size_t *n, int depth,
		   bool summaries)
{
	char sub[4096];
	struct stat st;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	/* A run's summary stands for the traces below it. */
	snprintf(sub, sizeof(sub), "%s/" AN_SUMMARY_FILE, path);
	if (summaries && !stat(sub, &st) && S_ISREG(st.st_mode))
		return an_push(dirs, n, sub);
	snprintf(sub, sizeof(sub), "%s/metadata", path);
	if (!stat(sub, &st) && S_ISREG(st.st_mode))
		return an_push(dirs, n, path);
	if (depth >= AN_MAX_DEPTH || !(d = opendir(path)))
		return 0;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (!stat(sub, &st) && S_ISDIR(st.st_mode))
			rc = an_walk(sub, dirs, n, depth + 1, summaries);
	}
	closedir(d);
	return rc;
}

uint64_t an_stream_bytes(const char *dir)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	uint64_t sum = 0;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			sum += (uint64_t)st.st_size;
	}
	if (d)
		closedir(d);
	return sum;
}

int an_find_inputs(const char *path, bool summaries, char ***dirs,
		   size_t *n)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISREG(st.st_mode))
		return an_push(dirs, n, path);
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return an_walk(path, dirs, n, 0, summaries);
}

int an_find_traces(const char *path, char ***dirs, size_t *n)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return an_walk(path, dirs, n, 0, false);
}
