/* SPDX-License-Identifier: MIT */
/*
 * The kernel source line of each atomic, from the code object's DWARF
 * (hipcc -g).  An atomic is nearly always inlined from HIP's headers
 * (unsafeAtomicAdd in amd_hip_unsafe_atomics.h), so the line table alone
 * names the header: walk the inline scopes around the instruction, innermost
 * first, and keep the first location outside HIP's and the C library's
 * headers -- the user's call.
 *
 * Our own reader, not libdw: with libdw this took 1.0 of sid's rocSPARSE
 * scan's 1.6 s (gfx90a), most of it in work the answer never uses --
 * decompressing every debug section (location lists are the largest),
 * a malloc per line-table row, a sort of rows that are already in order,
 * and DIE walks that re-read abbreviations.  Here a section is inflated
 * only when an atomic needs it, the compile unit's DIEs are read once,
 * straight through, descending only into the scopes that hold an atomic
 * (each atomic collects its chain of inlined call sites on the way down),
 * and each unit's line table is read once into one array, sorted only if
 * it is not in order already, then searched per atomic.
 *
 * The answers are libdw's (0.188), which the previous version used and
 * whose output `hipgrain scan --format json` must keep: a row is the last
 * one at or below the address in the order (address, end of sequence
 * first, table order), none when that is an end of sequence, and the
 * table's last row counts as one; file names are "dir/name" unless the
 * name is absolute; a table libdw would reject gives no lines.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "co_int.h"
#include "hg_srcpath.h"

/* Deeper inline chains keep their outermost call sites: the user's line
 * is near the top.  Deeper DIE trees than this are not real compilers'. */
#define CHAIN_MAX 16
#define DEPTH_MAX 64
#define ABBREV_MAX (1u << 20) /* codes are dense from 1 in real units */

enum { DW_TAG_inlined_subroutine = 0x1d, DW_TAG_namespace = 0x39 };
enum {
	DW_AT_low_pc = 0x11, DW_AT_high_pc = 0x12, DW_AT_stmt_list = 0x10,
	DW_AT_comp_dir = 0x1b, DW_AT_ranges = 0x55, DW_AT_call_file = 0x58,
	DW_AT_call_line = 0x59, DW_AT_str_offsets_base = 0x72,
	DW_AT_addr_base = 0x73, DW_AT_rnglists_base = 0x74,
	DW_AT_GNU_addr_base = 0x2133,
};
enum {
	F_addr = 0x01, F_block2 = 0x03, F_block4 = 0x04, F_data2 = 0x05,
	F_data4 = 0x06, F_data8 = 0x07, F_string = 0x08, F_block = 0x09,
	F_block1 = 0x0a, F_data1 = 0x0b, F_flag = 0x0c, F_sdata = 0x0d,
	F_strp = 0x0e, F_udata = 0x0f, F_ref_addr = 0x10, F_ref1 = 0x11,
	F_ref2 = 0x12, F_ref4 = 0x13, F_ref8 = 0x14, F_ref_udata = 0x15,
	F_indirect = 0x16, F_sec_offset = 0x17, F_exprloc = 0x18,
	F_flag_present = 0x19, F_strx = 0x1a, F_addrx = 0x1b,
	F_ref_sup4 = 0x1c, F_strp_sup = 0x1d, F_data16 = 0x1e,
	F_line_strp = 0x1f, F_ref_sig8 = 0x20, F_implicit_const = 0x21,
	F_loclistx = 0x22, F_rnglistx = 0x23, F_ref_sup8 = 0x24,
	F_strx1 = 0x25, F_strx2 = 0x26, F_strx3 = 0x27, F_strx4 = 0x28,
	F_addrx1 = 0x29, F_addrx2 = 0x2a, F_addrx3 = 0x2b, F_addrx4 = 0x2c,
	F_GNU_addr_index = 0x1f01, F_GNU_str_index = 0x1f02,
	F_GNU_ref_alt = 0x1f20, F_GNU_strp_alt = 0x1f21,
};

/* ---- sections, inflated on first use ------------------------------- */

enum { S_INFO, S_ABBREV, S_LINE, S_LINE_STR, S_STR, S_STR_OFF, S_ADDR,
       S_RNGLISTS, S_RANGES, S_N };
static const char *const sec_name[S_N] = {
	"info", "abbrev", "line", "line_str", "str", "str_offsets", "addr",
	"rnglists", "ranges",
};

struct sec {
	const uint8_t *p;
	size_t n;
	uint8_t *owned;
	long idx; /* section header index, -1 absent */
	bool gnu;  /* .zdebug_: "ZLIB", big-endian size, zlib stream */
	bool tried;
};

struct dwarf {
	const struct co_elf *elf;
	struct sec s[S_N];
};

static void find_sections(struct dwarf *d)
{
	struct co_shdr sh;

	for (int i = 0; i < S_N; i++)
		d->s[i].idx = -1;
	for (unsigned i = 1; i < d->elf->shnum; i++) {
		const char *name;
		bool gnu = false;

		if (co_elf_shdr(d->elf, i, &sh))
			continue;
		if (!strncmp(sh.name, ".debug_", 7)) {
			name = sh.name + 7;
		} else if (!strncmp(sh.name, ".zdebug_", 8)) {
			name = sh.name + 8;
			gnu = true;
		} else {
			continue;
		}
		for (int j = 0; j < S_N; j++)
			if (!strcmp(name, sec_name[j]) && d->s[j].idx < 0) {
				d->s[j].idx = i;
				d->s[j].gnu = gnu;
			}
	}
}

