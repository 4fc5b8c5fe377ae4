/* SPDX-License-Identifier: MIT */
/*
 * kd_smi: the lines of each kernel release (fixtures/smi-*.txt) decode field
 * by field, the newest are written back byte for byte, hostile lines get
 * the right error, format and parse agree on generated events, and the
 * reader gives the same events however the text is cut into reads.
 *
 * usage: test-kfd-smi FIXTURE_DIR
 */
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "gen.h"
#include "kd_smi.h"
#include "tap.h"

#define ROUND_TRIP_EVENTS 500
#define ROUND_TRIP_SEED 0x5eedf00dULL

/* ---- fixtures ------------------------------------------------------------ */

/* Parse from a heap copy of exactly len bytes, so that ASan sees any read
 * past the end. */
static int parse_exact(const char *line, size_t len, struct kd_smi_event *ev)
{
	char *copy = malloc(len ? len : 1);
	int rc;

	memcpy(copy, line, len);
	rc = kd_smi_parse(copy, len, ev);
	free(copy);
	return rc;
}

static const char *mismatch(const struct fx_case *c, int rc,
			    const struct kd_smi_event *got)
{
	if (rc != c->rc)
		return "return value";
	if (rc == -EOPNOTSUPP && got->kind != c->want.kind)
		return "kind";
	return rc ? NULL : fx_diff(got, &c->want);
}

static void check_case(const struct fx_file *f, const struct fx_case *c)
{
	struct kd_smi_event got;
	const char *bad;
	int rc = parse_exact(c->line, c->len, &got);

	bad = mismatch(c, rc, &got);
	ok(!bad, "%s:%d: decodes%s%s (rc %d)", f->path, c->lineno,
	   bad ? ", wrong " : "", bad ? bad : "", rc);
	/* The same line without its newline, as a caller may pass it. */
	if (c->len && c->line[c->len - 1] == '\n') {
		rc = parse_exact(c->line, c->len - 1, &got);
		ok(!mismatch(c, rc, &got), "%s:%d: decodes without its newline",
		   f->path, c->lineno);
	}
}

static void check_newest(const struct fx_file *f, const struct fx_case *c)
{
	char buf[KD_SMI_LINE_MAX + 1];
	size_t n = kd_smi_format(&c->want, buf, sizeof(buf));

	ok(n == c->len && !memcmp(buf, c->line, n),
	   "%s:%d: written back byte for byte (%zu bytes, want %zu)", f->path,
	   c->lineno, n, c->len);
}

/* ---- the reader ---------------------------------------------------------- */

struct seen {
	size_t n;
	int rc[64];
	struct kd_smi_event ev[64];
};

static void record(void *arg, const char *line, size_t len, int rc,
		   const struct kd_smi_event *ev)
{
	struct seen *s = arg;

	(void)line;
	(void)len;
	if (s->n < 64) {
		s->rc[s->n] = rc;
		s->ev[s->n] = *ev;
	}
	s->n++;
}

/* Did the reader see exactly the file's cases, in order? */
static int same_as(const struct seen *s, const struct fx_file *f)
{
	if (s->n != f->n)
		return 0;
	for (size_t i = 0; i < f->n; i++)
		if (mismatch(&f->cases[i], s->rc[i], &s->ev[i]))
			return 0;
	return 1;
}

/* The file's lines as one stream; returns its length. */
static size_t stream_of(const struct fx_file *f, char *buf, size_t cap)
{
	size_t len = 0;

	for (size_t i = 0; i < f->n && len + f->cases[i].len <= cap; i++) {
		memcpy(buf + len, f->cases[i].line, f->cases[i].len);
		len += f->cases[i].len;
	}
	return len;
}

static int read_in(const struct fx_file *f, const char *text, size_t len,
		   size_t split, size_t chunk)
{
	struct kd_smi_reader r;
	struct seen s = {0};

	kd_smi_reader_init(&r, record, &s);
	kd_smi_reader_feed(&r, text, split);
	for (size_t i = split; i < len; i += chunk)
		kd_smi_reader_feed(&r, text + i,
				   len - i < chunk ? len - i : chunk);
	kd_smi_reader_finish(&r);
	return same_as(&s, f) && r.lines == f->n && !r.truncated;
}

static void check_reader(const struct fx_file *f)
{
	static char text[1 << 16];
	size_t len = stream_of(f, text, sizeof(text)), bad = 0;

	for (size_t split = 0; split <= len; split++)
		bad += !read_in(f, text, len, split, len - split + 1);
	ok(!bad, "%s: the same events at each of %zu split points (%zu bad)",
	   f->path, len + 1, bad);
	/* 5.15 hands out eight bytes a read; some callers read byte by byte. */
	ok(read_in(f, text, len, 0, 8), "%s: the same in 8-byte reads",
	   f->path);
	ok(read_in(f, text, len, 0, 1), "%s: the same in 1-byte reads",
	   f->path);
}

