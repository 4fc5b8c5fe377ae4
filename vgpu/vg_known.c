/* SPDX-License-Identifier: MIT */
/*
 * Which targets the installed ROCm runtime knows, asked of the runtime's
 * own file.  ROCr makes an agent only of a GPU whose target is in its
 * table of ISAs, whose names are strings in the library ("gfx90a",
 * "gfx942:sramecc+"); of any other it says "unrecognized id" or fails to
 * create the agent, and the program goes on with no GPU or crashes.  So
 * `hipgrain run` reads the library a program would load before it starts
 * one on a virtual product, and its --help and list say which products
 * the runtime here can drive.
 */
#include "vg_known.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char rt_name[] = "libhsa-runtime64.so.1";

/* Whether name occurs whole in [p, p+n): not inside a longer word, and
 * followed by the end of a string or a feature.  An occurrence whose
 * following byte is not in the buffer yet is left for the next read. */
static int whole(const char *p, size_t n, const char *name)
{
	size_t len = strlen(name);
	for (const char *s = p; n >= len && (s = memmem(s, n - (size_t)(s - p), name, len));
	     s++) {
		size_t at = (size_t)(s - p) + len;
		if (at < n && (p[at] == '\0' || p[at] == ':') &&
		    (s == p || !isalnum((unsigned char)s[-1])))
			return 1;
		if (at >= n)
			break;
	}
	return 0;
}

int vg_known_target(const char *path, const char *gfx)
{
	enum { CHUNK = 1 << 20 };
	size_t keep = strlen(gfx) + 2, have = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = fd < 0 ? NULL : malloc(CHUNK + keep);
	off_t off = 0;
	int rc = -1;

	while (buf) {
		ssize_t n = pread(fd, buf + have, CHUNK, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 || !off ? -1 : 0;
			break;
		}
		off += n;
		have += (size_t)n;
		if (whole(buf, have, gfx)) {
			rc = 1;
			break;
		}
		if (have > keep) {
			memmove(buf, buf + have - keep, keep);
			have = keep;
		}
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int in_dir(const char *dir, size_t len, struct vg_rt *rt)
{
	if (!len || len >= sizeof(rt->path) - sizeof(rt_name) - 1)
		return 0;
	snprintf(rt->path, sizeof(rt->path), "%.*s/%s", (int)len, dir, rt_name);
	return !access(rt->path, R_OK);
}

/* The loader's cache, as ldconfig writes it (glibc's dl-cache.h, the
 * format of glibc 2.32 and later, alone in the file): a header, entries
 * of a flags word and two string offsets from the file's start, then
 * the strings. */
static int from_cache(struct vg_rt *rt)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	enum { HEAD = 48, ENTRY = 24, FLAGS_X86_64 = 0x0303 };
	FILE *f = fopen("/etc/ld.so.cache", "rbe");
	char *p = NULL;
	long n = -1;
	int found = 0;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > HEAD && !fseek(f, 0, SEEK_SET) &&
	    (p = malloc((size_t)n + 1)) && fread(p, 1, (size_t)n, f) == (size_t)n &&
	    !memcmp(p, magic, sizeof(magic) - 1)) {
		uint32_t nlibs;
		p[n] = '\0';
		memcpy(&nlibs, p + 20, sizeof(nlibs));
		for (uint32_t i = 0; i < nlibs && HEAD + (i + 1) * (size_t)ENTRY <= (size_t)n && !found;
		     i++) {
			int32_t flags;
			uint32_t key, value;
			const char *e = p + HEAD + i * (size_t)ENTRY;
			memcpy(&flags, e, 4);
			memcpy(&key, e + 4, 4);
			memcpy(&value, e + 8, 4);
			if (key >= (size_t)n || value >= (size_t)n || strcmp(p + key, rt_name))
				continue;
#if defined(__x86_64__)
			if (flags != FLAGS_X86_64)
				continue;
#endif
			snprintf(rt->path, sizeof(rt->path), "%s", p + value);
			found = !access(rt->path, R_OK);
		}
	}
	free(p);
	if (f)
		fclose(f);
	return found;
}

/* The release of the HIP library beside the runtime, from its file name
 * (libamdhip64.so.5.2.21153: 5.2), which names the ROCm release it came
 * with. */
static void release_of(struct vg_rt *rt)
{
	char real[PATH_MAX], *slash;
	DIR *d;
	struct dirent *e;
	unsigned major, minor;

	rt->release[0] = '\0';
	if (!realpath(rt->path, real) || !(slash = strrchr(real, '/')))
		return;
	*slash = '\0';
	if (!(d = opendir(real)))
		return;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "libamdhip64.so.%u.%u.", &major, &minor) == 2) {
			snprintf(rt->release, sizeof(rt->release), "%u.%u", major, minor);
			break;
		}
	closedir(d);
}

int vg_known_runtime(struct vg_rt *rt)
{
	static const char *const dirs[] = { "/lib64", "/usr/lib64", "/usr/lib/x86_64-linux-gnu",
					    "/opt/rocm/lib" };
	const char *lp = getenv("LD_LIBRARY_PATH");
	int found = 0;

	for (const char *s = lp; s && *s && !found; s += strcspn(s, ":;"), s += *s != '\0')
		found = in_dir(s, strcspn(s, ":;"), rt);
	if (!found)
		found = from_cache(rt);
	for (size_t i = 0; !found && i < sizeof(dirs) / sizeof(dirs[0]); i++)
		found = in_dir(dirs[i], strlen(dirs[i]), rt);
	if (!found) {
		rt->path[0] = rt->release[0] = '\0';
		return -1;
	}
	release_of(rt);
	return 0;
}

const char *vg_known_since(const char *gfx)
{
	/* ROCr's ISA table and the LLVM of hipcc learnt gfx942 in the same
	 * release; gfx908 and gfx90a are older than any release hipgrain
	 * supports. */
	return !strcmp(gfx, "gfx942") ? "5.7" : NULL;
}

int vg_known_why(const struct vg_rt *rt, const char *gfx, char *buf, size_t cap)
{
	const char *since = vg_known_since(gfx);

	if (!rt->path[0] || vg_known_target(rt->path, gfx) != 0)
		return 0;
	snprintf(buf, cap, "the ROCm%s%s runtime here (%s) does not know %s%s%s%s, so it finds "
		 "no GPU",
		 rt->release[0] ? " " : "", rt->release, rt->path, gfx,
		 since ? " (ROCm " : "", since ? since : "", since ? " and later do)" : "");
	return 1;
}