/* The section's bytes, inflated if compressed (ELF SHF_COMPRESSED or GNU
 * .zdebug_); NULL when absent or broken. */
static const uint8_t *section(struct dwarf *d, int which, size_t *n)
{
	struct sec *s = &d->s[which];
	struct co_shdr sh;

	if (!s->tried) {
		s->tried = true;
		if (s->idx >= 0 && co_elf_shdr(d->elf, (unsigned)s->idx, &sh) == 0 &&
		    sh.type != CO_SHT_NOBITS) {
			const uint8_t *p = d->elf->p + sh.offset;
			uint64_t full = 0;
			unsigned method = 0;
			size_t skip = 0;

			if (sh.flags & 0x800 /* SHF_COMPRESSED */) {
				uint32_t type = sh.size >= 24 ? hg_load32(p) : 0;

				method = type == 1 ? 0 : type == 2 ? 1 : 2;
				full = sh.size >= 24 ? hg_load64(p + 8) : 0;
				skip = 24;
			} else if (s->gnu && sh.size >= 12 && !memcmp(p, "ZLIB", 4)) {
				for (int i = 4; i < 12; i++)
					full = full << 8 | p[i];
				skip = 12;
			} else if (!s->gnu) {
				s->p = p;
				s->n = sh.size;
			}
			/* A declared size beyond 4 GiB is no real code object's. */
			if (skip && method < 2 && full && full < (1ull << 32) &&
			    (s->owned = malloc(full))) {
				const char *why;

				if (co_inflate(method, p + skip, sh.size - skip,
					       s->owned, full, &why) == 0) {
					s->p = s->owned;
					s->n = full;
				}
			}
		}
	}
	*n = s->n;
	return s->p;
}

/* ---- reading ------------------------------------------------------- */

struct rd {
	const uint8_t *p, *end;
	bool bad;
};

static bool need(struct rd *r, uint64_t n)
{
	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		r->p = r->end;
		return false;
	}
	return true;
}

static uint64_t rd_n(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if (!need(r, n))
		return 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~0ull << shift;
			return (int64_t)v;
		}
	}
	r->bad = true;
	return 0;
}

static const char *rd_cstr(struct rd *r)
{
	const uint8_t *z = r->p < r->end ? memchr(r->p, 0, (size_t)(r->end - r->p)) : NULL;
	const char *s = (const char *)r->p;

	if (!z) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	r->p = z + 1;
	return s;
}

static void skip(struct rd *r, uint64_t n)
{
	if (need(r, n))
		r->p += n;
}

/* ---- units --------------------------------------------------------- */

struct spec {
	uint16_t at, form;
	int64_t implicit;
};

struct abbrev {
	uint16_t tag;
	bool children;
	uint32_t first, nspecs; /* into unit.specs */
};

struct row {
	uint64_t addr;
	uint32_t file, seq;
	int32_t line;
	bool end;
};

struct unit {
	struct dwarf *d;
	uint8_t version, addr_size, off_size;
	struct abbrev *ab;
	uint32_t nab;
	struct spec *specs;
	uint64_t base, addr_base, rnglists_base, str_off_base;
	bool has_stmt;
	uint64_t stmt;
	const char *comp_dir;
	/* The line table, read on first use. */
	bool lines_tried, lines_ok;
	struct row *rows;
	size_t nrows;
	char **files;
	size_t nfiles;
};

/* One attribute as read: a number (constant, address, offset, index) or a
 * string; for an implicit constant, its value. */
struct val {
	uint16_t form;
	uint64_t u;
	const char *s;
};

static bool read_val(struct unit *u, struct rd *r, uint16_t form,
		     int64_t implicit, struct val *v)
{
	unsigned os = u->off_size;

	v->form = form;
	v->s = NULL;
	v->u = 0;
	switch (form) {
	case F_addr: v->u = rd_n(r, u->addr_size); break;
	case F_block1: skip(r, rd_n(r, 1)); break;
	case F_block2: skip(r, rd_n(r, 2)); break;
	case F_block4: skip(r, rd_n(r, 4)); break;
	case F_block: case F_exprloc: skip(r, rd_uleb(r)); break;
	case F_data1: case F_ref1: case F_flag: case F_strx1: case F_addrx1:
		v->u = rd_n(r, 1); break;
	case F_data2: case F_ref2: case F_strx2: case F_addrx2:
		v->u = rd_n(r, 2); break;
	case F_strx3: case F_addrx3: v->u = rd_n(r, 3); break;
	case F_data4: case F_ref4: case F_ref_sup4: case F_strx4: case F_addrx4:
		v->u = rd_n(r, 4); break;
	case F_data8: case F_ref8: case F_ref_sig8: case F_ref_sup8:
		v->u = rd_n(r, 8); break;
	case F_data16: skip(r, 16); break;
	case F_string: v->s = rd_cstr(r); break;
	case F_sdata: v->u = (uint64_t)rd_sleb(r); break;
	case F_udata: case F_ref_udata: case F_strx: case F_addrx:
	case F_loclistx: case F_rnglistx: case F_GNU_addr_index:
	case F_GNU_str_index:
		v->u = rd_uleb(r); break;
	case F_ref_addr: v->u = rd_n(r, u->version < 3 ? u->addr_size : os); break;
	case F_strp: case F_line_strp: case F_sec_offset: case F_strp_sup:
	case F_GNU_ref_alt: case F_GNU_strp_alt:
		v->u = rd_n(r, os); break;
	case F_flag_present: v->u = 1; break;
	case F_implicit_const: v->u = (uint64_t)implicit; break;
	case F_indirect: {
		uint64_t f = rd_uleb(r);

		if (f == F_indirect || f == F_implicit_const || f > 0xffff)
			return false;
		return read_val(u, r, (uint16_t)f, 0, v);
	}
	default:
		return false;
	}
	return !r->bad;
}

