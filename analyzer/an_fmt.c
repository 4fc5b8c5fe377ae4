/* SPDX-License-Identifier: MIT */
/*
 * What the writers share, in a leaf of their own: a helper in one writer
 * that its siblings call would make each a caller of the other.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "an_fmt.h"
#include "an_gpus.h"
#include "an_output.h"
#include "hg_json.h"
#include "hg_path.h"

static const char *const an_sev_names[] = {"none", "note", "warning", "error"};

const char *an_sev_name(enum an_sev s)
{
	return an_sev_names[s & 3];
}

enum an_sev an_sev_parse(const char *s)
{
	for (int i = AN_SEV_NOTE; i <= AN_SEV_ERROR; i++)
		if (!strcmp(s, an_sev_names[i]))
			return (enum an_sev)i;
	return AN_SEV_NONE;
}

/* One GPU given by its index in the node is named as the driver's own
 * are ("GPU 3 (MI250X, card 1's second GCD)"): the same count, so a rank
 * and the memory it allocated name their GPU alike.  A list, or a UUID,
 * is shown as the job wrote it. */
static void an_where_gpu(const struct an_proc *p, char *buf, size_t cap)
{
	char *end, name[96];
	unsigned long i = strtoul(p->gpus, &end, 10);

	if (p->gpus[0] >= '0' && p->gpus[0] <= '9' && !*end && i < UINT8_MAX)
		snprintf(buf, cap, ", %s",
			 an_gpu_name(p, 0, (uint8_t)(i + 1), name, sizeof(name)));
	else
		snprintf(buf, cap, ", GPU %s", p->gpus);
}

void an_where(const struct an_proc *p, char *buf, size_t cap)
{
	int o = snprintf(buf, cap, "%s[%lld]", p->procname[0] ? p->procname : "?",
			 (long long)p->vpid);

	if (p->host[0] && o > 0 && (size_t)o < cap)
		o += snprintf(buf + o, cap - (size_t)o, " on %s", p->host);
	if (p->rank[0] && o > 0 && (size_t)o < cap)
		o += snprintf(buf + o, cap - (size_t)o, ", rank %s", p->rank);
	if (p->gpus[0] && o > 0 && (size_t)o < cap)
		an_where_gpu(p, buf + o, cap - (size_t)o);
}

void an_bytes_text(uint64_t b, char *buf, size_t cap)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

void an_html_esc(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (s && *s) {
		int n;

		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			if (*s >= 0x80 && (n = hg_utf8_len(s)) > 0) {
				fwrite(s, 1, (size_t)n, out);
				s += n;
				continue;
			}
			if (*s >= 0x80 ||
			    (*s < 0x20 && *s != '\n' && *s != '\t') ||
			    *s == 0x7f)
				fputs("\xef\xbf\xbd", out); /* U+FFFD */
			else
				fputc(*s, out);
		}
		s++;
	}
}

static void an_json_frame(FILE *out, const struct an_frame *f)
{
	char path[1024];

	fputs("{\"function\":", out);
	hg_json_str(out, f->function);
	fputs(",\"file\":", out);
	hg_json_str(out, f->file ? hg_path_norm(f->file, path, sizeof(path))
				 : NULL);
	/* A frame of HIP's or the C library's headers (an inlined template
	 * of hip_runtime_api.h) is never the user's line. */
	fprintf(out, ",\"line\":%d,\"address\":\"0x%llx\",\"inlined\":%s,"
		     "\"runtime_header\":%s}",
		f->line, (unsigned long long)f->pc,
		f->inlined ? "true" : "false",
		f->file && an_file_is_library(f->file) ? "true" : "false");
}

void an_json_frames(FILE *out, const struct an_frame *f, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++) {
		fputs(i ? "," : "", out);
		an_json_frame(out, &f[i]);
	}
	fputc(']', out);
}

void an_json_site(FILE *out, const struct an_frame *f, int n)
{
	int i = an_site_frame(f, n);

	fputs(",\"site\":", out);
	if (i < 0)
		fputs("null", out);
	else
		an_json_frame(out, &f[i]);
}