/* ---- hostile lines ------------------------------------------------------- */

#define L(s) s, sizeof(s) - 1

static const struct {
	const char *bytes;
	size_t len;
	int rc;
	const char *what;
} hostile[] = {
	{L(""), -EINVAL, "empty"},
	{L("\n"), -EINVAL, "a newline alone"},
	{L("5"), -EINVAL, "a kind alone"},
	{L("5\n"), -EINVAL, "a kind alone, newline"},
	{L("5 "), -EINVAL, "a kind and its space"},
	{L("ffffffffffffffffff 1\n"), -EINVAL, "a kind past 64 bits"},
	{L("40 x\n"), -EINVAL, "kind 64, the all-processes bit"},
	{L("0 x\n"), -EINVAL, "kind 0"},
	{L("2a\n"), -EINVAL, "an unknown kind without its space"},
	{L("A 1 -2 3\n"), -EINVAL, "an uppercase kind"},
	{L("7 1 42 @1(2) R\n"), -EINVAL, "a pid without '-'"},
	{L("7 1 --42 @1(2) R\n"), -EINVAL, "a pid with two '-'"},
	{L("7 1 -42 @1(2) X\n"), -EINVAL, "an rw the kind has not"},
	{L("7 1 -42 @1(2) r\n"), -EINVAL, "a lowercase rw"},
	{L("7 1 -42 @1(2) \0\n"), -EINVAL, "a NUL rw outside queue restore"},
	{L("7 1 -42 @1(A) R\n"), -EINVAL, "uppercase hex"},
	{L("5 123 -4 @7f3a1c2"), -EINVAL, "cut in the address"},
	{L("5 123 -4 @7f3a1c200(200) 0->afea afea:afea"), -EINVAL,
	 "cut before the trigger"},
	{L("5 123 -"), -EINVAL, "cut after the pid's '-'"},
	{L("6 1 -2 @1(2) 0->1 1 \n"), -EINVAL, "a migrate end's empty error"},
	{L("9 1 -2 3 4 5\n"), -EINVAL, "a field too many"},
	{L("a 1 -2 3 \0junk\n"), -EINVAL, "bytes after a restore's NUL"},
	{L("a 1 -2 3 \n"), -EINVAL, "a restore's empty last field"},
	{L("7 1 -2 @10000000000000(1) R\n"), -EINVAL,
	 "a page number past 64-bit bytes"},
	{L("5 9223372036854775808 -1 @1(1) 0->1 0:0 0\n"), -EINVAL,
	 "a time past INT64_MAX"},
	{L("9 1 -2147483648 3 0\n"), -EINVAL, "a pid past INT32_MAX"},
	{L("9 1 -2 3 -2147483649\n"), -EINVAL, "a trigger past INT32_MIN"},
	{L("9 1 -2 100000000 0\n"), -EINVAL, "a node past 32 bits"},
	{L("2 1:10000000000000000\n"), -EINVAL, "a count past 64 bits"},
	{L("1 1092:ab\0cd\n"), -EINVAL, "a NUL in a task name"},
	{L("1 1092:ab\ncd\n"), -EINVAL, "a newline in a task name"},
	{L("1 -1092:x\n"), -EINVAL, "a vmfault pid with '-'"},
	{L("7 1 -2 @1(2) R\nmore"), -EINVAL, "a newline inside"},
	{L("7 1 -2 @1(2) R\n\n"), -EINVAL, "two newlines"},
	{L("2a some text\n"), -EOPNOTSUPP, "an unknown kind with text"},
	{L("3f \n"), -EOPNOTSUPP, "the last kind a mask can select"},
	{L("7 1 -2 @fffffffffffff(1) R\n"), 0, "the largest page number"},
	{L("9 1 -2 3 -2147483648\n"), 0, "a trigger of INT32_MIN"},
	{L("7 1 -2 @1(2) R"), 0, "no newline"},
	{L("4 1 \n"), 0, "a post reset's empty cause"},
};

static void check_hostile(void)
{
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		struct kd_smi_event ev;
		int rc = parse_exact(hostile[i].bytes, hostile[i].len, &ev);

		ok(rc == hostile[i].rc, "hostile: %s (rc %d, want %d)",
		   hostile[i].what, rc, hostile[i].rc);
	}
}