/* A constant as libdw's dwarf_formudata reads it, for the forms these
 * attributes take. */
static bool constant(const struct val *v, uint64_t *out)
{
	switch (v->form) {
	case F_data1: case F_data2: case F_data4: case F_data8: case F_udata:
	case F_implicit_const:
		*out = v->u;
		return true;
	case F_sdata:
		if ((int64_t)v->u < 0)
			return false;
		*out = v->u;
		return true;
	default:
		return false;
	}
}

static bool from_addr_table(struct unit *u, uint64_t idx, uint64_t *out)
{
	size_t n;
	const uint8_t *p = section(u->d, S_ADDR, &n);
	uint64_t off = u->addr_base + idx * u->addr_size;

	if (!p || idx > (1ull << 40) || !hg_range_ok(n, off, u->addr_size))
		return false;
	struct rd r = {p + off, p + n, false};
	*out = rd_n(&r, u->addr_size);
	return true;
}

/* An address-class attribute's value. */
static bool address(struct unit *u, const struct val *v, uint64_t *out)
{
	switch (v->form) {
	case F_addr:
		*out = v->u;
		return true;
	case F_addrx: case F_addrx1: case F_addrx2: case F_addrx3:
	case F_addrx4: case F_GNU_addr_index:
		return from_addr_table(u, v->u, out);
	default:
		return false;
	}
}

static const char *string(struct unit *u, const struct val *v)
{
	size_t n, on;
	const uint8_t *p;
	uint64_t off = v->u;

	switch (v->form) {
	case F_string:
		return v->s;
	case F_strp:
		p = section(u->d, S_STR, &n);
		break;
	case F_line_strp:
		p = section(u->d, S_LINE_STR, &n);
		break;
	case F_strx: case F_strx1: case F_strx2: case F_strx3: case F_strx4:
	case F_GNU_str_index: {
		const uint8_t *o = section(u->d, S_STR_OFF, &on);
		uint64_t at = u->str_off_base + v->u * u->off_size;

		if (!o || v->u > (1ull << 40) || !hg_range_ok(on, at, u->off_size))
			return NULL;
		struct rd r = {o + at, o + on, false};
		off = rd_n(&r, u->off_size);
		p = section(u->d, S_STR, &n);
		break;
	}
	default:
		return NULL;
	}
	if (!p || off >= n || !memchr(p + off, 0, n - off))
		return NULL;
	return (const char *)p + off;
}

/* The abbreviation table at off, as an array by code. */
static bool read_abbrevs(struct unit *u, uint64_t off)
{
	size_t n, nspecs = 0, capspecs = 64;
	const uint8_t *p = section(u->d, S_ABBREV, &n);

	if (!p || off >= n)
		return false;
	struct rd r = {p + off, p + n, false};
	u->specs = malloc(capspecs * sizeof *u->specs);
	if (!u->specs)
		return false;
	for (;;) {
		uint64_t code = rd_uleb(&r);

		if (r.bad)
			return false;
		if (!code)
			return true;
		if (code >= ABBREV_MAX)
			return false;
		if (code >= u->nab) {
			uint32_t cap = u->nab ? u->nab : 64;

			while (cap <= code)
				cap *= 2;
			struct abbrev *a = realloc(u->ab, cap * sizeof *a);
			if (!a)
				return false;
			memset(a + u->nab, 0, (cap - u->nab) * sizeof *a);
			u->ab = a;
			u->nab = cap;
		}
		struct abbrev *a = &u->ab[code];
		uint64_t tag = rd_uleb(&r);

		/* libdw takes the first definition of a code. */
		bool dup = a->tag != 0;
		struct abbrev tmp = {(uint16_t)tag, rd_n(&r, 1) == 1,
				     (uint32_t)nspecs, 0};
		for (;;) {
			uint64_t at = rd_uleb(&r), form = rd_uleb(&r);
			int64_t implicit = 0;

			if (r.bad)
				return false;
			if (!at && !form)
				break;
			if (form == F_implicit_const)
				implicit = rd_sleb(&r);
			if (nspecs == capspecs) {
				struct spec *s = realloc(u->specs, 2 * capspecs * sizeof *s);
				if (!s)
					return false;
				u->specs = s;
				capspecs *= 2;
			}
			u->specs[nspecs++] = (struct spec){
				at > 0xffff ? 0 : (uint16_t)at,
				form > 0xffff ? 0 : (uint16_t)form, implicit};
			tmp.nspecs++;
		}
		if (!dup && tag && tag <= 0xffff)
			*a = tmp;
	}
}

/* The attributes a DIE's scope needs. */
struct die {
	uint16_t tag;
	bool children;
	bool has_low, has_high, has_ranges, has_file, has_line;
	struct val low, high, ranges, file, line;
};

/* Reads (or with die NULL, skips) one DIE's attributes; its abbreviation,
 * or NULL for a null entry or when broken (then r->bad). */
static const struct abbrev *read_die(struct unit *u, struct rd *r,
				     struct die *die)
{
	uint64_t code = rd_uleb(r);
	struct val v;

