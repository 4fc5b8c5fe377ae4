/* SPDX-License-Identifier: MIT */
/*
 * SMI event lines to struct kd_smi_event, by walking the kind's spec.
 *
 * The bytes come from the kernel or, in tests and fuzzing, from anywhere:
 * every read is checked against the end, nothing needs a NUL, and numbers
 * are read by hand because sscanf would run past an unterminated line and
 * saturates on overflow instead of failing.
 */
#include <errno.h>
#include <string.h>

#include "kd_smi_spec.h"

struct cur {
	const char *p, *end;
};

static int lit(struct cur *c, char ch)
{
	if (c->p == c->end || *c->p != ch)
		return -EINVAL;
	c->p++;
	return 0;
}

/* The kernel's %x and %d: lowercase digits, at least one, at most max. */
static int num(struct cur *c, unsigned base, uint64_t max, uint64_t *v)
{
	const char *start = c->p;

	*v = 0;
	for (; c->p < c->end; c->p++) {
		unsigned d;

		if (*c->p >= '0' && *c->p <= '9')
			d = (unsigned)(*c->p - '0');
		else if (base == 16 && *c->p >= 'a' && *c->p <= 'f')
			d = (unsigned)(*c->p - 'a' + 10);
		else
			break;
		if (*v > (max - d) / base)
			return -EINVAL;
		*v = *v * base + d;
	}
	return c->p == start ? -EINVAL : 0;
}

static int hex32(struct cur *c, uint32_t *out)
{
	uint64_t v;
	int rc = num(c, 16, UINT32_MAX, &v);

	*out = (uint32_t)v;
	return rc;
}

/* %d of an int: triggers and negative errnos. */
static int s32(struct cur *c, int32_t *out)
{
	int neg = lit(c, '-') == 0;
	uint64_t v;
	int rc = num(c, 10, (uint64_t)INT32_MAX + (uint64_t)neg, &v);

	*out = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
	return rc;
}

static int pid(struct cur *c, unsigned base, int32_t *out)
{
	uint64_t v;
	int rc = num(c, base, INT32_MAX, &v);

	*out = (int32_t)v;
	return rc;
}

/* A page number or count, in bytes; one that cannot be is malformed. */
static int pages(struct cur *c, uint64_t *out)
{
	uint64_t v;
	int rc = num(c, 16, UINT64_MAX >> KD_SMI_PAGE_SHIFT, &v);

	*out = v << KD_SMI_PAGE_SHIFT;
	return rc;
}

/* Task names and reset causes: the rest of the line, which cannot hold
 * another line's newline nor a NUL. */
static int text(struct cur *c, char *out)
{
	size_t n = (size_t)(c->end - c->p);

	if (n >= KD_SMI_TEXT_MAX || memchr(c->p, '\0', n) ||
	    memchr(c->p, '\n', n))
		return -EINVAL;
	memcpy(out, c->p, n);
	out[n] = '\0';
	c->p = c->end;
	return 0;
}

/* Linux 6.12 to 6.18 write a NUL where 6.19 writes '0': both mean 0. */
static int rw(struct cur *c, const char *chars, char *out)
{
	char ch;

	if (c->p == c->end)
		return -EINVAL;
	ch = *c->p++;
	if (ch == '\0')
		ch = '0';
	if (!memchr(chars, ch, strlen(chars)))
		return -EINVAL;
	*out = ch == '0' ? 0 : ch;
	return 0;
}

/* One letter of a spec (kd_smi_spec.h); other characters are literal. */
static int field(struct cur *c, char f, const struct kd_smi_row *row,
		 struct kd_smi_event *ev)
{
	switch (f) {
	case 'n':
		return num(c, 10, INT64_MAX, &ev->ns);
	case 'p':
		return pid(c, 10, &ev->pid);
	case 'h':
		return pid(c, 16, &ev->pid);
	case 'a':
		return pages(c, &ev->addr);
	case 's':
		return pages(c, &ev->size);
	case 'f':
		return hex32(c, &ev->from);
	case 't':
		return hex32(c, &ev->to);
	case 'o':
		return hex32(c, &ev->node);
	case 'l':
		return hex32(c, &ev->prefetch_loc);
	case 'q':
		return hex32(c, &ev->preferred_loc);
	case 'x':
		return hex32(c, &ev->seq);
	case 'g':
		return s32(c, &ev->trigger);
	case 'e':
		return s32(c, &ev->error);
	case 'c':
		return rw(c, row->chars, &ev->rw);
	case 'm':
		return num(c, 16, UINT64_MAX, &ev->mask);
	case 'k':
		return num(c, 16, UINT64_MAX, &ev->count);
	case '$':
		return text(c, ev->text);
	default:
		return lit(c, f);
	}
}

static int walk(struct cur *c, const struct kd_smi_row *row,
		struct kd_smi_event *ev)
{
	for (const char *s = row->spec; *s; s++) {
		int rc;

		if (*s == '?') {
			if (c->p == c->end)
				return 0;
			continue;
		}
		rc = field(c, *s, row, ev);
		if (rc)
			return rc;
	}
	return c->p == c->end ? 0 : -EINVAL;
}

int kd_smi_parse(const char *line, size_t len, struct kd_smi_event *ev)
{
	struct cur c = {line, line + len};
	const struct kd_smi_row *row;
	uint64_t kind;

	if (len && line[len - 1] == '\n')
		c.end--;
	memset(ev, 0, sizeof(*ev));
	/* Kinds count from 1, and 64 is the all-processes bit, not a kind. */
	if (num(&c, 16, KFD_SMI_EVENT_ALL_PROCESS - 1, &kind) ||
	    kind == KFD_SMI_EVENT_NONE || lit(&c, ' '))
		return -EINVAL;
	ev->kind = (int)kind;
	row = kd_smi_row(ev->kind);
	if (!row)
		return -EOPNOTSUPP;
	return walk(&c, row, ev);
}
