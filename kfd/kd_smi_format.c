/* SPDX-License-Identifier: MIT */
/*
 * struct kd_smi_event to the line the newest kernel writes, by walking the
 * same spec the parser walks.  A value the kernel could not have written
 * (a negative pid, a part page) makes the whole line fail: a virtual GPU
 * that asks for one has a bug, and a line that parsed back different would
 * hide it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kd_smi_spec.h"

/* snprintf's contract: count everything, store what fits. */
struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, o->len++)
		if (o->len < o->cap)
			o->buf[o->len] = s[i];
}

__attribute__((format(printf, 2, 3))) static void putf(struct out *o,
							 const char *fmt, ...)
{
	char tmp[32]; /* the longest field is a 64-bit number */
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put(o, tmp, (size_t)n);
}

static int pages(struct out *o, uint64_t bytes)
{
	if (bytes & ((1u << KD_SMI_PAGE_SHIFT) - 1))
		return -1;
	putf(o, "%" PRIx64, bytes >> KD_SMI_PAGE_SHIFT);
	return 0;
}

static int pid(struct out *o, int32_t v, int hex)
{
	if (v < 0)
		return -1;
	if (hex)
		putf(o, "%" PRIx32, (uint32_t)v);
	else
		putf(o, "%" PRId32, v);
	return 0;
}

/* rw 0 is written '0' where the kind has it; a '0' of its own would read
 * back as 0. */
static int rw(struct out *o, const char *chars, char c)
{
	char ch = c ? c : '0';

	if (c == '0' || !memchr(chars, ch, strlen(chars)))
		return -1;
	put(o, &ch, 1);
	return 0;
}

static int text(struct out *o, const char *s)
{
	size_t n = strnlen(s, KD_SMI_TEXT_MAX);

	if (n == KD_SMI_TEXT_MAX || memchr(s, '\n', n))
		return -1;
	put(o, s, n);
	return 0;
}

static int hex32(struct out *o, uint32_t v)
{
	putf(o, "%" PRIx32, v);
	return 0;
}

static int s32(struct out *o, int32_t v)
{
	putf(o, "%" PRId32, v);
	return 0;
}

/* One letter of a spec (kd_smi_spec.h); other characters are literal. */
static int field(struct out *o, char f, const struct kd_smi_row *row,
		 const struct kd_smi_event *ev)
{
	switch (f) {
	case 'n':
		if (ev->ns > INT64_MAX)
			return -1;
		putf(o, "%" PRIu64, ev->ns);
		return 0;
	case 'p':
		return pid(o, ev->pid, 0);
	case 'h':
		return pid(o, ev->pid, 1);
	case 'a':
		return pages(o, ev->addr);
	case 's':
		return pages(o, ev->size);
	case 'f':
		return hex32(o, ev->from);
	case 't':
		return hex32(o, ev->to);
	case 'o':
		return hex32(o, ev->node);
	case 'l':
		return hex32(o, ev->prefetch_loc);
	case 'q':
		return hex32(o, ev->preferred_loc);
	case 'x':
		return hex32(o, ev->seq);
	case 'g':
		return s32(o, ev->trigger);
	case 'e':
		return s32(o, ev->error);
	case 'c':
		return rw(o, row->chars, ev->rw);
	case 'm':
		putf(o, "%" PRIx64, ev->mask);
		return 0;
	case 'k':
		putf(o, "%" PRIx64, ev->count);
		return 0;
	case '$':
		return text(o, ev->text);
	case '?': /* the newest kernel writes the optional tail */
		return 0;
	default:
		put(o, &f, 1);
		return 0;
	}
}

static int walk(struct out *o, const struct kd_smi_row *row,
		const struct kd_smi_event *ev)
{
	putf(o, "%x ", (unsigned)row->kind);
	for (const char *s = row->spec; *s; s++)
		if (field(o, *s, row, ev))
			return -1;
	put(o, "\n", 1);
	return 0;
}

size_t kd_smi_format(const struct kd_smi_event *ev, char *buf, size_t cap)
{
	const struct kd_smi_row *row = kd_smi_row(ev->kind);
	struct out o = {buf, cap, 0};

	if (!row || walk(&o, row, ev))
		o.len = 0;
	if (cap)
		buf[o.len < cap ? o.len : cap - 1] = '\0';
	return o.len;
}