	if (r->bad || !code)
		return NULL;
	if (code >= u->nab || !u->ab[code].tag) {
		r->bad = true;
		return NULL;
	}
	const struct abbrev *a = &u->ab[code];
	if (die) {
		memset(die, 0, sizeof *die);
		die->tag = a->tag;
		die->children = a->children;
	}
	for (uint32_t i = 0; i < a->nspecs; i++) {
		const struct spec *s = &u->specs[a->first + i];

		if (!read_val(u, r, s->form, s->implicit, &v)) {
			r->bad = true;
			return NULL;
		}
		if (!die)
			continue;
		/* libdw answers with an attribute's first occurrence. */
		switch (s->at) {
		case DW_AT_low_pc:
			if (!die->has_low)
				die->low = v, die->has_low = true;
			break;
		case DW_AT_high_pc:
			if (!die->has_high)
				die->high = v, die->has_high = true;
			break;
		case DW_AT_ranges:
			if (!die->has_ranges)
				die->ranges = v, die->has_ranges = true;
			break;
		case DW_AT_call_file:
			if (!die->has_file)
				die->file = v, die->has_file = true;
			break;
		case DW_AT_call_line:
			if (!die->has_line)
				die->line = v, die->has_line = true;
			break;
		default:
			break;
		}
	}
	return a;
}

/* Skips the children of a DIE (no recursion: hostile trees are deep). */
static void skip_children(struct unit *u, struct rd *r)
{
	size_t level = 1;

	while (level && !r->bad) {
		const struct abbrev *a = read_die(u, r, NULL);

		if (!a)
			level--;
		else if (a->children)
			level++;
	}
}

/* ---- ranges -------------------------------------------------------- */

typedef void range_fn(void *ctx, uint64_t lo, uint64_t hi);

/* The address ranges of a DIE, as libdw's dwarf_ranges gives them. */
static void ranges(struct unit *u, const struct die *d, range_fn *fn, void *ctx)
{
	uint64_t lo, hi, off;
	size_t n;

	if (d->has_low && d->has_high && address(u, &d->low, &lo)) {
		if (address(u, &d->high, &hi)) {
			fn(ctx, lo, hi);
			return;
		}
		if (constant(&d->high, &hi)) {
			fn(ctx, lo, lo + hi);
			return;
		}
	}
	if (!d->has_ranges)
		return;
	if (u->version < 5) {
		const uint8_t *p = section(u->d, S_RANGES, &n);
		uint64_t base = u->base;
		uint64_t all = u->addr_size == 4 ? 0xffffffffull : ~0ull;

		if (d->ranges.form != F_sec_offset && d->ranges.form != F_data4 &&
		    d->ranges.form != F_data8)
			return;
		if (!p || d->ranges.u >= n)
			return;
		struct rd r = {p + d->ranges.u, p + n, false};
		for (;;) {
			uint64_t b = rd_n(&r, u->addr_size), e = rd_n(&r, u->addr_size);

			if (r.bad || (!b && !e))
				return;
			if (b == all)
				base = e;
			else
				fn(ctx, base + b, base + e);
		}
	}
	const uint8_t *p = section(u->d, S_RNGLISTS, &n);
	if (!p)
		return;
	if (d->ranges.form == F_rnglistx) {
		uint64_t at = u->rnglists_base + d->ranges.u * u->off_size;

		if (d->ranges.u > (1ull << 40) || !hg_range_ok(n, at, u->off_size))
			return;
		struct rd r = {p + at, p + n, false};
		off = u->rnglists_base + rd_n(&r, u->off_size);
	} else if (d->ranges.form == F_sec_offset) {
		off = d->ranges.u;
	} else {
		return;
	}
	if (off >= n)
		return;
	struct rd r = {p + off, p + n, false};
	uint64_t base = u->base;
	for (;;) {
		unsigned kind = (unsigned)rd_n(&r, 1);
		uint64_t a, b;

		if (r.bad)
			return;
		switch (kind) {
		case 0: /* DW_RLE_end_of_list */
			return;
		case 1: /* base_addressx */
			if (!from_addr_table(u, rd_uleb(&r), &base))
				return;
			break;
		case 2: /* startx_endx */
			a = rd_uleb(&r);
			b = rd_uleb(&r);
			if (r.bad || !from_addr_table(u, a, &a) ||
			    !from_addr_table(u, b, &b))
				return;
			fn(ctx, a, b);
			break;
		case 3: /* startx_length */
			a = rd_uleb(&r);
			b = rd_uleb(&r);
			if (r.bad || !from_addr_table(u, a, &a))
				return;
			fn(ctx, a, a + b);
			break;
		case 4: /* offset_pair */
			a = rd_uleb(&r);
			b = rd_uleb(&r);
			if (r.bad)
				return;
			fn(ctx, base + a, base + b);
			break;
		case 5: /* base_address */
			base = rd_n(&r, u->addr_size);
			break;
		case 6: /* start_end */
			a = rd_n(&r, u->addr_size);
			b = rd_n(&r, u->addr_size);
			if (r.bad)
				return;
			fn(ctx, a, b);
			break;
		case 7: /* start_length */
			a = rd_n(&r, u->addr_size);
			b = rd_uleb(&r);
			if (r.bad)
				return;
			fn(ctx, a, a + b);
			break;
		default:
			return;
		}
	}
}

/* ---- the line table ------------------------------------------------ */

static int row_cmp(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->end != b->end)
		return a->end ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* "dir/name", or name when absolute or without a directory. */
