/* SPDX-License-Identifier: MIT */
/*
 * Enough of TSDL to lay out the packet header and context: the integer
 * typealiases at top level, the named structs, the trace's byte order and
 * packet.header, each stream's packet.context.  Members are laid out as
 * CTF 1.8 says (each aligned, a struct as its widest member) up to the last
 * integer or fixed array; a member of any other type before the sizes
 * leaves them unplaced, and the trace is refused rather than guessed at.
 * One pass over the text with a cursor, no token list: memory stays the
 * metadata's own size however it is written.
 */
#include "an_layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_lay_text.h"

#define AN_LAY_TYPES 256
#define AN_LAY_STRUCTS 256
#define AN_LAY_STREAMS 64

struct an_tok {
	const char *s;
	size_t n;
	char k; /* 'i' identifier, 'n' number, 's' string, 'p' punctuation, 0 end */
};

struct an_cur {
	const char *p, *end;
	struct an_tok t;
};

struct an_int {
	uint32_t bits, align;
	int order; /* 0 the trace's, 1 le, 2 be */
};

struct an_named {
	char name[48];
	struct an_int ty;      /* typealias: bits 0 when not an integer */
	const char *body;      /* struct: just after its '{' */
	uint32_t align;        /* struct: align(N) after it */
};

struct an_meta_doc {
	struct an_named types[AN_LAY_TYPES], structs[AN_LAY_STRUCTS];
	unsigned ntypes, nstructs, nctx;
	const char *end;
	const char *header;             /* the trace's packet.header body */
	uint32_t header_align;
	const char *ctx[AN_LAY_STREAMS]; /* each stream's packet.context body */
	uint32_t ctx_align[AN_LAY_STREAMS];
	bool be;
	char *why;
	size_t nwhy;
};

static void an_skip_space(struct an_cur *c)
{
	for (;;) {
		while (c->p < c->end && strchr(" \t\r\n\f\v", *c->p) && *c->p)
			c->p++;
		if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '*') {
			const char *e = memmem(c->p + 2, (size_t)(c->end - c->p - 2), "*/", 2);

			c->p = e ? e + 2 : c->end;
		} else if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '/') {
			const char *e = memchr(c->p, '\n', (size_t)(c->end - c->p));

			c->p = e ? e + 1 : c->end;
		} else {
			return;
		}
	}
}

