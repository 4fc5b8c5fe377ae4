/* SPDX-License-Identifier: MIT */
#include "cli_dump.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "an_sym.h"
#include "cli_flags.h"
#include "hg_json.h"

/* What a process said of itself, and the blocks holding --address. */
struct cli_dump_proc {
	char rank[16];
	struct hg_map blocks; /* alloc id → (void *)1 */
	struct hg_map kernels; /* function handle → its name, demangled */
};

static const bt_field *cli_member(const bt_field *s, const char *name)
{
	const bt_field_class *fc;

	if (!s || bt_field_get_class_type(s) != BT_FIELD_CLASS_TYPE_STRUCTURE)
		return NULL;
	fc = bt_field_borrow_class_const(s);
	for (uint64_t i = 0; i < bt_field_class_structure_get_member_count(fc); i++)
		if (!strcmp(bt_field_class_structure_member_get_name(
				    bt_field_class_structure_borrow_member_by_index_const(fc, i)),
			    name))
			return bt_field_structure_borrow_member_field_by_index_const(s, i);
	return NULL;
}

static bool cli_int(const bt_field *f, uint64_t *v)
{
	bt_field_class_type t = f ? bt_field_get_class_type(f) : 0;

	if (f && bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		*v = bt_field_integer_unsigned_get_value(f);
	else if (f && bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		*v = (uint64_t)bt_field_integer_signed_get_value(f);
	else
		return false;
	return true;
}

static const char *cli_str(const bt_field *s, const char *name)
{
	const bt_field *f = cli_member(s, name);

	return f && bt_field_get_class_type(f) == BT_FIELD_CLASS_TYPE_STRING
		       ? bt_field_string_get_value(f) : "";
}

static uint64_t cli_u64(const bt_field *s, const char *name)
{
	uint64_t v = 0;

	cli_int(cli_member(s, name), &v);
	return v;
}

/* An enumeration's first label, or NULL. */
static const char *cli_label(const bt_field *f)
{
	bt_field_class_type t = bt_field_get_class_type(f);
	bt_field_class_enumeration_mapping_label_array labels;
	uint64_t n = 0;

	if (t == BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION)
		bt_field_enumeration_unsigned_get_mapping_labels(f, &labels, &n);
	else if (t == BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION)
		bt_field_enumeration_signed_get_mapping_labels(f, &labels, &n);
	return n ? labels[0] : NULL;
}

static void cli_value(struct cli_dump *d, const bt_field *f);

static void cli_members(struct cli_dump *d, const bt_field *s, bool top)
{
	const bt_field_class *fc = bt_field_borrow_class_const(s);
	uint64_t n = bt_field_class_structure_get_member_count(fc);
	bool first = true;

	for (uint64_t i = 0; i < n; i++) {
		const char *name = bt_field_class_structure_member_get_name(
			bt_field_class_structure_borrow_member_by_index_const(fc, i));

		if (name[0] == '_') /* a sequence's length: the array says it */
			continue;
		if (d->json) {
			fputs(top || !first ? "," : "", d->out);
			hg_json_str(d->out, name);
			fputc(':', d->out);
		} else {
			fprintf(d->out, "%s%s=", top || !first ? " " : "", name);
		}
		first = false;
		cli_value(d, bt_field_structure_borrow_member_field_by_index_const(s, i));
	}
}

static void cli_text_str(FILE *out, const char *s)
{
	if (*s && !strpbrk(s, " \t\n\"\\=[]{}")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++)
		fprintf(out, *s == '"' || *s == '\\' ? "\\%c"
			     : (unsigned char)*s < 0x20 ? "\\x%02x" : "%c", *s);
	fputc('"', out);
}

/*
 * JSON readers (jq, JavaScript) hold integers exactly only up to 2^53:
 * what the trace shows in hex (addresses, handles, hashes) is a hex
 * string, any other integer past 2^53 a decimal string.
 */
#define CLI_JSON_EXACT (1ull << 53)

static void cli_json_int(FILE *out, uint64_t v, bool is_signed, bool hex)
{
	int64_t s = (int64_t)v;

	if (hex)
		fprintf(out, "\"%#" PRIx64 "\"", v);
	else if (is_signed && (s > (int64_t)CLI_JSON_EXACT ||
			       s < -(int64_t)CLI_JSON_EXACT))
		fprintf(out, "\"%" PRId64 "\"", s);
	else if (is_signed)
		fprintf(out, "%" PRId64, s);
	else if (v > CLI_JSON_EXACT)
		fprintf(out, "\"%" PRIu64 "\"", v);
	else
		fprintf(out, "%" PRIu64, v);
}

static void cli_value(struct cli_dump *d, const bt_field *f)
{
	bt_field_class_type t = bt_field_get_class_type(f);
	const char *label = cli_label(f);
	uint64_t v;

	if (label) {
		if (d->json)
			hg_json_str(d->out, label);
		else
			cli_text_str(d->out, label);
	} else if (cli_int(f, &v)) {
		bool hex = bt_field_class_integer_get_preferred_display_base(
				   bt_field_borrow_class_const(f)) ==
			   BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL;

		if (d->json) {
			cli_json_int(d->out, v, bt_field_class_type_is(t,
					BT_FIELD_CLASS_TYPE_SIGNED_INTEGER), hex);
			return;
		}
		fprintf(d->out,
			bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)
				? "%" PRId64
			: hex && !d->json ? "%#" PRIx64 : "%" PRIu64,
			v);
	} else if (t == BT_FIELD_CLASS_TYPE_STRING) {
		if (d->json)
			hg_json_str(d->out, bt_field_string_get_value(f));
		else
			cli_text_str(d->out, bt_field_string_get_value(f));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
		fputc('[', d->out);
		for (uint64_t i = 0; i < bt_field_array_get_length(f); i++) {
			fputs(i ? "," : "", d->out);
			cli_value(d, bt_field_array_borrow_element_field_by_index_const(f, i));
		}
		fputc(']', d->out);
	} else if (t == BT_FIELD_CLASS_TYPE_STRUCTURE) {
		fputc('{', d->out);
		cli_members(d, f, false);
		fputc('}', d->out);
	} else if (t == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL ||
		   t == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
		fprintf(d->out, "%g", t == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL
					      ? bt_field_real_double_precision_get_value(f)
					      : bt_field_real_single_precision_get_value(f));
	} else {
		fputs(d->json ? "null" : "?", d->out);
	}
}

static void cli_proc_free(void *v)
{
	struct cli_dump_proc *p = v;

	hg_map_clear(&p->blocks, NULL);
	hg_map_clear(&p->kernels, free);
	free(p);
}

void cli_dump_fini(struct cli_dump *d)
{
	hg_map_clear(&d->procs, cli_proc_free);
}

static struct cli_dump_proc *cli_proc(struct cli_dump *d, const bt_event *ev,
				      int64_t vpid)
{
	const bt_trace *t = bt_stream_borrow_trace_const(bt_event_borrow_stream_const(ev));
	/* a trace's processes apart from another's: the trace's address in
	 * the high bits (a pid takes 22 bits at most) */
	uint64_t key = (uint64_t)(uintptr_t)t << 22 ^ (uint64_t)vpid;
	struct cli_dump_proc *p = hg_map_get(&d->procs, key);

	if (!p && (p = calloc(1, sizeof(*p))) && hg_map_put(&d->procs, key, p)) {
		free(p);
		p = NULL;
	}
	return p;
}

static bool cli_is_rank(const char *name)
{
	return !strcmp(name, "OMPI_COMM_WORLD_RANK") || !strcmp(name, "PMIX_RANK") ||
	       !strcmp(name, "PMI_RANK") || !strcmp(name, "SLURM_PROCID");
}

/* Whether [base, base + size) of members `a` and `size` holds A. */
static bool cli_range(const struct cli_dump *d, const bt_field *p,
		      const char *a, const char *size)
{
	uint64_t base, n = cli_u64(p, size);

	return cli_int(cli_member(p, a), &base) && d->address >= base &&
	       d->address - base < (n ? n : 1);
}

static bool cli_id_in(struct cli_dump_proc *pr, const bt_field *p, const char *n)
{
	uint64_t id = cli_u64(p, n);

	return id && hg_map_get(&pr->blocks, id);
}

/* Whether the event touched --address: a block holding it (by id), or a
 * range holding it. */
static bool cli_touches(struct cli_dump *d, struct cli_dump_proc *pr,
			const char *name, const bt_field *p)
{
	bool by_id = !strcmp(name, "hipgrain:alloc") || !strcmp(name, "hipgrain:free") ||
		     !strcmp(name, "hipgrain:advise") || !strcmp(name, "hipgrain:prefetch") ||
		     !strcmp(name, "hipgrain:granularity");
	const bt_field *args = cli_member(p, "args");
	bool hit = false;

	if (!strcmp(name, "hipgrain:alloc") && !cli_u64(p, "rc") &&
	    cli_range(d, p, "addr", "size") && cli_u64(p, "id") &&
	    !hg_map_put(&pr->blocks, cli_u64(p, "id"), (void *)1))
		return true;
	hit = (by_id && cli_id_in(pr, p, "id")) || cli_id_in(pr, p, "dst_id") ||
	      cli_id_in(pr, p, "src_id") || cli_range(d, p, "addr", "size") ||
	      cli_range(d, p, "dst", "size") || cli_range(d, p, "src", "size") ||
	      cli_range(d, p, "start", "size") || cli_range(d, p, "va", "size");
	for (uint64_t i = 0; !hit && args && i < bt_field_array_get_length(args); i++) {
		const bt_field *a = bt_field_array_borrow_element_field_by_index_const(args, i);

		hit = cli_id_in(pr, a, "arg_id") || cli_u64(a, "value") == d->address;
	}
	if (hit && !strcmp(name, "hipgrain:free") && !cli_u64(p, "rc"))
		hg_map_del(&pr->blocks, cli_u64(p, "id"));
	return hit;
}

/* Which names the patterns match: every event's class, once a stream of
 * it begins. */
static void cli_match(struct cli_dump *d, const char *name)
{
	const char *shortname = strncmp(name, "hipgrain:", 9) ? name : name + 9;

	for (int i = 0; i < d->nevents; i++)
		if (!fnmatch(d->events[i], name, 0) ||
		    !fnmatch(d->events[i], shortname, 0))
			d->matched[i] = true;
}

void cli_dump_stream(struct cli_dump *d, const bt_message *m)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(
		bt_message_stream_beginning_borrow_stream_const(m));

	for (uint64_t i = 0; i < bt_stream_class_get_event_class_count(sc); i++) {
		const char *name = bt_event_class_get_name(
			bt_stream_class_borrow_event_class_by_index_const(sc, i));

		if (name)
			cli_match(d, name);
	}
}

