/* SPDX-License-Identifier: MIT */
/*
 * Which arguments a kernel's atomics reach, per class, as one short string
 * the profile cache and the `kernel` event carry: "0@app.hip:42;2;?".  Each
 * argument appears once, with the line of its first atomic when known; "?"
 * says some atomic's argument is unknown, and is also what a list too long
 * for the string ends with, so a reader never takes a cut list as complete.
 *
 * Integer atomics differ by operation (an add works over PCIe where a max
 * does nothing), so their entries name it: "2+add@app.hip:7;3+max@app.hip:8",
 * one entry per argument and operation.  Readers that predate the name skip
 * it: they read the number, then what follows the '@'.
 *
 * Synchronization at system scope (sys_sites) takes the same form, with
 * the kind where an operation would be: "0+acquire^s@flag.hip:8".
 *
 * On MI300 (gfx940 and later) an atomic says its scope, and an entry says
 * it after the argument and operation: "^s" system scope, "^a" agent scope
 * ("1^a@app.hip:9", "2+max^s@app.hip:8"), one entry per scope; targets
 * whose atomics carry none have no mark.  The number and the '@' are where
 * older readers look, so they read such entries as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co_int.h"

static bool listed(const int *seen, int n, int k)
{
	for (int i = 0; i < n; i++)
		if (seen[i] == k)
			return true;
	return false;
}

const char *co_aop_name(uint32_t op)
{
	switch (op) {
#define HG_X(bit, id, name) case 1u << (bit): return name;
		HG_AOP_LIST(HG_X)
#undef HG_X
	}
	return "";
}

const char *co_sync_name(unsigned kind)
{
	static const char *const names[] = {
		[CO_SYNC_ATOMIC] = "atomic", [CO_SYNC_LOAD] = "load",
		[CO_SYNC_STORE] = "store", [CO_SYNC_ACQUIRE] = "acquire",
		[CO_SYNC_RELEASE] = "release",
	};

	return kind < sizeof(names) / sizeof(names[0]) && names[kind]
		       ? names[kind] : "";
}

/* One entry: the argument, "+name" when there is one, the scope mark,
 * "@FILE:LINE" when known. */
static void append(char *s, size_t cap, const struct co_insn *in,
		   const char *name)
{
	size_t len = strlen(s);
	const char *base = in->file ? strrchr(in->file, '/') : NULL;
	char e[96], arg[24], op[16] = "";

	base = base ? base + 1 : in->file;
	if (name && *name)
		snprintf(op, sizeof(op), "+%s", name);
	if (in->scope != CO_SCOPE_UNENCODED)
		strcat(op, in->scope == CO_SCOPE_SYSTEM ? "^s" : "^a");
	if (in->arg < 0)
		snprintf(arg, sizeof(arg), "?%s", op);
	else
		snprintf(arg, sizeof(arg), "%d%s", in->arg, op);
	if (base && in->line && in->arg >= 0)
		snprintf(e, sizeof(e), "%s@%.60s:%u", arg, base, in->line);
	else
		snprintf(e, sizeof(e), "%s", arg);
	if (len + strlen(e) + 4 > cap) {
		if (len + 3 <= cap && strcmp(s + len - (len ? 1 : 0), "?"))
			snprintf(s + len, cap - len, "%s?", len ? ";" : "");
		return;
	}
	snprintf(s + len, cap - len, "%s%s", len ? ";" : "", e);
}

/* An entry's key: its argument, its scope, and for integer atomics its
 * operation (a sync's kind). */
static int key(const struct co_insn *in, int bit)
{
	return ((in->arg + 1) * 4 + in->scope) * 64 + bit;
}

static void sites(char *s, size_t cap, const struct co_insn *in, uint32_t n,
		  uint8_t cls)
{
	bool named = cls == CO_AC_INT;
	int seen[64], nseen = 0;

	s[0] = '\0';
	for (uint32_t i = 0; i < n; i++) {
		int k = key(&in[i], named && in[i].op
					    ? __builtin_ctz(in[i].op) + 1 : 0);

		if (in[i].cls != cls || in[i].space == CO_SP_LDS ||
		    listed(seen, nseen, k))
			continue;
		if (nseen < 64)
			seen[nseen++] = k;
		append(s, cap, &in[i], named ? co_aop_name(in[i].op) : NULL);
	}
}

void co_atomics_sites(struct co_atomics *a, const struct co_insn *in,
		      uint32_t n)
{
	sites(a->fp_sites, sizeof(a->fp_sites), in, n, CO_AC_FP);
	sites(a->int_sites, sizeof(a->int_sites), in, n, CO_AC_INT);
}

void co_sync_sites(struct co_atomics *a, const struct co_insn *in, uint32_t n)
{
	int seen[64], nseen = 0;

	a->sys_sites[0] = '\0';
	a->sys_count = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct co_insn e = in[i];
		int k;

		/* A fence tied to several arguments is one instruction. */
		a->sys_count += !i || in[i - 1].addr != e.addr;
		e.scope = CO_SCOPE_SYSTEM;
		k = key(&e, e.sync);
		if (listed(seen, nseen, k))
			continue;
		if (nseen < 64)
			seen[nseen++] = k;
		append(a->sys_sites, sizeof(a->sys_sites), &e,
		       co_sync_name(e.sync));
	}
}

/* The operation an entry names ("2+max@..."): its hg_aop bit, or a
 * sys_sites kind's CO_SYNC_BIT ("0+acquire^s@..."); 0 if none. */
