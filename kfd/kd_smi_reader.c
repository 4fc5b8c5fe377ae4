/* SPDX-License-Identifier: MIT */
/*
 * SMI lines out of read() chunks.  A read may end anywhere in a line (old
 * kernels hand out eight bytes at a time), so the partial line waits in the
 * reader; a line that outgrows the buffer is counted and skipped to its
 * newline, so one bad line costs one line, never the stream.
 */
#include <errno.h>
#include <string.h>

#include "kd_smi.h"

void kd_smi_reader_init(struct kd_smi_reader *r, kd_smi_line_fn fn,
			void *arg)
{
	memset(r, 0, sizeof(*r));
	r->fn = fn;
	r->arg = arg;
}

static void emit(struct kd_smi_reader *r)
{
	struct kd_smi_event ev;
	int rc = kd_smi_parse(r->buf, r->len, &ev);

	r->lines++;
	if (rc == 0)
		r->events++;
	else if (rc == -EOPNOTSUPP)
		r->unknown++;
	else
		r->malformed++;
	r->fn(r->arg, r->buf, r->len, rc, &ev);
	r->len = 0;
}

/* Add n bytes of one line; the line ends when eol. */
static void take(struct kd_smi_reader *r, const char *p, size_t n, int eol)
{
	if (!r->skipping && n > sizeof(r->buf) - r->len) {
		r->overlong++;
		r->skipping = true;
		r->len = 0;
	}
	if (!r->skipping) {
		memcpy(r->buf + r->len, p, n);
		r->len += n;
		if (eol)
			emit(r);
	}
	if (eol)
		r->skipping = false;
}

void kd_smi_reader_feed(struct kd_smi_reader *r, const void *data,
			size_t len)
{
	const char *p = data, *end = p + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		take(r, p, n, nl != NULL);
		p += n + (nl != NULL);
	}
}

void kd_smi_reader_finish(struct kd_smi_reader *r)
{
	if (r->len || r->skipping)
		r->truncated++;
	r->len = 0;
	r->skipping = false;
}