const char *cli_dump_unmatched(const struct cli_dump *d)
{
	for (int i = 0; i < d->nevents; i++)
		if (!d->matched[i])
			return d->events[i];
	return NULL;
}

static bool cli_event_wanted(const struct cli_dump *d, const char *name)
{
	const char *shortname = strncmp(name, "hipgrain:", 9) ? name : name + 9;

	/* LTTng's statedump and dl events say what was mapped where, for
	 * symbols: half of a small run's lines, and not the program's. */
	if (!d->nevents)
		return d->all || shortname != name;
	for (int i = 0; i < d->nevents; i++)
		if (!fnmatch(d->events[i], name, 0) || !fnmatch(d->events[i], shortname, 0))
			return true;
	return false;
}

/* A function or kernel event: the name of its handle, for launch lines. */
static void cli_learn_kernel(struct cli_dump_proc *pr, const bt_field *p)
{
	uint64_t h = cli_u64(p, "handle");
	const char *name = cli_str(p, "name");
	char *dm;

	if (!h || !*name || hg_map_get(&pr->kernels, h))
		return;
	dm = an_demangle(name);
	if (!dm)
		dm = strdup(name);
	if (dm && hg_map_put(&pr->kernels, h, dm))
		free(dm);
}

/* "2026-11-27T07:04:38.123456789Z": the time exactly, as a string. */
static void cli_json_time(FILE *out, int64_t ns)
{
	time_t s = (time_t)(ns / 1000000000);
	long frac = (long)(ns % 1000000000);
	struct tm tm;
	char day[32];

	if (frac < 0) {
		frac += 1000000000;
		s--;
	}
	if (!gmtime_r(&s, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(day, sizeof(day), "?");
	fprintf(out, "\"%s.%09ldZ\"", day, frac);
}

/* A launch names its kernel, not only the handle. */
static void cli_kernel_name(struct cli_dump *d, const struct cli_dump_proc *pr,
			    const bt_field *p)
{
	const char *name = hg_map_get(&pr->kernels, cli_u64(p, "handle"));

	if (!name)
		return;
	if (d->json) {
		fputs(",\"kernel\":", d->out);
		hg_json_str(d->out, name);
	} else {
		fputs(" kernel=", d->out);
		cli_text_str(d->out, name);
	}
}

/* An allocation's flags by name, after the number the trace holds: the
 * names depend on the call, which a field's class cannot say. */
static void cli_flag_names(struct cli_dump *d, const bt_field *p)
{
	char names[256];

	if (!cli_member(p, "flags") ||
	    !*cli_flags_text((uint8_t)cli_u64(p, "api"), cli_u64(p, "flags"),
			     names, sizeof(names)))
		return;
	if (d->json) {
		fputs(",\"flag_names\":", d->out);
		hg_json_str(d->out, names);
	} else {
		fprintf(d->out, " flag_names=%s", names);
	}
}

static void cli_print(struct cli_dump *d, const bt_message *m, const char *name,
		      int64_t vpid, const struct cli_dump_proc *pr,
		      const bt_field *p)
{
	const bt_clock_snapshot *cs = NULL;
	int64_t ns = 0;
	const bt_event *ev = bt_message_event_borrow_event_const(m);
	const bt_stream_class *sc =
		bt_stream_borrow_class_const(bt_event_borrow_stream_const(ev));
	const char *shortname = strncmp(name, "hipgrain:", 9) ? name : name + 9;

	if (bt_stream_class_borrow_default_clock_class_const(sc))
		cs = bt_message_event_borrow_default_clock_snapshot_const(m);
	if (cs)
		bt_clock_snapshot_get_ns_from_origin(cs, &ns);
	if (d->json) {
		/* Since the first event: nanoseconds since 1970 pass 2^53. */
		if (!d->have_origin) {
			d->origin_ns = ns;
			d->have_origin = true;
		}
		fprintf(d->out, "{\"time_ns\":%" PRId64 ",\"time\":",
			ns - d->origin_ns);
		cli_json_time(d->out, ns);
		fputs(",\"event\":", d->out);
		hg_json_str(d->out, shortname);
		fprintf(d->out, ",\"pid\":%" PRId64, vpid);
		if (pr && pr->rank[0]) {
			fputs(",\"rank\":", d->out);
			hg_json_str(d->out, pr->rank);
		}
	} else {
		uint64_t s = (uint64_t)(ns < 0 ? 0 : ns) / 1000000000u;

		fprintf(d->out, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 ".%09" PRIu64
				" %s pid=%" PRId64,
			s / 3600 % 24, s / 60 % 60, s % 60,
			(uint64_t)(ns < 0 ? 0 : ns) % 1000000000u, shortname, vpid);
		if (pr && pr->rank[0])
			fprintf(d->out, " rank=%s", pr->rank);
	}
	if (p && bt_field_get_class_type(p) == BT_FIELD_CLASS_TYPE_STRUCTURE)
		cli_members(d, p, true);
	if (pr && !strcmp(shortname, "launch"))
		cli_kernel_name(d, pr, p);
	if (!strcmp(shortname, "alloc"))
		cli_flag_names(d, p);
	fputs(d->json ? "}\n" : "\n", d->out);
	d->printed++;
}

void cli_dump_event(struct cli_dump *d, const bt_message *m)
{
	const bt_event *ev = bt_message_event_borrow_event_const(m);
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(ev));
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	uint64_t vpid = (uint64_t)-1;
	struct cli_dump_proc *pr;

	if (!name)
		name = "";
	cli_int(cli_member(ctx, "vpid"), &vpid);
	pr = cli_proc(d, ev, (int64_t)vpid);
	cli_match(d, name);
	if (pr && (!strcmp(name, "hipgrain:function") ||
		   !strcmp(name, "hipgrain:kernel")))
		cli_learn_kernel(pr, p);
	if (pr && !strcmp(name, "hipgrain:env") && cli_is_rank(cli_str(p, "name")))
		snprintf(pr->rank, sizeof(pr->rank), "%s", cli_str(p, "value"));
	if ((d->pid >= 0 && (int64_t)vpid != d->pid) ||
	    (d->rank && (!pr || strcmp(pr->rank, d->rank))))
		return;
	/* The blocks holding the address are learnt from every event,
	 * whichever --event asks for. */
	if (d->has_address && (!pr || !p || !cli_touches(d, pr, name, p)))
		return;
	if (!cli_event_wanted(d, name))
		return;
	cli_print(d, m, name, (int64_t)vpid, pr, p);
}