static char *join(const char *dir, const char *name)
{
	size_t dn = dir && name[0] != '/' ? strlen(dir) : 0, nn = strlen(name);
	char *s = malloc(dn + 1 + nn + 1);

	if (!s)
		return NULL;
	if (dir && name[0] != '/') {
		memcpy(s, dir, dn);
		s[dn++] = '/';
	}
	memcpy(s + dn, name, nn + 1);
	return s;
}

static bool add_file(struct unit *u, size_t *cap, char *name)
{
	if (!name)
		return false;
	if (u->nfiles == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		char **f = realloc(u->files, c * sizeof *f);
		if (!f) {
			free(name);
			return false;
		}
		u->files = f;
		*cap = c;
	}
	u->files[u->nfiles++] = name;
	return true;
}

/* A DWARF 5 directory or file entry's string. */
static const char *entry_string(struct unit *u, const struct val *v)
{
	if (v->form == F_string || v->form == F_strp || v->form == F_line_strp)
		return string(u, v);
	return NULL;
}

/* DWARF 5 entry formats: the path and directory index of each entry. */
static bool read_entries(struct unit *u, struct rd *r, unsigned os,
			 const char **dirs, size_t ndirs, bool files,
			 const char ***out, size_t *nout, size_t *fcap)
{
	uint16_t forms[256], descs[256];
	unsigned nforms = (unsigned)rd_n(r, 1);
	struct unit fake = *u;
	bool path_desc = false, dir_desc = false;

	fake.off_size = (uint8_t)os;
	fake.version = 5;
	for (unsigned i = 0; i < nforms; i++) {
		uint64_t desc = rd_uleb(r), form = rd_uleb(r);

		if (r->bad || form > 0xffff || form == F_implicit_const ||
		    form == F_indirect)
			return false;
		descs[i] = desc > 0xffff ? 0 : (uint16_t)desc;
		forms[i] = (uint16_t)form;
		path_desc |= desc == 1;
		dir_desc |= desc == 2;
	}
	if (nforms && (!path_desc || (files && !dir_desc)))
		return false;
	uint64_t count = rd_uleb(r);
	if (r->bad || (!nforms && count) ||
	    (nforms && count > (uint64_t)(r->end - r->p) / nforms))
		return false;
	if (!files) {
		*out = malloc((count ? count : 1) * sizeof **out);
		if (!*out)
			return false;
		*nout = count;
	}
	for (uint64_t n = 0; n < count; n++) {
		const char *path = NULL;
		uint64_t dir = ~0ull;
		bool have_path = false, have_dir = false;
		struct val v;

		for (unsigned m = 0; m < nforms; m++) {
			if (!read_val(&fake, r, forms[m], 0, &v))
				return false;
			if (descs[m] == 1 /* DW_LNCT_path */ && !have_path) {
				path = entry_string(&fake, &v);
				have_path = true;
			} else if (descs[m] == 2 /* DW_LNCT_directory_index */ &&
				   !have_dir) {
				if (!constant(&v, &dir))
					dir = ~0ull;
				have_dir = true;
			}
		}
		if (!path)
			return false;
		if (!files) {
			(*out)[n] = path;
			continue;
		}
		if (dir >= ndirs)
			return false;
		char *name = join(dirs[dir], path);
		if (n == 0) {
			/* Entry 0 takes the place of the "???" entry. */
			free(u->files[0]);
			u->files[0] = name;
			if (!name)
				return false;
		} else if (!add_file(u, fcap, name)) {
			return false;
		}
	}
	return true;
}

