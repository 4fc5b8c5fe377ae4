/* SPDX-License-Identifier: MIT */
#include "co_family.h"

#include <string.h>

#include "co.h"

size_t co_family_name(const char *demangled, const char **start)
{
	size_t lt = strcspn(demangled, "<("), sp;

	*start = demangled;
	if (demangled[lt] != '<')
		return 0;
	/* The return type, when there is one, ends at the last space before
	 * the name ("void ", "int* "). */
	for (sp = lt; sp > 0 && demangled[sp - 1] != ' '; sp--)
		;
	*start = demangled + sp;
	return lt - sp;
}

/* Adds each entry of list (sep-separated) not in into already. */
static void co_union(char *into, size_t cap, const char *list, char sep)
{
	const char seps[2] = {sep, '\0'};

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, seps), len = strlen(into);
		const char *q = into;
		int seen = 0;

		while (*q && !seen) {
			size_t m = strcspn(q, seps);

			seen = m == n && !strncmp(q, p, n);
			q += m + (q[m] == sep);
		}
		/* Past the buffer, the list ends in a mark that it was cut
		 * ("?" for sites, as codeobj's own cut lists do). */
		if (!seen && len + n + 6 < cap) {
			if (len)
				into[len++] = sep;
			memcpy(into + len, p, n);
			into[len + n] = '\0';
		} else if (!seen && !strstr(into, sep == ';' ? ";?" : ",...")) {
			strcat(into, sep == ';' ? ";?" : ",...");
		}
		p += n + (p[n] == sep);
	}
}

void co_family_add(struct co_family *f, const struct co_atomics *a,
		   int int_bites)
{
	f->n++;
	f->fp_count += a->fp_count;
	co_union(f->fp_mnemonics, sizeof(f->fp_mnemonics), a->fp_mnemonics, ',');
	co_union(f->fp_sites, sizeof(f->fp_sites), a->fp_sites, ';');
	if (!int_bites)
		return;
	f->int_count += a->int_count;
	co_union(f->int_mnemonics, sizeof(f->int_mnemonics), a->int_mnemonics,
		 ',');
	co_union(f->int_sites, sizeof(f->int_sites), a->int_sites, ';');
}
