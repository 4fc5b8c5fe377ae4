/* SPDX-License-Identifier: MIT */
#include "fixture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C escapes to bytes; -1 when malformed or too long. */
static long unescape(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	for (; *s; s++) {
		char ch = *s;

		if (ch == '\\') {
			s++;
			if (*s == 'n')
				ch = '\n';
			else if (*s == '0')
				ch = '\0';
			else if (*s == '\\')
				ch = '\\';
			else if (*s == 'x' && s[1] && s[2]) {
				char hex[3] = {s[1], s[2], 0};

				ch = (char)strtol(hex, NULL, 16);
				s += 2;
			} else
				return -1;
		}
		if (n == cap)
			return -1;
		out[n++] = ch;
	}
	return (long)n;
}

static int kind_of(const char *name)
{
	for (int k = 1; k < 64; k++)
		if (kd_smi_kind_name(k) && !strcmp(kd_smi_kind_name(k), name))
			return k;
	return -1;
}

/* Numeric fields by name: where they live and how wide they are. */
static int set_num(struct kd_smi_event *ev, const char *key, const char *v)
{
	long long s = strtoll(v, NULL, 0);
	unsigned long long u = strtoull(v, NULL, 0);

	if (!strcmp(key, "kind"))
		ev->kind = (int)s;
	else if (!strcmp(key, "ns"))
		ev->ns = u;
	else if (!strcmp(key, "pid"))
		ev->pid = (int32_t)s;
	else if (!strcmp(key, "addr"))
		ev->addr = u;
	else if (!strcmp(key, "size"))
		ev->size = u;
	else if (!strcmp(key, "from"))
		ev->from = (uint32_t)u;
	else if (!strcmp(key, "to"))
		ev->to = (uint32_t)u;
	else if (!strcmp(key, "node"))
		ev->node = (uint32_t)u;
	else if (!strcmp(key, "prefetch_loc"))
		ev->prefetch_loc = (uint32_t)u;
	else if (!strcmp(key, "preferred_loc"))
		ev->preferred_loc = (uint32_t)u;
	else if (!strcmp(key, "trigger"))
		ev->trigger = (int32_t)s;
	else if (!strcmp(key, "error"))
		ev->error = (int32_t)s;
	else if (!strcmp(key, "seq"))
		ev->seq = (uint32_t)u;
	else if (!strcmp(key, "mask"))
		ev->mask = u;
	else if (!strcmp(key, "count"))
		ev->count = u;
	else
		return -1;
	return 0;
}

/* "key=value" pairs after the kind; text takes the rest of the line. */
static int set_fields(struct kd_smi_event *ev, char *s)
{
	while (s && *s) {
		char *eq = strchr(s, '='), *next;

		if (!eq)
			return -1;
		*eq = '\0';
		if (!strcmp(s, "text")) {
			snprintf(ev->text, sizeof(ev->text), "%s", eq + 1);
			return 0;
		}
		next = strchr(eq + 1, ' ');
		if (next)
			*next++ = '\0';
		if (!strcmp(s, "rw"))
			ev->rw = eq[1];
		else if (set_num(ev, s, eq + 1))
			return -1;
		s = next;
	}
	return 0;
}

static int parse_want(char *s, struct fx_case *c)
{
	char *rest = strchr(s, ' ');

	if (rest)
		*rest++ = '\0';
	memset(&c->want, 0, sizeof(c->want));
	if (!strcmp(s, "EINVAL")) {
		c->rc = -EINVAL;
	} else if (!strcmp(s, "EOPNOTSUPP")) {
		c->rc = -EOPNOTSUPP;
	} else {
		c->rc = 0;
		c->want.kind = kind_of(s);
		if (c->want.kind < 0)
			return -1;
	}
	return set_fields(&c->want, rest);
}

static int add_line(struct fx_file *f, int lineno, const char *s)
{
	struct fx_case *c;
	long n;

	c = realloc(f->cases, (f->n + 1) * sizeof(*c));
	if (!c)
		return -1;
	f->cases = c;
	c = &f->cases[f->n];
	memset(c, 0, sizeof(*c));
	c->lineno = lineno;
	n = unescape(s, c->line, sizeof(c->line));
	c->len = (size_t)n;
	c->rc = 1; /* until its "= " line comes */
	if (n < 0)
		return -1;
	f->n++;
	return 0;
}

/* One line of the file; -1 when it does not fit the syntax. */
static int take(struct fx_file *f, int lineno, char *s)
{
	s[strcspn(s, "\n")] = '\0';
	if (!*s || *s == '#')
		return 0;
	if (!strcmp(s, "@ newest")) {
		f->newest = true;
		return 0;
	}
	if (!strncmp(s, "> ", 2))
		return add_line(f, lineno, s + 2);
	if (!strncmp(s, "= ", 2) && f->n && f->cases[f->n - 1].rc == 1)
		return parse_want(s + 2, &f->cases[f->n - 1]);
	return -1;
}

int fx_load(const char *path, struct fx_file *f, char *err, size_t cap)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t bufcap = 0;
	int lineno = 0, rc = 0;

	memset(f, 0, sizeof(*f));
	f->path = path;
	if (!fp) {
		snprintf(err, cap, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&buf, &bufcap, fp) >= 0)
		rc = take(f, ++lineno, buf);
	if (rc == 0 && f->n && f->cases[f->n - 1].rc == 1)
		rc = -1; /* a "> " line without its "= " */
	if (rc)
		snprintf(err, cap, "%s:%d: not fixture syntax", path, lineno);
	free(buf);
	fclose(fp);
	return rc;
}

void fx_free(struct fx_file *f)
{
	free(f->cases);
	memset(f, 0, sizeof(*f));
}

#define FX_CMP(field)                                                          \
	if (a->field != b->field)                                              \
		return #field;

const char *fx_diff(const struct kd_smi_event *a,
		    const struct kd_smi_event *b)
{
	FX_CMP(kind)
	FX_CMP(ns)
	FX_CMP(pid)
	FX_CMP(addr)
	FX_CMP(size)
	FX_CMP(from)
	FX_CMP(to)
	FX_CMP(node)
	FX_CMP(prefetch_loc)
	FX_CMP(preferred_loc)
	FX_CMP(trigger)
	FX_CMP(error)
	FX_CMP(rw)
	FX_CMP(seq)
	FX_CMP(mask)
	FX_CMP(count)
	if (strcmp(a->text, b->text))
		return "text";
	return NULL;
}