static bool parse_lines(struct unit *u)
{
	size_t n, fcap = 0, rcap = 0;
	const uint8_t *p = section(u->d, S_LINE, &n);
	const char **dirs = NULL;
	size_t ndirs = 0;
	bool ok = false;

	if (!u->has_stmt || !p || u->stmt >= n)
		return false;
	struct rd r = {p + u->stmt, p + n, false};
	uint64_t len = rd_n(&r, 4);
	unsigned os = 4;
	if (len == 0xffffffff) {
		len = rd_n(&r, 8);
		os = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return false;
	r.end = r.p + len;
	unsigned version = (unsigned)rd_n(&r, 2);
	if (r.bad || version < 2 || version > 5)
		return false;
	if (version >= 5) {
		unsigned as = (unsigned)rd_n(&r, 1), seg = (unsigned)rd_n(&r, 1);

		if (as != u->addr_size || seg)
			return false;
	}
	uint64_t hlen = rd_n(&r, os);
	const uint8_t *hstart = r.p;
	unsigned min_len = (unsigned)rd_n(&r, 1), max_ops = 1;
	if (version >= 4) {
		max_ops = (unsigned)rd_n(&r, 1);
		if (!max_ops)
			return false;
	}
	unsigned default_stmt = (unsigned)rd_n(&r, 1);
	int line_base = (int8_t)rd_n(&r, 1);
	unsigned line_range = (unsigned)rd_n(&r, 1);
	unsigned opcode_base = (unsigned)rd_n(&r, 1);
	(void)default_stmt;
	if (r.bad || !need(&r, opcode_base ? opcode_base - 1 : 0))
		return false;
	/* Standard opcode lengths; [0] unused (libdw's off-by-one view). */
	const uint8_t *std_len = r.p - 1;
	r.p += opcode_base ? opcode_base - 1 : 0;

	/* Files: index 0 is "???" until DWARF 5 names it. */
	if (!add_file(u, &fcap, join(NULL, "???")))
		goto out;
	if (version < 5) {
		size_t cap = 8;

		dirs = malloc(cap * sizeof *dirs);
		if (!dirs)
			goto out;
		dirs[ndirs++] = u->comp_dir;
		while (r.p < r.end && *r.p) {
			const char *dir = rd_cstr(&r);

			if (!dir)
				goto out;
			if (ndirs == cap) {
				const char **nd = realloc(dirs, 2 * cap * sizeof *nd);
				if (!nd)
					goto out;
				dirs = nd;
				cap *= 2;
			}
			dirs[ndirs++] = dir;
		}
		if (r.p >= r.end)
			goto out;
		r.p++;
		if (r.p >= r.end)
			goto out;
		while (r.p < r.end && *r.p) {
			const char *name = rd_cstr(&r);
			uint64_t dir;

			if (!name || r.p >= r.end)
				goto out;
			dir = rd_uleb(&r);
			if (r.bad || dir >= ndirs || r.p >= r.end)
				goto out;
			rd_uleb(&r);
			if (r.p >= r.end)
				goto out;
			rd_uleb(&r);
			if (r.bad || !add_file(u, &fcap, join(dirs[dir], name)))
				goto out;
		}
		if (r.p >= r.end)
			goto out;
		r.p++;
	} else {
		if (!read_entries(u, &r, os, NULL, 0, false, &dirs, &ndirs, NULL))
			goto out;
		for (size_t i = 0; i < ndirs; i++)
			if (!dirs[i])
				goto out;
		if (!read_entries(u, &r, os, dirs, ndirs, true, NULL, NULL, &fcap))
			goto out;
	}
	if (r.bad || r.p != hstart + hlen)
		goto out;

	/* The state machine, as DWARF defines it, with libdw's widths. */
	uint64_t addr = 0;
	uint32_t op_index = 0, file = 1, isa = 0, disc = 0, column = 0;
	int64_t line = 1;
	size_t seq = 0;
#define ADVANCE(adv)                                                           \
	do {                                                                   \
		uint32_t a_ = (uint32_t)(adv);                                 \
		addr += (uint32_t)(min_len * ((op_index + a_) / max_ops));     \
		op_index = (op_index + a_) % max_ops;                          \
	} while (0)
	while (r.p < r.end) {
		unsigned op = *r.p++;
		bool emit = false, end = false;

		if (op >= opcode_base) {
			if (!line_range)
				goto out;
			line += line_base + (int)((op - opcode_base) % line_range);
			ADVANCE((op - opcode_base) / line_range);
			emit = true;
		} else if (op == 0) {
			if (r.end - r.p < 2)
				goto out;
			unsigned elen = *r.p++;
			if ((size_t)(r.end - r.p) < elen)
				goto out;
			unsigned sub = *r.p++;
			switch (sub) {
			case 1: /* DW_LNE_end_sequence */
				emit = end = true;
				break;
			case 2: /* DW_LNE_set_address */
				op_index = 0;
				if ((size_t)(r.end - r.p) < u->addr_size)
					goto out;
				addr = rd_n(&r, u->addr_size);
				break;
			case 3: { /* DW_LNE_define_file */
				const char *name = rd_cstr(&r);
				uint64_t dir;

				if (!name || r.p >= r.end)
					goto out;
				dir = (uint32_t)rd_uleb(&r);
				if (dir >= ndirs || r.p >= r.end)
					goto out;
				rd_uleb(&r);
				if (r.p >= r.end)
					goto out;
				rd_uleb(&r);
				if (r.bad || !add_file(u, &fcap, join(dirs[dir], name)))
					goto out;
				break;
			}
			case 4: /* DW_LNE_set_discriminator */
				if (opcode_base <= sub || std_len[sub] != 1 ||
				    r.p >= r.end)
					goto out;
				disc = (uint32_t)rd_uleb(&r);
				break;
			default:
				if ((size_t)(r.end - (r.p - 1)) < elen)
					goto out;
				r.p += (ptrdiff_t)elen - 1; /* 0: libdw steps back */
				break;
			}
		} else if (op <= 12) {
			static const uint8_t want[13] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};

			if (std_len[op] != want[op])
				goto out;
			if (want[op] && r.p >= r.end)
				goto out;
			switch (op) {
			case 1: emit = true; break; /* copy */
			case 2: ADVANCE(rd_uleb(&r)); break;
			case 3: line += (int32_t)rd_sleb(&r); break;
			case 4: file = (uint32_t)rd_uleb(&r); break;
			case 5: column = (uint32_t)rd_uleb(&r); break;
			case 6: case 7: case 10: case 11: break;
			case 8: /* const_add_pc */
				if (!line_range)
					goto out;
				ADVANCE((255 - opcode_base) / line_range);
				break;
			case 9: /* fixed_advance_pc */
				if (r.end - r.p < 2)
					goto out;
				addr += rd_n(&r, 2);
				op_index = 0;
				break;
			case 12: isa = (uint32_t)rd_uleb(&r); break;
			}
		} else {
			for (int k = std_len[op]; k > 0; k--) {
				if (r.p >= r.end)
					goto out;
				rd_uleb(&r);
			}
			continue;
		}
		if (r.bad)
			goto out;
		if (!emit)
			continue;
		/* Values libdw's row cannot hold make it reject the table. */
		if (line != (int32_t)line || op_index > 0xff || column > 0xffff ||
		    isa > 0xff || disc >= (1u << 24))
			goto out;
		if (u->nrows == rcap) {
			size_t c = rcap ? 2 * rcap : 1024;
			struct row *nr = realloc(u->rows, c * sizeof *nr);
			if (!nr)
				goto out;
			u->rows = nr;
			rcap = c;
		}
		u->rows[u->nrows++] = (struct row){addr, file, (uint32_t)seq++,
						   (int32_t)line, end};
		if (end) {
			addr = 0;
			op_index = 0;
			file = 1;
			line = 1;
			column = 0;
			isa = 0;
		}
		disc = 0;
	}
#undef ADVANCE
	for (size_t i = 1; i < u->nrows; i++)
		if (row_cmp(&u->rows[i - 1], &u->rows[i]) > 0) {
			qsort(u->rows, u->nrows, sizeof *u->rows, row_cmp);
			break;
		}
	if (u->nrows)
		u->rows[u->nrows - 1].end = true;
	ok = true;
out:
	free(dirs);
	return ok;
}