/* The longest task name fits, one more byte does not. */
static void check_text_bound(void)
{
	char line[16 + KD_SMI_TEXT_MAX];
	struct kd_smi_event ev;
	size_t n = (size_t)snprintf(line, sizeof(line), "1 1:");

	memset(line + n, 'x', KD_SMI_TEXT_MAX);
	ok(parse_exact(line, n + KD_SMI_TEXT_MAX - 1, &ev) == 0 &&
		   strlen(ev.text) == KD_SMI_TEXT_MAX - 1,
	   "a text of %d bytes fits", KD_SMI_TEXT_MAX - 1);
	ok(parse_exact(line, n + KD_SMI_TEXT_MAX, &ev) == -EINVAL,
	   "a text of %d bytes does not", KD_SMI_TEXT_MAX);
}

/* Garbage: 4 KiB that cannot start a kind, then 4 KiB of any bytes. */
static void check_garbage(void)
{
	static char junk[4096];
	struct kd_smi_event ev;
	size_t odd = 0;

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)('g' + gen_rng() % 20);
	ok(parse_exact(junk, sizeof(junk), &ev) == -EINVAL,
	   "4 KiB of letters: malformed");
	for (int round = 0; round < 64; round++) {
		int rc;

		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (char)gen_rng();
		rc = parse_exact(junk, sizeof(junk), &ev);
		odd += rc != -EINVAL && rc != -EOPNOTSUPP;
	}
	ok(!odd, "4 KiB of random bytes, 64 times: an error each time");
}

/* ---- format and parse agree ---------------------------------------------- */

static void check_round_trip(void)
{
	size_t bad = 0;
	const char *first = NULL;

	gen_seed(ROUND_TRIP_SEED);
	for (int i = 0; i < ROUND_TRIP_EVENTS; i++) {
		struct kd_smi_event ev, got;
		char buf[KD_SMI_LINE_MAX + 1];
		size_t n;

		gen_event(&ev);
		n = kd_smi_format(&ev, buf, sizeof(buf));
		if (!n || n >= sizeof(buf) || parse_exact(buf, n, &got)) {
			bad++;
			first = first ? first : "format or parse failed";
		} else if (fx_diff(&ev, &got)) {
			bad++;
			first = first ? first : fx_diff(&ev, &got);
		}
	}
	ok(!bad, "parse(format(ev)) == ev for %d events (%zu bad, first: %s)",
	   ROUND_TRIP_EVENTS, bad, first ? first : "none");
}

static struct kd_smi_event fault(void)
{
	struct kd_smi_event ev = {.kind = KFD_SMI_EVENT_PAGE_FAULT_START,
				  .ns = 5,
				  .pid = 6,
				  .addr = 0x7000,
				  .node = 1,
				  .rw = 'R'};
	return ev;
}

/* Values the kernel never writes are refused, not written wrong. */
static void check_format_refuses(void)
{
	struct kd_smi_event ev;
	char buf[KD_SMI_LINE_MAX];

	ev = fault();
	ev.addr |= 1;
	ok(!kd_smi_format(&ev, buf, sizeof(buf)) && !buf[0],
	   "format: a part page is refused, buf left empty");
	ev = fault();
	ev.pid = -1;
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: a negative pid");
	ev = fault();
	ev.rw = 'M';
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: an rw of another kind");
	ev = fault();
	ev.rw = 0;
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: a fault without rw");
	ev = fault();
	ev.ns = (uint64_t)INT64_MAX + 1;
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: a time past %%lld");
	ev = fault();
	ev.kind = 0x2a;
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: an unknown kind");
	memset(&ev, 0, sizeof(ev));
	ev.kind = KFD_SMI_EVENT_VMFAULT;
	strcpy(ev.text, "a\nb");
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: a newline in text");
	memset(ev.text, 'x', sizeof(ev.text));
	ok(!kd_smi_format(&ev, buf, sizeof(buf)), "format: text without NUL");
}

/* snprintf's contract: the full length, a NUL within cap. */
static void check_format_cap(void)
{
	struct kd_smi_event ev = fault();
	char buf[8];
	size_t full = kd_smi_format(&ev, NULL, 0);

	ok(full == strlen("7 5 -6 @7(1) R\n"), "format: length with no buffer");
	ok(kd_smi_format(&ev, buf, sizeof(buf)) == full &&
		   !strcmp(buf, "7 5 -6 "),
	   "format: cut to the buffer, NUL-terminated");
}

static void check_names(void)
{
	int named = 0;

	for (int k = 1; k <= 13; k++)
		named += kd_smi_kind_name(k) != NULL;
	ok(named == 13, "every kind up to process_end has a name");
	ok(!kd_smi_kind_name(0) && !kd_smi_kind_name(14) &&
		   !kd_smi_kind_name(64),
	   "kinds 0, 14 and 64 have none");
	ok(!strcmp(kd_smi_kind_name(KFD_SMI_EVENT_MIGRATE_START),
		   "migrate_start") &&
		   !strcmp(kd_smi_kind_name(KD_SMI_EVENT_PROCESS_END),
			   "process_end"),
	   "kind names");
}

