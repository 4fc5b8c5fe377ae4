/* SPDX-License-Identifier: MIT */
/*
 * Target ids ("gfx90a:sramecc+:xnack-") and the runtime's compatibility rule:
 * same processor; a feature the code object leaves unspecified runs with
 * either device setting, a specified one must equal the device's.  Among the
 * compatible, the runtime prefers the one that states more features.
 */
#include <string.h>

#include "co_int.h"

static int parse_feature(const char *s, size_t n, struct co_target *t)
{
	if (n < 2)
		return -1;
	char sign = s[n - 1];
	enum hg_feature f = sign == '+' ? HG_FEAT_ON :
			    sign == '-' ? HG_FEAT_OFF : HG_FEAT_UNSUPPORTED;
	if (f == HG_FEAT_UNSUPPORTED)
		return -1;
	if (n - 1 == 5 && !memcmp(s, "xnack", 5))
		t->xnack = f;
	else if (n - 1 == 7 && !memcmp(s, "sramecc", 7))
		t->sramecc = f;
	/* other features are ignored: they do not decide loading */
	return 0;
}

int co_target_parse(const char *id, struct co_target *out)
{
	memset(out, 0, sizeof *out);
	out->xnack = out->sramecc = HG_FEAT_ANY;
	const char *dash = strstr(id, "--");
	const char *p = dash ? dash + 2 : id;
	size_t n = strcspn(p, ":");
	if (n == 0 || n >= sizeof out->proc || strncmp(p, "gfx", 3))
		return -1;
	memcpy(out->proc, p, n);
	p += n;
	while (*p == ':') {
		p++;
		size_t m = strcspn(p, ":");
		if (parse_feature(p, m, out))
			return -1;
		p += m;
	}
	return *p ? -1 : 0;
}

static int feature_score(enum hg_feature code, enum hg_feature dev)
{
	if (code == HG_FEAT_ANY || code == HG_FEAT_UNSUPPORTED)
		return 0;
	if (dev == HG_FEAT_ANY || dev == HG_FEAT_UNSUPPORTED)
		return 0; /* device does not say: cannot exclude */
	return code == dev ? 1 : -100;
}

/* LLVM's generic targets and the processors that run their code. */
static const struct {
	const char *generic, *members;
} generics[] = {
	{"gfx9-generic", "gfx900,gfx902,gfx904,gfx906,gfx909,gfx90c"},
	{"gfx9-4-generic", "gfx940,gfx941,gfx942,gfx950"},
	{"gfx10-1-generic", "gfx1010,gfx1011,gfx1012,gfx1013"},
	{"gfx10-3-generic",
	 "gfx1030,gfx1031,gfx1032,gfx1033,gfx1034,gfx1035,gfx1036"},
	{"gfx11-generic",
	 "gfx1100,gfx1101,gfx1102,gfx1103,gfx1150,gfx1151,gfx1152,gfx1153"},
	{"gfx12-generic", "gfx1200,gfx1201"},
};

bool co_list_has(const char *list, const char *name, size_t n)
{
	for (const char *p = list; *p;) {
		size_t m = strcspn(p, ",");

		if (m == n && !strncmp(p, name, n))
			return true;
		p += m + (p[m] == ',');
	}
	return false;
}

bool co_target_generic(const char *proc)
{
	return strstr(proc, "-generic") != NULL;
}

/* Code for `proc` loads on `dev`: the same processor, or a generic target
 * whose family holds it. */
static bool runs_on(const char *proc, const char *dev)
{
	if (!strcmp(proc, dev))
		return true;
	for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
		if (!strcmp(proc, generics[i].generic))
			return co_list_has(generics[i].members, dev,
					   strlen(dev));
	return false;
}

int co_target_match(const struct co_target *code, const struct co_target *dev)
{
	if (!runs_on(code->proc, dev->proc))
		return -1;
	int s = feature_score(code->xnack, dev->xnack) +
		feature_score(code->sramecc, dev->sramecc);
	return s < 0 ? -1 : s;
}