static bool an_word(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/* The next token into c->t. */
static void an_lex(struct an_cur *c)
{
	const char *s;

	an_skip_space(c);
	s = c->p;
	c->t = (struct an_tok){.s = s, .n = 0, .k = 0};
	if (s >= c->end || !*s)
		return;
	if (an_word(*s)) {
		while (c->p < c->end && an_word(*c->p))
			c->p++;
		c->t.k = *s >= '0' && *s <= '9' ? 'n' : 'i';
	} else if (*s == '"') {
		for (c->p++; c->p < c->end && *c->p != '"'; c->p++)
			if (*c->p == '\\' && c->p + 1 < c->end)
				c->p++;
		c->p += c->p < c->end;
		c->t.k = 's';
	} else {
		c->p += c->end - s >= 2 && s[0] == ':' && s[1] == '=' ? 2 : 1;
		c->t.k = 'p';
	}
	c->t.n = (size_t)(c->p - s);
}

static bool an_is(const struct an_cur *c, const char *w)
{
	return c->t.k && c->t.n == strlen(w) && !memcmp(c->t.s, w, c->t.n);
}

/* Past the '}' matching the '{' just read. */
static void an_skip_block(struct an_cur *c)
{
	for (unsigned depth = 1; depth && c->t.k;) {
		an_lex(c);
		depth += an_is(c, "{");
		depth -= an_is(c, "}");
	}
}

__attribute__((format(printf, 2, 3))) static bool
an_bad(struct an_meta_doc *d, const char *fmt, ...)
{
	va_list ap;

	if (!*d->why) {
		va_start(ap, fmt);
		vsnprintf(d->why, d->nwhy, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* A number token's value; false when it is not one a field could have. */
static bool an_num(const struct an_cur *c, unsigned long long *v)
{
	char buf[32], *e;

	if (c->t.k != 'n' || c->t.n >= sizeof(buf))
		return false;
	memcpy(buf, c->t.s, c->t.n);
	buf[c->t.n] = 0;
	*v = strtoull(buf, &e, 0);
	return !*e;
}

/* One `key = value;` of an integer's attributes, the cursor on the key. */
static bool an_int_attr(struct an_meta_doc *d, struct an_cur *c,
			struct an_int *ty)
{
	struct an_tok key = c->t;
	unsigned long long v = 0;

	an_lex(c);
	if (!an_is(c, "="))
		return an_bad(d, "integer attribute %.*s has no value", (int)key.n, key.s);
	an_lex(c);
	if (key.n == 4 && !memcmp(key.s, "size", 4)) {
		if (!an_num(c, &v) || !v || v > 64)
			return an_bad(d, "an integer of %.*s bits (1 to 64 are read)",
				      (int)c->t.n, c->t.s);
		ty->bits = (uint32_t)v;
	} else if (key.n == 5 && !memcmp(key.s, "align", 5)) {
		if (!an_num(c, &v) || !v || (v & (v - 1)) || v > AN_LAY_MAX_BITS)
			return an_bad(d, "an integer aligned to %.*s bits (a power of "
					 "two up to %u is read)",
				      (int)c->t.n, c->t.s, AN_LAY_MAX_BITS);
		ty->align = (uint32_t)v;
	} else if (key.n == 10 && !memcmp(key.s, "byte_order", 10)) {
		ty->order = an_is(c, "le") ? 1 : an_is(c, "be") || an_is(c, "network") ? 2 : 0;
	}
	while (c->t.k && !an_is(c, ";") && !an_is(c, "}"))
		an_lex(c);
	return true;
}

/* `integer { ... }`, the cursor on `integer`; left on the token after. */
static bool an_int_decl(struct an_meta_doc *d, struct an_cur *c,
			struct an_int *ty)
{
	*ty = (struct an_int){0};
	an_lex(c);
	if (!an_is(c, "{"))
		return an_bad(d, "an integer without attributes");
	for (an_lex(c); c->t.k && !an_is(c, "}"); an_lex(c))
		if (c->t.k == 'i' && !an_int_attr(d, c, ty))
			return false;
	if (!ty->bits)
		return an_bad(d, "an integer without a size");
	if (!ty->align)
		ty->align = ty->bits % 8 ? 1 : 8;
	an_lex(c);
	return true;
}


/* Identifier tokens up to one of the stops, joined by spaces (`unsigned
 * long`); the cursor is left on the stop.  The last is the field's name
 * when the words declare a member. */
static void an_words(struct an_cur *c, char *out, size_t n, char *last,
		     size_t nlast)
{
	size_t len = 0;

	*out = *last = 0;
	for (; c->t.k == 'i'; an_lex(c)) {
		if (*last && len + strlen(last) + 2 < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s",
						len ? " " : "", last);
		snprintf(last, nlast, "%.*s", (int)c->t.n, c->t.s);
	}
}

static struct an_named *an_find(struct an_named *tab, unsigned n,
				const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(tab[i].name, name))
			return &tab[i];
	return NULL;
}

static struct an_named *an_add(struct an_meta_doc *d, struct an_named *tab,
			       unsigned *n, unsigned max, const char *name)
{
	if (an_find(tab, *n, name))
		return an_bad(d, "type %s declared twice", name), NULL;
	if (*n == max)
		return an_bad(d, "more than %u named types", max), NULL;
	snprintf(tab[*n].name, sizeof(tab[*n].name), "%.47s", name);
	return &tab[(*n)++];
}

/* The integer a typealias declares is refused: why names the alias. */
static bool an_alias_bad(struct an_meta_doc *d, struct an_cur *c)
{
	char name[48], last[48], why[160];

	while (c->t.k && !an_is(c, "}") && !an_is(c, ":="))
		an_lex(c);
	if (an_is(c, "}"))
		an_lex(c);
	if (!an_is(c, ":="))
		return false;
	an_lex(c);
	an_words(c, name, sizeof(name), last, sizeof(last));
	snprintf(why, sizeof(why), "%s", d->why);
	snprintf(d->why, d->nwhy, "typealias %s%s%s: %s", name, *name ? " " : "",
		 last, why);
	return false;
}

/* `typealias T := NAME;`, the cursor on `typealias`. */
static bool an_typealias(struct an_meta_doc *d, struct an_cur *c)
{
	struct an_int ty = {0};
	struct an_named *t;
	char name[48], last[48], full[100];

	an_lex(c);
	if (an_is(c, "integer")) {
		if (!an_int_decl(d, c, &ty))
			return an_alias_bad(d, c);
	} else { /* a string, a float, a struct: no packet size */
		while (c->t.k && !an_is(c, ":=") && !an_is(c, ";"))
			if (an_is(c, "{"))
				an_skip_block(c);
			else
				an_lex(c);
	}
	if (!an_is(c, ":="))
		return an_bad(d, "a typealias without :=");
	an_lex(c);
	an_words(c, name, sizeof(name), last, sizeof(last));
	snprintf(full, sizeof(full), "%s%s%s", name, *name ? " " : "", last);
	t = an_add(d, d->types, &d->ntypes, AN_LAY_TYPES, full);
	if (t)
		t->ty = ty;
	return t != NULL;
}

/* An optional `align(N)` after a struct's '}', the cursor past the '}'. */
static uint32_t an_struct_align(struct an_cur *c)
{
	unsigned long long v = 0;

	if (!an_is(c, "align"))
		return 0;
	an_lex(c);
	an_lex(c);
	if (!an_num(c, &v) || !v || (v & (v - 1)) || v > AN_LAY_MAX_BITS)
		v = 0;
	an_lex(c);
	an_lex(c);
	return (uint32_t)v;
}

/* `struct NAME` or `struct [NAME] { ... } [align(N)]`, the cursor on
 * `struct`: *body where its members start (from a definition or by
 * name), NULL when it names none. */
static bool an_struct(struct an_meta_doc *d, struct an_cur *c,
		      const char **body, uint32_t *align)
{
	struct an_named *s = NULL;
	char name[48] = "";

	*body = NULL;
	*align = 0;
	an_lex(c);
	if (c->t.k == 'i') {
		snprintf(name, sizeof(name), "%.*s", (int)c->t.n, c->t.s);
		an_lex(c);
	}
	if (!an_is(c, "{")) {
		s = *name ? an_find(d->structs, d->nstructs, name) : NULL;
		if (s) {
			*body = s->body;
			*align = s->align;
		}
		return true;
	}
	*body = c->p;
	an_skip_block(c);
	an_lex(c);
	*align = an_struct_align(c);
	if (*name && !(s = an_add(d, d->structs, &d->nstructs, AN_LAY_STRUCTS, name)))
		return false;
	if (s) {
		s->body = *body;
		s->align = *align;
	}
	return true;
}

/* `packet.WHICH := struct ...` and byte_order in a trace or stream block,
 * the cursor on its '{'; *body stays NULL when it declares none. */
static bool an_scope(struct an_meta_doc *d, struct an_cur *c, const char *which,
		     const char **body, uint32_t *align)
{
	for (an_lex(c); c->t.k && !an_is(c, "}");) {
		if (an_is(c, "{")) {
			an_skip_block(c);
		} else if (an_is(c, "byte_order")) {
			an_lex(c);
			an_lex(c);
			d->be = an_is(c, "be") || an_is(c, "network");
		} else if (an_is(c, "packet")) {
			an_lex(c);
			if (!an_is(c, "."))
				continue;
			an_lex(c);
			if (!an_is(c, which))
				continue;
			an_lex(c);
			if (!an_is(c, ":="))
				continue;
			an_lex(c);
			if (!an_is(c, "struct"))
				return an_bad(d, "packet.%s is not a struct", which);
			if (!an_struct(d, c, body, align))
				return false;
			if (!*body)
				return an_bad(d, "packet.%s names a struct never "
						 "declared", which);
			continue;
		}
		an_lex(c);
	}
	an_lex(c);
	return true;
}

/* The top-level declarations into d. */
static bool an_scan(struct an_meta_doc *d, struct an_cur *c)
{
	const char *body;
	uint32_t align;

	for (an_lex(c); c->t.k;) {
		bool ok = true, trace = an_is(c, "trace"), stream = an_is(c, "stream");

		if (an_is(c, "typealias")) {
			ok = an_typealias(d, c);
		} else if (an_is(c, "struct")) {
			ok = an_struct(d, c, &body, &align);
		} else if (trace || stream) {
			an_lex(c);
			if (!an_is(c, "{"))
				continue;
			body = NULL;
			align = 0;
			ok = an_scope(d, c, trace ? "header" : "context", &body, &align);
			if (trace && body) {
				d->header = body;
				d->header_align = align;
			} else if (stream && d->nctx < AN_LAY_STREAMS) {
				d->ctx_align[d->nctx] = align;
				d->ctx[d->nctx++] = body;
			} else if (stream) {
				ok = an_bad(d, "more than %d stream classes",
					    AN_LAY_STREAMS);
			}
		} else if (an_is(c, "{")) {
			an_skip_block(c);
			an_lex(c);
		} else {
			an_lex(c);
		}
		if (!ok)
			return false;
	}
	return true;
}

struct an_mem {
	char name[48];
	struct an_int ty;
	unsigned long long count; /* 0: a lone integer, else an array's */
};

/* The member at the cursor: 1 read, 0 the struct's end, -1 a member of a
 * type this reader does not lay out (m->name says which). */
static int an_member(struct an_meta_doc *d, struct an_cur *c, struct an_mem *m)
{
	char type[48];
	struct an_named *t;

	*m = (struct an_mem){0};
	if (an_is(c, "}") || !c->t.k)
		return 0;
	if (an_is(c, "integer")) {
		if (!an_int_decl(d, c, &m->ty))
			return -2;
		snprintf(m->name, sizeof(m->name), "%.*s", (int)c->t.n, c->t.s);
		an_lex(c);
	} else {
		an_words(c, type, sizeof(type), m->name, sizeof(m->name));
		t = an_find(d->types, d->ntypes, type);
		if (!t || !t->ty.bits)
			return -1;
		m->ty = t->ty;
	}
	if (an_is(c, "[")) {
		an_lex(c);
		if (!an_num(c, &m->count))
			return -1; /* a sequence: its length is in the data */
		an_lex(c);
		an_lex(c);
	}
	if (!an_is(c, ";"))
		return -1;
	an_lex(c);
	return 1;
}

static uint64_t an_up(uint64_t off, uint32_t align)
{
	return (off + align - 1) / align * align;
}

/* Where a packet's own fields are set, from a member just placed at off. */
static void an_note(struct an_meta_doc *d, struct an_layout *l,
		    const struct an_mem *m, uint64_t off)
{
	struct an_lay_int f = {.off = (uint32_t)off, .bits = m->ty.bits,
			       .be = m->ty.order ? m->ty.order == 2 : d->be};

	if (m->count)
		return;
	if (!strcmp(m->name, "magic"))
		l->magic = f;
	else if (!strcmp(m->name, "content_size"))
		l->content = f;
	else if (!strcmp(m->name, "packet_size"))
		l->packet = f;
}

/*
 * The struct whose members start at body, placed from *off on: *off moves
 * to its end.  Its alignment (its own align(N), else its widest member's)
 * is found first, for where it starts.
 */
static bool an_place(struct an_meta_doc *d, const char *body, uint32_t align,
		     const char *what, uint64_t *off, struct an_layout *l)
{
	struct an_cur c = {.p = body, .end = d->end};
	struct an_mem m;
	int rc;

	for (an_lex(&c); (rc = an_member(d, &c, &m)) > 0;)
		align = m.ty.align > align ? m.ty.align : align;
	if (rc < 0)
		return rc == -2 ? false
				: an_bad(d, "packet %s member '%s': a type hipgrain does "
					    "not lay out (integers and arrays of them only)",
					 what, m.name);
	*off = an_up(*off, align ? align : 1);
	c = (struct an_cur){.p = body, .end = d->end};
	for (an_lex(&c); an_member(d, &c, &m) > 0;) {
		uint64_t n = m.count ? m.count : 1,
			 stride = an_up(m.ty.bits, m.ty.align);

		*off = an_up(*off, m.ty.align);
		if (n > AN_LAY_MAX_BITS || *off + stride * (n - 1) + m.ty.bits >
						     AN_LAY_MAX_BITS)
			return an_bad(d, "packet %s member '%s' ends past %u bytes",
				      what, m.name, AN_LAY_MAX_BITS / 8);
		an_note(d, l, &m, *off);
		*off += stride * (n - 1) + m.ty.bits;
	}
	return true;
}

/* Every stream class must place the sizes alike: the walk does not read
 * which class a packet belongs to. */
static bool an_same(const struct an_layout *a, const struct an_layout *b)
{
	return !memcmp(&a->magic, &b->magic, sizeof(a->magic)) &&
	       !memcmp(&a->content, &b->content, sizeof(a->content)) &&
	       !memcmp(&a->packet, &b->packet, sizeof(a->packet));
}

static bool an_lay_doc(struct an_meta_doc *d, struct an_layout *l)
{
	struct an_layout one;
	uint64_t hdr = 0, off;
	bool have = false;

	memset(l, 0, sizeof(*l));
	if (d->header && !an_place(d, d->header, d->header_align, "header", &hdr, l))
		return false;
	l->min_bits = (uint32_t)hdr;
	for (unsigned i = 0; i < d->nctx; i++) {
		if (!d->ctx[i])
			continue;
		one = *l;
		off = hdr;
		if (!an_place(d, d->ctx[i], d->ctx_align[i], "context", &off, &one))
			return false;
		if (have && !an_same(&one, l))
			return an_bad(d, "stream classes place the packet sizes "
					 "differently");
		/* The shortest class's end: a packet of it is whole. */
		one.min_bits = (uint32_t)(have && l->min_bits < off ? l->min_bits : off);
		*l = one;
		have = true;
	}
	return true;
}

enum an_lay_status an_lay_read(const char *dir, struct an_layout *l, char *why,
			       size_t n)
{
	struct an_meta_doc *d;
	struct an_cur c;
	enum an_lay_status st;
	size_t len;
	char *text;

	*why = 0;
	st = an_lay_text(dir, &text, &len, why, n);
	if (st != AN_LAY_OK)
		return st;
	d = calloc(1, sizeof(*d));
	if (!d) {
		free(text);
		snprintf(why, n, "out of memory");
		return AN_LAY_BAD;
	}
	d->why = why;
	d->nwhy = n;
	d->end = text + len;
	c = (struct an_cur){.p = text, .end = text + len};
	st = an_scan(d, &c) && an_lay_doc(d, l) ? AN_LAY_OK : AN_LAY_BAD;
	free(d);
	free(text);
	return st;
}

void an_lay_lttng(struct an_layout *l)
{
	*l = (struct an_layout){.magic = {.off = 0, .bits = 32},
				.content = {.off = 384, .bits = 64},
				.packet = {.off = 448, .bits = 64},
				.min_bits = 512};
}

bool an_lay_is_lttng(const struct an_layout *l)
{
	struct an_layout u;

	an_lay_lttng(&u);
	return an_same(l, &u) && l->min_bits >= u.min_bits;
}

uint64_t an_lay_get(const unsigned char *p, const struct an_lay_int *f)
{
	uint64_t v = 0;

	/* Bit by bit: a field need not start or end on a byte, and is at
	 * most 64 bits of a header read once per packet. */
	for (uint32_t i = 0; i < f->bits; i++) {
		uint32_t at = f->off + i;
		unsigned bit = f->be ? (p[at / 8] >> (7 - at % 8)) & 1
				     : (p[at / 8] >> (at % 8)) & 1;

		v |= f->be ? (uint64_t)bit << (f->bits - 1 - i) : (uint64_t)bit << i;
	}
	return v;
}
