/* SPDX-License-Identifier: MIT */
/*
 * Keeps hipgrain-hazards(7) and the rule table in step: every rule has a
 * "## <id> (<severity>" section, and every such section is a rule; the
 * section's last paragraph is the rule's fix, word for word: "Fix: <fix>."
 * and, for a rule with its own OpenMP fix, " In OpenMP: <fix_omp>.".  The
 * report prints the rule's words and SARIF the page's, so they must be one
 * text (white space and the page's bold aside).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_rule.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* s[0..n) with runs of white space as one space, without '*', trimmed. */
static void flat(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	int space = 0;

	for (size_t i = 0; i < n && o + 2 < cap; i++) {
		if (s[i] == '*')
			continue;
		if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t') {
			space = o > 0;
			continue;
		}
		if (space)
			out[o++] = ' ';
		space = 0;
		out[o++] = s[i];
	}
	out[o] = '\0';
}

/* The last paragraph of rule r's section, which starts "Fix: ". */
static int check_fix(const char *man, const struct an_rule *r)
{
	char head[96], got[2048], a[1024], b[1024], want[2100];
	const char *sec, *end, *fix = NULL;

	snprintf(head, sizeof(head), "\n## %s (", r->id);
	sec = strstr(man, head);
	if (!sec)
		return 1; /* said above */
	end = strstr(sec + 1, "\n\n#");
	end = end ? end : sec + strlen(sec);
	for (const char *p = sec; (p = strstr(p + 1, "\nFix: ")) && p < end;)
		fix = p + 1;
	if (!fix) {
		printf("%s: its section has no \"Fix:\" paragraph\n", r->id);
		return 1;
	}
	flat(fix, (size_t)(end - fix), got, sizeof(got));
	flat(r->fix, strlen(r->fix), a, sizeof(a));
	if (r->fix_omp)
		flat(r->fix_omp, strlen(r->fix_omp), b, sizeof(b));
	snprintf(want, sizeof(want), "Fix: %s.%s%s%s", a,
		 r->fix_omp ? " In OpenMP: " : "", r->fix_omp ? b : "",
		 r->fix_omp ? "." : "");
	if (!strcmp(got, want))
		return 0;
	printf("%s: the page's fix is not the rule's\n  page: %s\n  rule: %s\n",
	       r->id, got, want);
	return 1;
}

int main(int argc, char **argv)
{
	char *man = argc > 1 ? slurp(argv[1]) : NULL;
	char want[128];
	int bad = 0;

	if (!man) {
		fprintf(stderr, "rules_doc: cannot read the man page\n");
		return 1;
	}
	for (unsigned i = 0; i < an_nrules; i++) {
		snprintf(want, sizeof(want), "## %s (%s", an_rules[i]->id,
			 an_sev_name(an_rules[i]->sev));
		if (!strstr(man, want)) {
			printf("missing in man page: '%s'\n", want);
			bad = 1;
		}
		bad |= check_fix(man, an_rules[i]);
	}
	for (char *p = man; (p = strstr(p, "\n## ")); p += 4) {
		char id[64];

		if (sscanf(p + 4, "%63s", id) == 1 && !an_rule_by_id(id)) {
			printf("man page documents unknown rule '%s'\n", id);
			bad = 1;
		}
	}
	free(man);
	return bad;
}
