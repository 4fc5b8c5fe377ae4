/* SPDX-License-Identifier: MIT */
/* Tokenising one script line: `event key=value key="a string" key=1,2,3`. */
#include "tg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *tg_skip_space(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Cuts one value off at p (quoted or bare) and returns where the next starts. */
static char *tg_cut_value(char *p, char **val)
{
	if (*p == '"') {
		char *end = strchr(p + 1, '"');

		if (!end)
			return NULL;
		*end = '\0';
		*val = p + 1;
		return end + 1;
	}
	*val = p;
	p += strcspn(p, " \t");
	if (*p)
		*p++ = '\0';
	return p;
}

int tg_tokenise(char *line, struct tg_line *out)
{
	char *p = tg_skip_space(line);

	memset(out, 0, sizeof(*out));
	out->event = p;
	p += strcspn(p, " \t");
	if (*p)
		*p++ = '\0';
	while (*(p = tg_skip_space(p))) {
		char *eq = strchr(p, '=');

		if (!eq || out->n == TG_MAX_KV)
			return -EINVAL;
		*eq = '\0';
		out->kv[out->n].key = p;
		p = tg_cut_value(eq + 1, &out->kv[out->n].val);
		if (!p)
			return -EINVAL;
		out->n++;
	}
	return 0;
}

static const char *tg_find(const struct tg_line *l, const char *key)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->kv[i].key, key))
			return l->kv[i].val;
	return NULL;
}

uint64_t tg_u64(const struct tg_line *l, const char *key, uint64_t def)
{
	const char *v = tg_find(l, key);

	return v ? strtoull(v, NULL, 0) : def;
}

int64_t tg_i64(const struct tg_line *l, const char *key, int64_t def)
{
	const char *v = tg_find(l, key);

	return v ? strtoll(v, NULL, 0) : def;
}

const char *tg_str(const struct tg_line *l, const char *key, const char *def)
{
	const char *v = tg_find(l, key);

	return v ? v : def;
}

/* Parses "1,2,3" into out[]; returns how many (at most max). */
int tg_list(const struct tg_line *l, const char *key, uint64_t *out, int max)
{
	const char *v = tg_find(l, key);
	int n = 0;

	while (v && *v && n < max) {
		char *end;

		out[n++] = strtoull(v, &end, 0);
		v = (*end == ',') ? end + 1 : end + strlen(end);
	}
	return n;
}
