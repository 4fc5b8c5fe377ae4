/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain scan` reports.  Text is for people: only kernels with dangerous
 * atomics, with what each means on its target.  JSON is for machines: every
 * kernel, with every global/flat/buffer atomic.
 */
#include <stdlib.h>
#include <string.h>

#include "co_int.h"
#include "hg_json.h"
#include "co_rules.h"
#include "co_demangle.h"
#include "co_family.h"
#include "co_scan.h"
#include "hg_path.h"

/* A processor whose code is not decoded, with why, and how many of its code
 * objects one file holds (a library carries one per source file). */
struct skipped {
	char proc[24];
	const char *why; /* NULL: decoded */
	unsigned n;
};

#define SKIPPED_MAX 64
#define EFFECTS_MAX 8

/* A code object's text report, and every target that has this text. */
struct block {
	char targets[256];
	char *body;
};

struct scan {
	const struct co_scan_opts *o;
	struct co_scan_stats *st;
	bool first_file, first_co, first_result;
	const char *path; /* the file being scanned */
	struct co_target want;
	/* Per processor, whether it is decoded: asked once per run. */
	struct skipped known[SKIPPED_MAX];
	unsigned nknown;
	/* This file's processors that were not. */
	struct skipped skip[SKIPPED_MAX];
	unsigned nskip;
	struct block *blocks; /* this file's code objects, as text */
	unsigned nblocks, capblocks;
	size_t matched; /* code objects --target let through */
};

static void json_insns(FILE *f, const struct co_kernel *k, int cls)
{
	char path[1024];
	bool first = true;
	fputc('[', f);
	for (uint32_t i = 0; i < k->ninsns; i++) {
		const struct co_insn *in = &k->insns[i];
		if (in->cls != cls || in->space == CO_SP_LDS)
			continue;
		fprintf(f, "%s{\"mnemonic\":", first ? "" : ",");
		hg_json_str(f, in->mnemonic);
		fprintf(f, ",\"offset\":%llu", (unsigned long long)in->addr);
		if (in->arg >= 0)
			fprintf(f, ",\"arg\":%d", in->arg);
		else
			fputs(",\"arg\":null", f);
		/* MI300's atomics say their scope; older ones carry none. */
		fputs(",\"scope\":", f);
		if (in->scope == CO_SCOPE_UNENCODED)
			fputs("null", f);
		else
			fputs(in->scope == CO_SCOPE_SYSTEM ? "\"system\""
							   : "\"agent\"", f);
		fputs(",\"file\":", f);
		if (in->file && in->line)
			hg_json_str(f, hg_path_norm(in->file, path, sizeof(path)));
		else
			fputs("null", f);
		if (in->file && in->line)
			fprintf(f, ",\"line\":%u}", in->line);
		else
			fputs(",\"line\":null}", f);
		first = false;
	}
	fputc(']', f);
}

static void json_kernel(FILE *f, const struct co_profiles *p,
			const struct co_kernel *k, bool first)
{
	char *dm = co_demangle(k->name);
	fprintf(f, "%s{\"name\":", first ? "" : ",");
	hg_json_str(f, k->name);
	fputs(",\"demangled\":", f);
	hg_json_str(f, dm ? dm : k->name);
	fputs(",\"target\":", f);
	hg_json_str(f, p->target);
	fputs(",\"hw_fp_atomics\":", f);
	json_insns(f, k, CO_AC_FP);
	fputs(",\"int_atomics\":", f);
	json_insns(f, k, CO_AC_INT);
	co_sync_json(f, k);
	fprintf(f, ",\"cas\":%u,\"lds\":%u,\"analysed\":%s}",
		k->atomics.cas_count, k->atomics.lds_count,
		k->atomics.analysed ? "true" : "false");
	free(dm);
}

/* The rules that bite this kernel on its own target, added to the code
 * object's list once each: a library's kernels share a handful. */
static void collect_effects(const char *target, const struct co_atomics *a,
			    const struct co_rule **seen, unsigned *nseen)
{
	struct { uint32_t ops; enum hg_mem mem; } asks[] = {
		{a->fp_ops, HG_MEM_DEVICE_FINE}, {a->fp_ops, HG_MEM_HOST_PINNED},
		{a->int_ops, HG_MEM_HOST_PINNED},
	};
	for (size_t i = 0; i < 3; i++) {
		struct co_rule_result r;
		bool dup = false;

		if (!asks[i].ops ||
		    !co_rule_lookup(target, NULL, asks[i].ops, asks[i].mem, HG_GRAN_FINE, &r))
			continue;
		for (unsigned j = 0; j < *nseen; j++)
			dup |= seen[j] == r.rule;
		if (!dup && *nseen < EFFECTS_MAX)
			seen[(*nseen)++] = r.rule;
	}
}

/* What an entry's scope mark ("^s", "^a") says. */
static const char *co_scope_words(const char *p, size_t n)
{
	size_t caret = strcspn(p, "^");

	if (caret + 1 >= n)
		return "";
	return p[caret + 1] == 's' ? "system scope" : "agent scope";
}

/* One entry of a sites list in words: "0 (app.hip:42)", "3 by max
 * (app.hip:8)", "1 (agent scope, app.hip:9)", "unknown". */
static int co_site_text(char *buf, size_t cap, const char *p, size_t n)
{
	size_t at = strcspn(p, "@"), plus = strcspn(p, "+"), caret = strcspn(p, "^");
	size_t end = at < n ? at : n, op_end = caret < end ? caret : end;
	size_t arg_end = plus < op_end ? plus : op_end;
	const char *scope = co_scope_words(p, end);
	char op[32] = "", line[160] = "";

	if (plus < op_end)
		snprintf(op, sizeof(op), " by %.*s", (int)(op_end - plus - 1),
			 p + plus + 1);
	if (at < n || *scope)
		snprintf(line, sizeof(line), " (%s%s%.*s)", scope,
			 *scope && at < n ? ", " : "",
			 at < n ? (int)(n - at - 1) : 0, at < n ? p + at + 1 : "");
	if (*p == '?')
		return snprintf(buf, cap, "unknown%s%s", op, line);
	return snprintf(buf, cap, "%.*s%s%s", (int)arg_end, p, op, line);
}

/* The sites list in words: "0 (app.hip:42), unknown". */
static const char *co_sites_text(const char *sites)
{
	static char buf[400];
	size_t o = 0;

	buf[0] = '\0';
	for (const char *p = sites; *p && o + 2 < sizeof(buf);) {
		size_t n = strcspn(p, ";");
		int w;

		if (o)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, ", ");
		w = co_site_text(buf + o, sizeof(buf) - o, p, n);
		if (w < 0)
			break;
		o += (size_t)w;
		p += n + (p[n] == ';');
	}
	return buf;
}

/* A kernel as the text report gives it: its name, then what it holds. */
struct kline {
	char *name, *detail;
	bool done; /* printed, with a kernel of the same detail */
	const struct co_kernel *k;
	bool int_bites;
};

/* Fills *kl when the kernel is to be listed: it has atomics that bite, or
 * the user asked for every kernel. */
static bool text_kernel(struct kline *kl, const char *target,
			const struct co_kernel *k, bool verbose,
			const struct co_rule **seen, unsigned *nseen)
{
	const struct co_atomics *a = &k->atomics;
	struct co_rule_result r;
	bool int_bites = a->int_ops &&
		co_rule_lookup(target, NULL, a->int_ops, HG_MEM_HOST_PINNED, HG_GRAN_FINE, &r);
	size_t len = 0;
	FILE *f;

	if (!a->fp_count && !int_bites && !a->sys_count && !verbose)
		return false;
	*kl = (struct kline){.name = co_demangle(k->name), .k = k,
			     .int_bites = int_bites};
	if (!kl->name)
		kl->name = strdup(k->name);
	f = open_memstream(&kl->detail, &len);
	if (!f || !kl->name) {
		if (f)
			fclose(f);
		free(kl->name);
		free(kl->detail);
		return false;
	}
	if (a->fp_count)
		fprintf(f, "%u hardware FP atomic%s (%s), first at 0x%llx; "
			   "arguments: %s",
			a->fp_count, a->fp_count == 1 ? "" : "s", a->fp_mnemonics,
			(unsigned long long)a->fp_first, co_sites_text(a->fp_sites));
	if (int_bites)
		fprintf(f, "%s%u integer atomic%s (%s)%s%s", a->fp_count ? "; " : "",
			a->int_count, a->int_count == 1 ? "" : "s",
			a->int_mnemonics, a->int_sites[0] ? "; arguments: " : "",
			co_sites_text(a->int_sites));
	if (!a->fp_count && !int_bites && !a->sys_count)
		fprintf(f, "no atomic that misbehaves on fine-grained memory (%u "
			   "integer, %u CAS)", a->int_count, a->cas_count);
	if (a->sys_count) {
		fprintf(f, "%ssynchronizes at system scope (%u instruction%s): ",
			a->fp_count || int_bites ? "; " : "", a->sys_count,
			a->sys_count == 1 ? "" : "s");
		co_sync_words(f, a->sys_sites);
	}
	fclose(f);
	collect_effects(target, a, seen, nseen);
	return true;
}

/* A family's line: "bsrsv_lower_shared<...>, 48 instances" and what they
 * hold together. */
static bool text_family_line(struct kline *kl, const char *name, size_t len,
			     const struct co_family *f)
{
	char *detail = NULL, *title = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&detail, &n);

	if (!m)
		return false;
	if (f->fp_count)
		fprintf(m, "%u hardware FP atomic%s (%s); arguments: %s",
			f->fp_count, f->fp_count == 1 ? "" : "s", f->fp_mnemonics,
			co_sites_text(f->fp_sites));
	if (f->int_count)
		fprintf(m, "%s%u integer atomic%s (%s)%s%s",
			f->fp_count ? "; " : "", f->int_count,
			f->int_count == 1 ? "" : "s", f->int_mnemonics,
			f->int_sites[0] ? "; arguments: " : "",
			co_sites_text(f->int_sites));
	fclose(m);
	if (asprintf(&title, "%.*s<...>, %u instances", (int)len, name, f->n) < 0) {
		free(detail);
		return false;
	}
	free(kl->name);
	free(kl->detail);
	kl->name = title;
	kl->detail = detail;
	return true;
}

/*
 * One line per kernel family (the instances of one template): the
 * template's name, how many, and the union of what they hold; -v keeps
 * every instance.
 */
static void text_families(struct kline *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *a, *b;
		size_t la = v[i].done ? 0 : co_family_name(v[i].name, &a);
		struct co_family f = {0};

		for (size_t j = i + 1; la && j < n; j++) {
			size_t lb = v[j].done ? 0 : co_family_name(v[j].name, &b);

			if (lb != la || strncmp(a, b, la))
				continue;
			if (!f.n)
				co_family_add(&f, &v[i].k->atomics, v[i].int_bites);
			co_family_add(&f, &v[j].k->atomics, v[j].int_bites);
			free(v[j].name);
			free(v[j].detail);
			v[j] = (struct kline){.done = true};
		}
		if (f.n) {
			char *name = strndup(a, la);

			if (name)
				text_family_line(&v[i], name, la, &f);
			free(name);
		}
	}
}

/*
 * Kernels that hold the same (a library's template instances): what they
 * hold once, then their names.  A kernel alone: its name, then what.
 */
static void text_klines(FILE *f, struct kline *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;

		if (v[i].done)
			continue;
		for (size_t j = i + 1; j < n; j++)
			same += !v[j].done && !strcmp(v[i].detail, v[j].detail);
		if (!same) {
			fprintf(f, "    %s\n      %s\n", v[i].name, v[i].detail);
			continue;
		}
		fprintf(f, "    %zu kernels, each: %s\n", same + 1, v[i].detail);
		for (size_t j = i; j < n; j++) {
			if (j > i && (v[j].done || strcmp(v[i].detail, v[j].detail)))
				continue;
			fprintf(f, "      %s\n", v[j].name);
			v[j].done = true;
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].detail);
	}
}

/* A code object's text: kept until the file is done, so that identical ones
 * (a library's xnack+ and xnack- builds) are printed once with both names. */
static void text_code_object(struct scan *s, const struct co_entry *e,
			     const struct co_profiles *p, size_t fp)
{
	const struct co_rule *seen[EFFECTS_MAX];
	unsigned nseen = 0;
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	struct kline *kl = calloc(p->nkernels ? p->nkernels : 1, sizeof(*kl));
	size_t nkl = 0;

	if (!f || !kl) {
		if (f)
			fclose(f);
		free(body);
		free(kl);
		return;
	}
	fprintf(f, " (bundle %u): %u kernel%s, %zu with hardware FP atomics\n",
		e->bundle, p->nkernels, p->nkernels == 1 ? "" : "s", fp);
	for (uint32_t i = 0; i < p->nkernels; i++)
		nkl += text_kernel(&kl[nkl], p->target, &p->kernels[i],
				   s->o->verbose, seen, &nseen);
	if (!s->o->verbose)
		text_families(kl, nkl);
	text_klines(f, kl, nkl);
	free(kl);
	/* Nothing at risk: the totals count it, --verbose shows it. */
	if (!nkl && !s->o->verbose) {
		fclose(f);
		free(body);
		s->st->quiet_code_objects++;
		return;
	}
	if (nseen)
		fprintf(f, "    on fine-grained memory, on this target:\n");
	for (unsigned i = 0; i < nseen; i++)
		fprintf(f, "      %s: %s\n", co_effect_name(seen[i]->effect),
			seen[i]->reason);
	fclose(f);
	for (unsigned i = 0; i < s->nblocks; i++) {
		struct block *b = &s->blocks[i];

		if (!strcmp(b->body, body) &&
		    strlen(b->targets) + strlen(e->target) + 3 < sizeof(b->targets)) {
			strcat(b->targets, ", ");
			strcat(b->targets, e->target);
			free(body);
			return;
		}
	}
	if (s->nblocks == s->capblocks) {
		unsigned cap = s->capblocks ? 2 * s->capblocks : 16;
		struct block *v = realloc(s->blocks, cap * sizeof(*v));

		if (!v) {
			free(body);
			return;
		}
		s->blocks = v;
		s->capblocks = cap;
	}
	snprintf(s->blocks[s->nblocks].targets,
		 sizeof(s->blocks[s->nblocks].targets), "%s", e->target);
	s->blocks[s->nblocks++].body = body;
}

static void text_flush(struct scan *s)
{
	for (unsigned i = 0; i < s->nblocks; i++) {
		fprintf(s->o->out, "  %s%s", s->blocks[i].targets,
			s->blocks[i].body);
		free(s->blocks[i].body);
	}
	s->nblocks = 0;
}

static void report(struct scan *s, const struct co_entry *e,
		   const struct co_profiles *p)
{
	FILE *f = s->o->out;
	size_t fp = 0;
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const struct co_atomics *a = &p->kernels[i].atomics;
		struct co_rule_result r;

		fp += a->fp_count != 0;
		s->st->sync_kernels += a->sys_count != 0;
		s->st->int_kernels += !a->fp_count && a->int_ops &&
			co_rule_lookup(p->target, NULL, a->int_ops, HG_MEM_HOST_PINNED,
				       HG_GRAN_FINE, &r);
	}
	s->st->fp_kernels += fp;
	if (s->o->sarif) {
		for (uint32_t i = 0; i < p->nkernels; i++)
			co_sarif_kernel(f, &s->first_result, s->path, e, p, &p->kernels[i]);
	} else if (s->o->json) {
		fprintf(f, "%s{\"target\":", s->first_co ? "" : ",");
		hg_json_str(f, e->target);
		fprintf(f, ",\"bundle\":%u,\"kernels\":[", e->bundle);
		for (uint32_t i = 0; i < p->nkernels; i++)
			json_kernel(f, p, &p->kernels[i], i == 0);
		fputs("]}", f);
	} else {
		text_code_object(s, e, p, fp);
	}
	s->first_co = false;
}

/* Why code for proc is not decoded, or NULL when it is. */
static const char *why_not(const struct scan *s, const char *proc)
{
	const char *why = NULL;
	struct co_comgr *dis;

	if (s->o->decoder != CO_DEC_COMGR && co_isa_family(proc) != ISA_UNKNOWN)
		return NULL;
	if (s->o->decoder == CO_DEC_OWN)
		return "hipgrain's own decoder knows the gfx9 family only "
		       "(gfx908, gfx90a, gfx940-942, gfx950, gfx9-4-generic)";
	if (s->o->decoder == CO_DEC_AUTO && !co_rules_cover(proc))
		return "no atomic hazard on fine-grained memory is known on this "
		       "target (--decoder comgr lists its atomics all the same)";
	dis = co_comgr_open(proc, &why);
	co_comgr_close(dis);
	return dis ? NULL : why ? why : "comgr cannot disassemble it";
}

static struct skipped *find(struct skipped *v, unsigned n, const char *proc)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v[i].proc, proc))
			return &v[i];
	return NULL;
}

/* Counts a code object not decoded; false when proc is decoded. */
static bool skipped(struct scan *s, const struct co_entry *e)
{
	struct co_target t;
	struct skipped *k, *f;

	if (co_target_parse(e->target, &t))
		return false; /* scan_entry says what is wrong with it */
	k = find(s->known, s->nknown, t.proc);
	if (!k && s->nknown < SKIPPED_MAX) {
		k = &s->known[s->nknown++];
		snprintf(k->proc, sizeof k->proc, "%s", t.proc);
		k->why = why_not(s, t.proc);
	}
	if (!k || !k->why)
		return false;
	f = find(s->skip, s->nskip, t.proc);
	if (!f && s->nskip < SKIPPED_MAX) {
		f = &s->skip[s->nskip++];
		*f = *k;
		f->n = 0;
	}
	if (f)
		f->n++;
	s->st->not_decoded++;
	return true;
}

/* One warning per processor not decoded, and its line in the report. */
static void report_skipped(struct scan *s, const char *path)
{
	FILE *f = s->o->out;

	for (unsigned i = 0; i < s->nskip; i++) {
		const struct skipped *k = &s->skip[i];

		/* Text says it in the report; the other formats' readers are
		 * told here too. */
		if (s->o->json || s->o->sarif)
			fprintf(s->o->err,
				"hipgrain scan: warning: %s: %s: not decoded (%u "
				"code object%s): %s\n",
				path, k->proc, k->n, k->n == 1 ? "" : "s", k->why);
		if (s->o->json)
			fprintf(f, "%s{\"target\":\"%s\",\"code_objects\":%u,"
				   "\"why\":",
				i ? "," : "", k->proc, k->n);
		else if (!s->o->sarif)
			fprintf(f, "  %s: %u code object%s not decoded: %s\n",
				k->proc, k->n, k->n == 1 ? "" : "s", k->why);
		if (s->o->json) {
			hg_json_str(f, k->why);
			fputc('}', f);
		}
	}
}

/* "where: why", with the offset and the reader's name for the part only
 * when they say more than the file's name does. */
static const char *scan_error(const struct co_error *err, char *buf, size_t size)
{
	if (err->offset == 0 && (!strcmp(err->what, "file") ||
				 !strcmp(err->what, "input")))
		snprintf(buf, size, "%s: %s", err->where, err->why);
	else
		co_error_str(err, buf, size);
	return buf;
}

static int scan_entry(struct scan *s, const char *path, const struct co_entry *e)
{
	struct co_error err;
	char where[512], msg[1024];
	snprintf(where, sizeof where, "%s[%s@0x%llx]", path, e->target,
		 (unsigned long long)e->offset);
	struct co_object *obj = co_object_open_nohash(e->data, e->size, where, &err);
	if (!obj || co_object_analyse(obj, s->o->decoder, &err)) {
		fprintf(s->o->err, "hipgrain scan: %s\n", scan_error(&err, msg, sizeof msg));
		co_object_free(obj);
		return -1;
	}
	const struct co_profiles *p = co_object_profiles(obj);
	s->st->code_objects++;
	s->st->kernels += p->nkernels;
	for (uint32_t i = 0; i < p->nkernels; i++) {
		s->st->fp_insns += p->kernels[i].atomics.fp_count;
		s->st->int_insns += p->kernels[i].atomics.int_count;
		s->st->cas_insns += p->kernels[i].atomics.cas_count;
	}
	report(s, e, p);
	co_object_free(obj);
	return 0;
}

static bool wanted(const struct scan *s, const struct co_entry *e);

/* Scans entry i unless its processor is not decoded, then gives its pages
 * back: a library's code objects add up to gigabytes. */
static int scan_one(struct scan *s, const char *path, struct co_set *set,
		    size_t i)
{
	const struct co_entry *e = co_set_entry(set, i);
	int rc;

	if (!wanted(s, e))
		return 0;
	s->matched++;
	if (skipped(s, e))
		return 0;
	rc = scan_entry(s, path, e);
	co_set_release(set, i);
	return rc;
}

static bool wanted(const struct scan *s, const struct co_entry *e)
{
	struct co_target t;
	if (!s->o->target)
		return true;
	return co_target_parse(e->target, &t) == 0 && co_target_match(&t, &s->want) >= 0;
}

static int scan_file_out(struct scan *s, const char *path);

/*
 * With --target, a file's text is kept until it is known whether any of
 * its code objects matched: a file with none prints nothing, and when no
 * file has one the error alone is the answer.
 */
static int scan_file(struct scan *s, const char *path)
{
	const struct co_scan_opts *o = s->o;
	struct co_scan_opts held = *o;
	size_t before = s->matched, len = 0;
	char *text = NULL;
	int rc;

	if (!o->target || o->json || o->sarif)
		return scan_file_out(s, path);
	held.out = open_memstream(&text, &len);
	if (!held.out)
		return scan_file_out(s, path);
	s->o = &held;
	rc = scan_file_out(s, path);
	s->o = o;
	if (fclose(held.out) == 0 && s->matched > before)
		fwrite(text, 1, len, o->out);
	free(text);
	return rc;
}

static int scan_file_out(struct scan *s, const char *path)
{
	struct co_error err;
	char msg[1024];
	FILE *f = s->o->out;
	struct co_set *set = co_set_from_file(path, &err);
	s->st->files++;
	s->path = path;
	if (s->o->sarif) {
		/* results only */
	} else if (s->o->json) {
		fprintf(f, "%s{\"path\":", s->first_file ? "" : ",");
		hg_json_str(f, path);
		fputs(",\"code_objects\":[", f);
	} else if (set) {
		fprintf(f, "%s:\n", path);
	}
	s->first_file = false;
	s->first_co = true;
	int rc = 0;
	if (!set) {
		fprintf(s->o->err, "hipgrain scan: %s\n", scan_error(&err, msg, sizeof msg));
		rc = -1;
	}
	s->nskip = 0;
	for (size_t i = 0; set && i < co_set_count(set); i++)
		if (scan_one(s, path, set, i))
			rc = -1;
	if (!s->o->json && !s->o->sarif)
		text_flush(s);
	if (set && !s->o->json && !s->o->sarif && co_set_count(set) == 0)
		fprintf(f, "  no GPU code objects\n");
	if (s->o->json)
		fputs("],\"not_decoded\":[", f);
	report_skipped(s, path);
	if (s->o->json)
		fprintf(f, "]%s}", rc ? ",\"error\":true" : "");
	co_set_free(set);
	if (rc)
		s->st->files_bad++;
	return rc;
}

/* The answer last, where a terminal leaves it: what was read, what bites. */
static void text_totals(FILE *f, const struct co_scan_stats *st)
{
	fprintf(f, "\ntotal: %zu file%s", st->files, st->files == 1 ? "" : "s");
	if (st->files_bad)
		fprintf(f, " (%zu unreadable)", st->files_bad);
	fprintf(f, ", %zu code object%s, %zu kernel%s: %zu with hardware FP "
		   "atomics, %zu with integer atomics that misbehave on "
		   "fine-grained memory\n",
		st->code_objects, st->code_objects == 1 ? "" : "s", st->kernels,
		st->kernels == 1 ? "" : "s", st->fp_kernels, st->int_kernels);
	if (st->sync_kernels)
		fprintf(f, "%zu kernel%s synchronize%s at system scope, which "
			   "coarse-grained memory does not carry while a kernel "
			   "runs\n", st->sync_kernels,
			st->sync_kernels == 1 ? "" : "s",
			st->sync_kernels == 1 ? "s" : "");
	fprintf(f, "atomic instructions: %zu hardware FP, %zu integer, %zu CAS",
		st->fp_insns, st->int_insns, st->cas_insns);
	if (st->quiet_code_objects)
		fprintf(f, "; %zu code object%s with nothing at risk not listed "
			   "(--verbose lists them)", st->quiet_code_objects,
			st->quiet_code_objects == 1 ? "" : "s");
	if (st->not_decoded)
		fprintf(f, "; %zu code object%s not decoded", st->not_decoded,
			st->not_decoded == 1 ? "" : "s");
	fputc('\n', f);
}

static void json_totals(FILE *f, const struct co_scan_stats *st)
{
	fprintf(f, ",\"summary\":{\"files\":%zu,\"files_unreadable\":%zu,"
		   "\"code_objects\":%zu,\"kernels\":%zu,"
		   "\"kernels_hw_fp_atomics\":%zu,\"kernels_int_atomics\":%zu,"
		   "\"hw_fp_atomics\":%zu,\"int_atomics\":%zu,\"cas\":%zu,"
		   "\"not_decoded\":%zu,\"kernels_system_sync\":%zu}",
		st->files, st->files_bad, st->code_objects, st->kernels,
		st->fp_kernels, st->int_kernels, st->fp_insns, st->int_insns,
		st->cas_insns, st->not_decoded, st->sync_kernels);
}

int co_scan_run(const struct co_scan_opts *o, char *const *paths, int n,
		struct co_scan_stats *st)
{
	struct scan s = {.o = o, .st = st, .first_file = true, .first_result = true};
	memset(st, 0, sizeof *st);
	if (o->target && co_target_parse(o->target, &s.want)) {
		fprintf(o->err, "hipgrain scan: --target %s: not a target id (e.g. gfx90a:xnack-)\n",
			o->target);
		return -1;
	}
	if (o->sarif)
		co_sarif_begin(o->out);
	else if (o->json)
		fputs("{\"files\":[", o->out);
	int rc = 0;
	for (int i = 0; i < n; i++)
		if (scan_file(&s, paths[i]))
			rc = -1;
	free(s.blocks);
	/* A target nothing was built for is not a clean result. */
	st->target_unmatched = o->target && !s.matched && st->files > st->files_bad;
	if (st->target_unmatched)
		fprintf(o->err, "hipgrain scan: --target %s: no code object in "
				"%s can load on it\n",
			o->target, n == 1 ? paths[0] : "these files");
	if (o->sarif) {
		co_sarif_end(o->out, rc == 0);
	} else if (o->json) {
		fputc(']', o->out);
		json_totals(o->out, st);
		fputs("}\n", o->out);
	} else if (!st->target_unmatched) {
		text_totals(o->out, st);
	}
	return rc;
}
