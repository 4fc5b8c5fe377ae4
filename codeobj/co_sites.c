/* SPDX-License-Identifier: MIT */
/*
 * Which arguments a kernel's atomics reach, per class, as one short string
 * the profile cache and the `kernel` event carry: "0@app.hip:42;2;?".  Each
 * argument appears once, with the line of its first atomic when known; "?"
 * says some atomic's argument is unknown, and is also what a list too long
 * for the string ends with, so a reader never takes a cut list as complete.
 */
#include <stdio.h>
#include <string.h>

#include "co_int.h"

static bool listed(const int *seen, int n, int arg)
{
	for (int i = 0; i < n; i++)
		if (seen[i] == arg)
			return true;
	return false;
}

static void append(char *s, size_t cap, const struct co_insn *in)
{
	size_t len = strlen(s);
	const char *base = in->file ? strrchr(in->file, '/') : NULL;
	char e[96];

	base = base ? base + 1 : in->file;
	if (in->arg < 0)
		snprintf(e, sizeof(e), "?");
	else if (base && in->line)
		snprintf(e, sizeof(e), "%d@%.60s:%u", in->arg, base, in->line);
	else
		snprintf(e, sizeof(e), "%d", in->arg);
	if (len + strlen(e) + 4 > cap) {
		if (len + 3 <= cap && strcmp(s + len - (len ? 1 : 0), "?"))
			snprintf(s + len, cap - len, "%s?", len ? ";" : "");
		return;
	}
	snprintf(s + len, cap - len, "%s%s", len ? ";" : "", e);
}

static void sites(char *s, size_t cap, const struct co_insn *in, uint32_t n,
		  uint8_t cls)
{
	int seen[64], nseen = 0;

	s[0] = '\0';
	for (uint32_t i = 0; i < n; i++) {
		int arg = in[i].arg;

		if (in[i].cls != cls || in[i].space == CO_SP_LDS ||
		    listed(seen, nseen, arg))
			continue;
		if (nseen < 64)
			seen[nseen++] = arg;
		append(s, cap, &in[i]);
	}
}

void co_atomics_sites(struct co_atomics *a, const struct co_insn *in,
		      uint32_t n)
{
	sites(a->fp_sites, sizeof(a->fp_sites), in, n, CO_AC_FP);
	sites(a->int_sites, sizeof(a->int_sites), in, n, CO_AC_INT);
}