static void check_trigger(int kind, int trigger, const char *want)
{
	const char *got = kd_smi_trigger_name(kind, trigger);

	ok(want ? got && !strcmp(got, want) : !got,
	   "trigger %d of %s: %s", trigger, kd_smi_kind_name(kind),
	   want ? want : "none");
}

static void check_triggers(void)
{
	static const char *const mig[] = {"prefetch", "gpu_fault",
					  "cpu_fault", "ttm_eviction", NULL};
	static const char *const evict[] = {"svm", "userptr", "ttm",
					    "suspend", "criu_checkpoint",
					    "criu_restore", NULL};
	static const char *const unmap[] = {"mmu_notify", "mmu_notify_migrate",
					    "unmap_from_cpu", NULL};

	for (int i = 0; i < 5; i++) {
		check_trigger(KFD_SMI_EVENT_MIGRATE_START, i, mig[i]);
		check_trigger(KFD_SMI_EVENT_MIGRATE_END, i, mig[i]);
	}
	for (int i = 0; i < 7; i++)
		check_trigger(KFD_SMI_EVENT_QUEUE_EVICTION, i, evict[i]);
	for (int i = 0; i < 4; i++)
		check_trigger(KFD_SMI_EVENT_UNMAP_FROM_GPU, i, unmap[i]);
	check_trigger(KFD_SMI_EVENT_MIGRATE_START, -1, NULL);
	check_trigger(KFD_SMI_EVENT_PAGE_FAULT_START, 0, NULL);
}

/* ---- the reader's bounds ------------------------------------------------- */

static void ignore(void *arg, const char *line, size_t len, int rc,
		   const struct kd_smi_event *ev)
{
	(void)arg, (void)line, (void)len, (void)rc, (void)ev;
}

static void feed_str(struct kd_smi_reader *r, const char *s)
{
	kd_smi_reader_feed(r, s, strlen(s));
}

static void check_reader_overlong(void)
{
	static char junk[4096];
	struct kd_smi_reader r;

	memset(junk, 'z', sizeof(junk));
	kd_smi_reader_init(&r, ignore, NULL);
	for (int i = 0; i < 3; i++) /* one line over three reads */
		kd_smi_reader_feed(&r, junk, sizeof(junk));
	feed_str(&r, "\n7 1 -2 @3(4) W\n");
	kd_smi_reader_finish(&r);
	ok(r.overlong == 1 && r.lines == 1 && r.events == 1,
	   "12 KiB without a newline: one overlong line, the next one read");

	kd_smi_reader_init(&r, ignore, NULL);
	kd_smi_reader_feed(&r, junk, KD_SMI_LINE_MAX);
	feed_str(&r, "\n");
	kd_smi_reader_feed(&r, junk, KD_SMI_LINE_MAX + 1);
	feed_str(&r, "\n");
	ok(r.lines == 1 && r.malformed == 1 && r.overlong == 1,
	   "a line of KD_SMI_LINE_MAX bytes is read, one byte more is not");
}

static void check_reader_ends(void)
{
	struct kd_smi_reader r;

	kd_smi_reader_init(&r, ignore, NULL);
	feed_str(&r, "\n\n2a x\n");
	feed_str(&r, "7 1 -2 @3(4) W");
	ok(r.lines == 3 && r.malformed == 2 && r.unknown == 1 && !r.events,
	   "empty lines are malformed, a new kind unknown, a partial line "
	   "waits");
	kd_smi_reader_finish(&r);
	ok(r.truncated == 1 && r.lines == 3,
	   "a partial line at the end is counted as truncated, not read");
	feed_str(&r, "\n");
	ok(r.lines == 4 && r.malformed == 3,
	   "after finish the reader starts afresh");
}

int main(int argc, char **argv)
{
	char pattern[4096], err[512];
	glob_t g = {0};

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	snprintf(pattern, sizeof(pattern), "%s/smi-*.txt", argv[1]);
	ok(glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc >= 6,
	   "fixtures of six kernel releases");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct fx_file f;
		int rc;

		err[0] = '\0';
		rc = fx_load(g.gl_pathv[i], &f, err, sizeof(err));
		ok(rc == 0, "%s loads%s%s", g.gl_pathv[i], rc ? ": " : "", err);
		for (size_t j = 0; j < f.n; j++) {
			check_case(&f, &f.cases[j]);
			if (f.newest)
				check_newest(&f, &f.cases[j]);
		}
		check_reader(&f);
		fx_free(&f);
	}
	globfree(&g);
	check_hostile();
	check_text_bound();
	check_garbage();
	check_round_trip();
	check_format_refuses();
	check_format_cap();
	check_names();
	check_triggers();
	check_reader_overlong();
	check_reader_ends();
	return done();
}
