/* SPDX-License-Identifier: MIT */
/*
 * The tracer's two voices on stderr, in a leaf of their own: every trc_*.c
 * speaks through them, so they cannot live in the file that drives the
 * others without every file calling back into it.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "trc_int.h"

bool trc_quiet;

/* One line, one write: ranks of one job share a terminal, and a line
 * written in three pieces interleaves with theirs ("hipgrain: hipgrain:
 * virtual ..."). */
static void say(const char *who, const char *fmt, va_list ap)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s", who);

	if (n >= 0 && (size_t)n < sizeof(line))
		n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	(void)!write(2, line, (size_t)n);
}

void trc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fflush(stderr);
	say("hipgrain run: ", fmt, ap);
	va_end(ap);
}

void trc_info(const char *fmt, ...)
{
	va_list ap;

	if (trc_quiet)
		return;
	va_start(ap, fmt);
	fflush(stderr);
	say("hipgrain: ", fmt, ap);
	va_end(ap);
}
