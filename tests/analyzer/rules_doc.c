/* SPDX-License-Identifier: MIT */
/*
 * Keeps hipgrain-hazards(7) and the rule table in step: every rule has a
 * "## <id> (<severity>" section, and every such section is a rule.
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
