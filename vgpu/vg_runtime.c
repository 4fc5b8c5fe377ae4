/* SPDX-License-Identifier: MIT */
/*
 * Whether the ROCm runtime the program loaded knows the profile's target.
 * ROCr makes an agent only of a GPU whose target is in its own table of
 * ISAs; of any other it says "unrecognized id" and the program goes on
 * with no GPU, to fail at its first HIP call.  The table's names are
 * strings in the library ("gfx90a", "gfx942:sramecc+"), so the library
 * file is read for the profile's, once, when the runtime first opens the
 * device: it is loaded by then, and has not yet looked at the GPU.
 */
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vg.h"

static int find_runtime(struct dl_phdr_info *info, size_t size, void *out)
{
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libhsa-runtime64.so"))
		return 0;
	snprintf(out, 512, "%s", info->dlpi_name);
	return 1;
}

/* Whether name occurs in [p, p+n) as a whole target name: followed by
 * the end of the string or a feature. */
static int names(const char *p, size_t n, const char *name)
{
	size_t len = strlen(name);
	for (const char *s = p; (s = memmem(s, n - (size_t)(s - p), name, len));
	     s += len) {
		size_t at = (size_t)(s - p) + len;
		if (at < n && (p[at] == '\0' || p[at] == ':'))
			return 1;
	}
	return 0;
}

/* 1 when the library at path names gfx, 0 when not, -1 unreadable. */
static int knows(const char *path, const char *gfx)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int rc = -1;
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && st.st_size > 0) {
		void *p = vg_real_mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			rc = names(p, (size_t)st.st_size, gfx);
			munmap(p, (size_t)st.st_size);
		}
	}
	close(fd);
	return rc;
}

static void check(void)
{
	char path[512] = "";
	if (!dl_iterate_phdr(find_runtime, path) || !path[0])
		return;
	if (knows(path, vg.prof->gfx) == 0)
		fprintf(stderr, "hipgrain: virtual %s (%s): the ROCm runtime this "
			"program loaded (%s) does not know %s: it will see no GPU, "
			"and HIP calls that need one fail\n",
			vg.prof->name, vg.prof->gfx, path, vg.prof->gfx);
}

void vg_runtime_check(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, check);
}