static bool lines(struct unit *u)
{
	if (!u->lines_tried) {
		u->lines_tried = true;
		u->lines_ok = parse_lines(u);
	}
	return u->lines_ok;
}

/* The row for addr, as dwarf_getsrc_die finds it, or NULL. */
static const struct row *row_at(struct unit *u, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!lines(u) || !u->nrows)
		return NULL;
	hi = u->nrows - 1;
	while (lo < hi) {
		size_t mid = hi - (hi - lo) / 2;

		if (addr < u->rows[mid].addr)
			hi = mid - 1;
		else
			lo = mid;
	}
	const struct row *r = &u->rows[lo];
	return !r->end && r->addr <= addr ? r : NULL;
}

static const char *file_name(struct unit *u, uint64_t idx)
{
	return lines(u) && idx < u->nfiles ? u->files[idx] : NULL;
}

/* ---- the walk ------------------------------------------------------ */

struct site {
	const char *file;
	int line;
};

struct want {
	struct co_insn *in;
	uint8_t depth;
	struct site chain[CHAIN_MAX]; /* inlined call sites, outermost first */
};

struct walk {
	struct unit *u;
	struct want *w; /* sorted by address */
	size_t n;
	bool inlined, any;
	struct site s;
};

static int by_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct want *)a)->in->addr;
	uint64_t y = ((const struct want *)b)->in->addr;

	return (x > y) - (x < y);
}

