/* SPDX-License-Identifier: MIT */
/*
 * The atomics a finding is about, each at its own kernel line: the list
 * co_sites_lines makes ("max@hist.hip:17;or@hist.hip:18"), kept on the
 * finding and said in the message, JSON and SARIF.  Two operations on
 * adjacent lines are two lines, never one folded into the other's.
 */
#include <stdio.h>
#include <string.h>

#include "an_atomic.h"
#include "an_state.h"

/* The most entries a finding's list holds (its field's size allows). */
#define AN_ALINES_MAX 16

bool an_atomic_line_next(const char **p, struct an_aline *e)
{
	const char *s = *p;
	size_t n, m;

	if (!s || !*s)
		return false;
	n = strcspn(s, ";");
	m = strcspn(s, "@");
	if (m > n)
		m = n;
	snprintf(e->op, sizeof(e->op), "%.*s", (int)m, s);
	snprintf(e->at, sizeof(e->at), "%.*s", m < n ? (int)(n - m - 1) : 0,
		 m < n ? s + m + 1 : "");
	*p = s + n + (s[n] == ';');
	return true;
}

void an_atomic_lines_set(struct an_finding *f, const char *lines)
{
	const char *p = lines;
	struct an_aline e;

	if (!*lines)
		return;
	snprintf(f->atomic_lines, sizeof(f->atomic_lines), "%s", lines);
	if (an_atomic_line_next(&p, &e) && *e.at)
		snprintf(f->atomic_at, sizeof(f->atomic_at), "%s", e.at);
}

/* The list's entries, and in first[] whether each is the first at its
 * line; returns how many lines differ. */
static size_t parse(const char *lines, struct an_aline *v, bool *first,
		    size_t *n)
{
	const char *p = lines;
	size_t d = 0;

	*n = 0;
	while (*n < AN_ALINES_MAX && an_atomic_line_next(&p, &v[*n])) {
		first[*n] = true;
		for (size_t j = 0; j < *n && first[*n]; j++)
			first[*n] = strcmp(v[j].at, v[*n].at) != 0;
		d += first[*n];
		(*n)++;
	}
	return d;
}

const char *an_atomic_lines_text(const char *lines, const char *ops,
				 char *buf, size_t cap)
{
	struct an_aline v[AN_ALINES_MAX];
	bool first[AN_ALINES_MAX];
	size_t n, d = parse(lines, v, first, &n), o, k = 0;

	if (d < 2) {
		/* One line, or none known: "(max, or) at hist.hip:17". */
		snprintf(buf, cap, "%s%s%s%s%s", ops ? "(" : "", ops ? ops : "",
			 ops ? ")" : "", n && *v[0].at ? " at " : "",
			 n ? v[0].at : "");
		return buf;
	}
	/* "(max at hist.hip:17, or at hist.hip:18)", the operations at
	 * one line joined by '/'; unnamed, " at a.hip:5 and a.hip:7". */
	o = (size_t)snprintf(buf, cap, "%s", ops ? "(" : " at ");
	for (size_t i = 0; i < n && o < cap; i++) {
		if (!first[i])
			continue;
		k++;
		o += (size_t)snprintf(buf + o, cap - o, "%s",
				      k == 1 ? "" : k == d && !ops ? " and " : ", ");
		for (size_t j = i; ops && j < n && o < cap; j++)
			if (!strcmp(v[j].at, v[i].at))
				o += (size_t)snprintf(buf + o, cap - o, "%s%s",
						      j == i ? "" : "/", v[j].op);
		if (o < cap)
			o += (size_t)snprintf(buf + o, cap - o, "%s%s",
					      ops ? " at " : "", v[i].at);
	}
	if (ops && o + 1 < cap)
		strcat(buf, ")");
	return buf;
}