static uint32_t entry_op(const char *p, size_t n)
{
	const char *plus = memchr(p, '+', n);
	size_t len;

	if (!plus)
		return 0;
	len = strcspn(plus + 1, "@;^");
	for (unsigned b = 0; b < 32; b++) {
		const char *name = co_aop_name(1u << b);

		if (*name && strlen(name) == len && !strncmp(plus + 1, name, len))
			return 1u << b;
	}
	for (unsigned k = CO_SYNC_ATOMIC; k <= CO_SYNC_RELEASE; k++) {
		const char *name = co_sync_name(k);

		if (strlen(name) == len && !strncmp(plus + 1, name, len))
			return CO_SYNC_BIT(k);
	}
	return 0;
}

static unsigned entry_scope(const char *p, size_t n)
{
	size_t caret = strcspn(p, "^"), m = strcspn(p, "@");

	if (caret + 1 >= (m < n ? m : n))
		return CO_SITE_UNMARKED;
	return p[caret + 1] == 's' ? CO_SITE_SYSTEM : CO_SITE_AGENT;
}

/* Whether one entry (n bytes at p) passes the mask and scopes, and names
 * argument arg (*unknown: it is "?", whose argument nobody knows). */
static bool entry_counts(const char *p, size_t n, unsigned arg, uint32_t mask,
			 unsigned scopes, uint32_t *op, bool *unknown)
{
	size_t m = strcspn(p, "@");
	char *end;
	unsigned long a = strtoul(p, &end, 10);

	*op = entry_op(p, m < n ? m : n);
	*unknown = false;
	if ((*op && !(*op & mask)) || !(entry_scope(p, n) & scopes))
		return false;
	if (*p == '?') {
		*unknown = true;
		return false;
	}
	return end != p && a == arg;
}

bool co_sites_reach(const char *sites, unsigned arg, uint32_t mask,
		    unsigned scopes, uint32_t *ops, char *at, size_t cap)
{
	bool any = !sites || !*sites, hit = false;

	at[0] = '\0';
	*ops = 0;
	for (const char *p = sites; p && *p;) {
		size_t n = strcspn(p, ";"), m = strcspn(p, "@");
		uint32_t op;
		bool unknown;

		if (entry_counts(p, n, arg, mask, scopes, &op, &unknown)) {
			hit = true;
			*ops |= op;
			if (m < n && !at[0])
				snprintf(at, cap, "%.*s", (int)(n - m - 1), p + m + 1);
		}
		any |= unknown;
		p += n + (p[n] == ';');
	}
	return any || hit;
}

/* One entry co_sites_lines keeps: the word after its '+' (an operation,
 * a sync's kind) and "FILE:LINE". */
struct at_line {
	const char *name, *at;
	size_t nlen, len, idx; /* idx: its place in the code, for ties */
};

/* The word after an entry's '+' (m bytes before its '@'), "" if none. */
static const char *entry_name(const char *p, size_t m, size_t *len)
{
	const char *plus = memchr(p, '+', m);

	*len = plus ? strcspn(plus + 1, "@;^") : 0;
	return plus ? plus + 1 : "";
}

/* Source order: by file, then by line as a number (85 before 100). */
static int by_source(const void *a, const void *b)
{
	const struct at_line *x = a, *y = b;
	const char *xc = memrchr(x->at, ':', x->len), *yc = memrchr(y->at, ':', y->len);
	size_t xf = xc ? (size_t)(xc - x->at) : x->len;
	size_t yf = yc ? (size_t)(yc - y->at) : y->len;
	int c = strncmp(x->at, y->at, xf < yf ? xf : yf);

	if (c || xf != yf)
		return c ? c : xf < yf ? -1 : 1;
	unsigned long xl = xc ? strtoul(xc + 1, NULL, 10) : 0;
	unsigned long yl = yc ? strtoul(yc + 1, NULL, 10) : 0;
	if (xl != yl)
		return xl < yl ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

size_t co_sites_lines(const char *sites, unsigned arg, uint32_t mask,
		      unsigned scopes, char *out, size_t cap)
{
	struct at_line keep[64];
	size_t o = 0, count = 0, nkeep = 0;

	if (!cap)
		return 0;
	out[0] = '\0';
	for (const char *p = sites; p && *p && nkeep < 64;) {
		size_t n = strcspn(p, ";"), m = strcspn(p, "@");
		uint32_t op;
		bool unknown;

		if (entry_counts(p, n, arg, mask, scopes, &op, &unknown) &&
		    m < n) {
			size_t nlen;
			const char *name = entry_name(p, m, &nlen);

			keep[nkeep] = (struct at_line){ name, p + m + 1, nlen,
							n - m - 1, nkeep };
			nkeep++;
		}
		p += n + (p[n] == ';');
	}
	/* The code's order is the compiler's: a reader looks for lines in
	 * the source's; operations on one line keep the code's. */
	qsort(keep, nkeep, sizeof(*keep), by_source);
	for (size_t i = 0; i < nkeep; i++) {
		int w = snprintf(out + o, cap - o, "%s%.*s@%.*s", o ? ";" : "",
				 (int)keep[i].nlen, keep[i].name,
				 (int)keep[i].len, keep[i].at);
		/* A list cut short would name fewer lines than are at risk: it
		 * stops at the last whole entry. */
		if (w < 0 || (size_t)w >= cap - o) {
			out[o] = '\0';
			break;
		}
		o += (size_t)w;
		count++;
	}
	return count;
}
