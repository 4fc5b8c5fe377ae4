/* SPDX-License-Identifier: MIT */
/*
 * Which frame of a call stack is the user's site, and how it reads.  The
 * symboliser, the grouping and every writer ask; a leaf of its own, so
 * none of them calls back into another that calls it.
 */
#include <stdio.h>
#include <string.h>

#include "an_output.h"
#include "an_sym.h"
#include "hg_srcpath.h"

/* A frame of the program's own objects, named but without line info: code
 * built without -g, as benchmarks are. */
static int an_first_bare_user_frame(const struct an_frame *f, int n)
{
	for (int i = 0; i < n; i++)
		if (!f[i].system && !f[i].file && f[i].function)
			return i;
	return -1;
}

int an_site_frame(const struct an_frame *f, int n)
{
	for (int i = 0; i < n; i++)
		if (f[i].file && !f[i].system && !an_file_is_library(f[i].file))
			return i;
	for (int i = 0; i < n; i++)
		if (f[i].file && !f[i].system)
			return i;
	/*
	 * Only the system's libraries have lines (glibc with its debug
	 * symbols, __libc_start_call_main): below a program built without -g
	 * they are never where it allocated; its function's name is.
	 */
	if (an_first_bare_user_frame(f, n) >= 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (f[i].file)
			return i;
	return -1;
}

const char *an_site_text(const struct an_frame *f, int n, char *buf, size_t cap)
{
	int i = an_site_frame(f, n);

	buf[0] = '\0';
	if (i >= 0) {
		const char *base = strrchr(f[i].file, '/');

		char line[16] = "";

		if (f[i].line > 0)
			snprintf(line, sizeof(line), ":%d", f[i].line);
		snprintf(buf, cap, "%s%s%s%s%s", base ? base + 1 : f[i].file,
			 line, f[i].function ? " (" : "",
			 f[i].function ? f[i].function : "",
			 f[i].function ? ")" : "");
		return buf;
	}
	i = an_first_bare_user_frame(f, n);
	for (int j = 0; i < 0 && j < n; j++)
		if (f[j].function)
			i = j;
	if (i >= 0)
		snprintf(buf, cap, "%s", f[i].function);
	return buf;
}

bool an_file_is_library(const char *file)
{
	return hg_file_is_library(file);
}
