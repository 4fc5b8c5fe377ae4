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

/* A function's name without its template arguments and parameters:
 * "std::vector<float, std::allocator<float> >::vector(unsigned long)" is
 * "std::vector::vector". */
static void an_short_name(const char *fn, char *buf, size_t cap)
{
	size_t o = 0;
	int depth = 0;

	for (const char *s = fn; *s && o + 1 < cap; s++) {
		if (*s == '(' && !depth)
			break;
		depth += (*s == '<') - (*s == '>' && depth);
		if (!depth && *s != '>')
			buf[o++] = *s;
	}
	buf[o] = '\0';
}

/* The library function the user's frame i called, when the frames before
 * it are a C++ or C library's headers (a std::vector's allocation inlined
 * from libstdc++): ", via std::vector::vector"; "" for HIP's own headers,
 * whose inlined templates are the call the user wrote. */
static void an_site_via(const struct an_frame *f, int i, char *buf, size_t cap)
{
	char name[128];

	buf[0] = '\0';
	if (i <= 0 || !f[i - 1].function || !f[i - 1].file ||
	    !an_file_is_library(f[i - 1].file) ||
	    strstr(f[i - 1].file, "/include/hip/") ||
	    strstr(f[i - 1].file, "/rocm/include/"))
		return;
	an_short_name(f[i - 1].function, name, sizeof(name));
	if (name[0])
		snprintf(buf, cap, ", via %s", name);
}

const char *an_site_text(const struct an_frame *f, int n, char *buf, size_t cap)
{
	int i = an_site_frame(f, n);

	buf[0] = '\0';
	if (i >= 0) {
		const char *base = strrchr(f[i].file, '/');
		char line[16] = "", via[160];

		if (f[i].line > 0)
			snprintf(line, sizeof(line), ":%d", f[i].line);
		an_site_via(f, i, via, sizeof(via));
		snprintf(buf, cap, "%s%s%s%s%s%s", base ? base + 1 : f[i].file,
			 line, f[i].function || via[0] ? " (" : "",
			 f[i].function ? f[i].function : "",
			 f[i].function ? via : via + (via[0] ? 2 : 0),
			 f[i].function || via[0] ? ")" : "");
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
