/* SPDX-License-Identifier: MIT */
/*
 * The tracer's two voices on stderr, in a leaf of their own: every trc_*.c
 * speaks through them, so they cannot live in the file that drives the
 * others without every file calling back into it.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "trc_int.h"

bool trc_quiet;

void trc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hipgrain run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void trc_info(const char *fmt, ...)
{
	va_list ap;

	if (trc_quiet)
		return;
	va_start(ap, fmt);
	fputs("hipgrain: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
