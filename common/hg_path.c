/* SPDX-License-Identifier: MIT */
/*
 * Paths as a reader wants them: a build tree beside its sources names a
 * source "BUILD/../kernels/app.hip", which says nothing more than
 * "kernels/app.hip" and hides where it is.  Lexical only: the file need not
 * exist on the machine that reads the report.
 */
#include <stdio.h>
#include <string.h>

#include "hg_path.h"

const char *hg_path_norm(const char *path, char *buf, size_t cap)
{
	size_t o = 0, keep = 0; /* keep: leading ".." a relative path needs */
	bool abs = path[0] == '/';

	if (cap == 0)
		return path;
	if (abs)
		buf[o++] = '/';
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* "//" or "/./": nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (o > keep + (abs ? 1 : 0)) {
				/* drop the last part */
				while (o > (abs ? 1 : 0) && buf[o - 1] != '/')
					o--;
				if (o > (abs ? 1 : 0))
					o--;
			} else if (!abs) {
				if (o + 3 >= cap)
					return path;
				if (o)
					buf[o++] = '/';
				memcpy(buf + o, "..", 2);
				o += 2;
				keep = o;
			}
		} else {
			if (o + n + 2 >= cap)
				return path;
			if (o && buf[o - 1] != '/')
				buf[o++] = '/';
			memcpy(buf + o, p, n);
			o += n;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (o == 0)
		buf[o++] = '.';
	buf[o] = '\0';
	return buf;
}