/* The first atomic at or after addr. */
static size_t lower(const struct walk *wk, uint64_t addr)
{
	size_t lo = 0, hi = wk->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (wk->w[mid].in->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void hold_range(void *ctx, uint64_t lo, uint64_t hi)
{
	struct walk *wk = ctx;

	for (size_t i = lower(wk, lo); i < wk->n && wk->w[i].in->addr < hi; i++) {
		struct want *w = &wk->w[i];

		wk->any = true;
		if (wk->inlined && w->depth < CHAIN_MAX)
			w->chain[w->depth++] = wk->s;
	}
}

/* Whether the scope d holds an atomic; an inlined one adds its call site to
 * the chain of each atomic it holds. */
static bool holds(struct walk *wk, const struct die *d, bool inlined)
{
	uint64_t v;

	wk->inlined = inlined;
	wk->any = false;
	wk->s = (struct site){NULL, 0};
	if (inlined) {
		if (d->has_file && constant(&d->file, &v))
			wk->s.file = file_name(wk->u, v);
		if (d->has_line && constant(&d->line, &v))
			wk->s.line = (int)v;
	}
	ranges(wk->u, d, hold_range, wk);
	return wk->any;
}

/* Reads the children of a DIE (r at the first); with look, those whose
 * scope holds an atomic are entered in turn. */
static void visit(struct walk *wk, struct rd *r, unsigned depth, bool look)
{
	struct die d;

	while (!r->bad) {
		const struct abbrev *a = read_die(wk->u, r, look ? &d : NULL);

		if (!a)
			return;
		bool in = look && (d.tag == DW_TAG_namespace ||
				   holds(wk, &d, d.tag == DW_TAG_inlined_subroutine));
		if (!a->children)
			continue;
		if (in && depth + 1 <= DEPTH_MAX)
			visit(wk, r, depth + 1, true);
		else
			skip_children(wk->u, r);
	}
}

/* The line table names the innermost location (often HIP's header); the
 * inlined call sites, innermost first, lead out to the user's line. */
static void settle(struct unit *u, struct want *w, struct co_strpool **pool)
{
	const struct row *l = row_at(u, w->in->addr);
	struct site s = {NULL, 0};

	if (!l)
		return;
	s.file = file_name(u, l->file);
	s.line = l->line;
	for (int i = w->depth - 1; i >= 0 && hg_file_is_library(s.file); i--)
		s = w->chain[i];
	if (s.file && s.line > 0) {
		w->in->file = co_pool_add(pool, s.file, strlen(s.file));
		w->in->line = (uint32_t)s.line;
	}
}

struct settle_ctx {
	struct unit *u;
	struct walk *wk;
	struct co_strpool **pool;
};

static void settle_range(void *ctx, uint64_t lo, uint64_t hi)
{
	struct settle_ctx *c = ctx;

	for (size_t i = lower(c->wk, lo); i < c->wk->n && c->wk->w[i].in->addr < hi;
	     i++)
		settle(c->u, &c->wk->w[i], c->pool);
}

static void unit_free(struct unit *u)
{
	for (size_t i = 0; i < u->nfiles; i++)
		free(u->files[i]);
	free(u->files);
	free(u->rows);
	free(u->ab);
	free(u->specs);
}

/* The compile unit's own attributes: bases, line table, directory. */
static void unit_attrs(struct unit *u, struct rd *r, struct die *d)
{
	const struct abbrev *a;
	uint64_t code = rd_uleb(r);
	struct val v, comp = {0};
	bool has_comp = false, has_ab = false, has_rb = false, has_sb = false;

	memset(d, 0, sizeof *d);
	if (r->bad || !code || code >= u->nab || !u->ab[code].tag) {
		r->bad = true;
		return;
	}
	a = &u->ab[code];
	d->tag = a->tag;
	d->children = a->children;
	for (uint32_t i = 0; i < a->nspecs && !r->bad; i++) {
		const struct spec *s = &u->specs[a->first + i];

		if (!read_val(u, r, s->form, s->implicit, &v)) {
			r->bad = true;
			return;
		}
		switch (s->at) {
		case DW_AT_low_pc:
			if (!d->has_low)
				d->low = v, d->has_low = true;
			break;
		case DW_AT_high_pc:
			if (!d->has_high)
				d->high = v, d->has_high = true;
			break;
		case DW_AT_ranges:
			if (!d->has_ranges)
				d->ranges = v, d->has_ranges = true;
			break;
		case DW_AT_stmt_list:
			if (!u->has_stmt && (v.form == F_sec_offset ||
					     v.form == F_data4 || v.form == F_data8))
				u->stmt = v.u, u->has_stmt = true;
			break;
		case DW_AT_comp_dir:
			if (!has_comp)
				comp = v, has_comp = true;
			break;
		case DW_AT_addr_base: case DW_AT_GNU_addr_base:
			if (!has_ab)
				u->addr_base = v.u, has_ab = true;
			break;
		case DW_AT_rnglists_base:
			if (!has_rb)
				u->rnglists_base = v.u, has_rb = true;
			break;
		case DW_AT_str_offsets_base:
			if (!has_sb)
				u->str_off_base = v.u, has_sb = true;
			break;
		default:
			break;
		}
	}
	/* Without the attributes, the first table's, after its header. */
	if (!has_sb && u->version >= 5)
		u->str_off_base = u->off_size == 8 ? 16 : 8;
	if (!has_rb && u->version >= 5)
		u->rnglists_base = u->off_size == 8 ? 20 : 12;
	if (d->has_low && !address(u, &d->low, &u->base))
		u->base = 0;
	if (has_comp)
		u->comp_dir = string(u, &comp);
}

static void each_unit(struct dwarf *dw, struct want *w, size_t n,
		      struct co_strpool **pool)
{
	size_t size;
	const uint8_t *info = section(dw, S_INFO, &size);
	uint64_t off = 0;

	if (!info)
		return;
	while (off + 11 <= size) {
		struct rd r = {info + off, info + size, false};
		struct unit u = {.d = dw, .off_size = 4};
		uint64_t len = rd_n(&r, 4);

		if (len == 0xffffffff) {
			len = rd_n(&r, 8);
			u.off_size = 8;
		}
		if (r.bad || len > (uint64_t)(r.end - r.p) || len < 2)
			return;
		const uint8_t *next = r.p + len;
		r.end = next;
		u.version = (uint8_t)rd_n(&r, 2);
		uint64_t abbrev_off;
		if (u.version >= 5) {
			unsigned type = (unsigned)rd_n(&r, 1);

			u.addr_size = (uint8_t)rd_n(&r, 1);
			abbrev_off = rd_n(&r, u.off_size);
			if (type == 2 || type == 6) /* type units */
				skip(&r, 8 + u.off_size);
			else if (type == 4 || type == 5) /* skeleton, split */
				skip(&r, 8);
		} else {
			abbrev_off = rd_n(&r, u.off_size);
			u.addr_size = (uint8_t)rd_n(&r, 1);
		}
		off = (uint64_t)(next - info);
		if (r.bad || u.version < 2 || u.version > 5 ||
		    (u.addr_size != 4 && u.addr_size != 8))
			return; /* where dwarf_nextcu stops too */
		struct die cu;
		if (!read_abbrevs(&u, abbrev_off)) {
			unit_free(&u);
			continue;
		}
		unit_attrs(&u, &r, &cu);
		struct walk wk = {&u, w, n, false, false, {NULL, 0}};
		if (!r.bad && holds(&wk, &cu, false)) {
			struct settle_ctx sc = {&u, &wk, pool};

			for (size_t i = 0; i < n; i++)
				w[i].depth = 0;
			if (cu.children)
				visit(&wk, &r, 0, true);
			ranges(&u, &cu, settle_range, &sc);
		}
		unit_free(&u);
	}
}

void co_lines(const struct co_elf *elf, struct co_insn *insns, size_t n,
	      struct co_strpool **pool)
{
	struct dwarf d = {.elf = elf};
	struct want *w;

	if (!n)
		return;
	find_sections(&d);
	if (d.s[S_INFO].idx < 0 || d.s[S_LINE].idx < 0)
		return;
	w = calloc(n, sizeof(*w));
	if (!w)
		return;
	for (size_t i = 0; i < n; i++)
		w[i].in = &insns[i];
	qsort(w, n, sizeof(*w), by_addr);
	each_unit(&d, w, n, pool);
	for (int i = 0; i < S_N; i++)
		free(d.s[i].owned);
	free(w);
}
