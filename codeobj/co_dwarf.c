/* SPDX-License-Identifier: MIT */
/*
 * DWARF as co_lines reads it: the debug sections (inflated only when
 * asked for), attribute forms, abbreviation tables, DIEs, address ranges
 * and the compile units of .debug_info.  Where the bytes allow more than
 * one reading, libdw 0.188's is taken (see co_dwarf_lines.c for why).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "co_dwarf.h"

#define ABBREV_MAX (1u << 20) /* codes are dense from 1 in real units */

enum {
	DW_AT_low_pc = 0x11, DW_AT_high_pc = 0x12, DW_AT_stmt_list = 0x10,
	DW_AT_comp_dir = 0x1b, DW_AT_ranges = 0x55, DW_AT_call_file = 0x58,
	DW_AT_call_line = 0x59, DW_AT_str_offsets_base = 0x72,
	DW_AT_addr_base = 0x73, DW_AT_rnglists_base = 0x74,
	DW_AT_GNU_addr_base = 0x2133,
};

static const char *const sec_name[S_N] = {
	"info", "abbrev", "line", "line_str", "str", "str_offsets", "addr",
	"rnglists", "ranges",
};

void co_dw_find_sections(struct dwarf *d)
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

/* ELF SHF_COMPRESSED or GNU .zdebug_. */
const uint8_t *co_dw_section(struct dwarf *d, int which, size_t *n)
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

void co_dw_free(struct dwarf *d)
{
	for (int i = 0; i < S_N; i++)
		free(d->s[i].owned);
}

bool co_dw_read_val(struct unit *u, struct rd *r, uint16_t form,
		    int64_t implicit, struct val *v)
{
	unsigned os = u->off_size;

	v->form = form;
	v->s = NULL;
	v->u = 0;
	switch (form) {
	case F_addr: v->u = rd_n(r, u->addr_size); break;
	case F_block1: rd_skip(r, rd_n(r, 1)); break;
	case F_block2: rd_skip(r, rd_n(r, 2)); break;
	case F_block4: rd_skip(r, rd_n(r, 4)); break;
	case F_block: case F_exprloc: rd_skip(r, rd_uleb(r)); break;
	case F_data1: case F_ref1: case F_flag: case F_strx1: case F_addrx1:
		v->u = rd_n(r, 1); break;
	case F_data2: case F_ref2: case F_strx2: case F_addrx2:
		v->u = rd_n(r, 2); break;
	case F_strx3: case F_addrx3: v->u = rd_n(r, 3); break;
	case F_data4: case F_ref4: case F_ref_sup4: case F_strx4: case F_addrx4:
		v->u = rd_n(r, 4); break;
	case F_data8: case F_ref8: case F_ref_sig8: case F_ref_sup8:
		v->u = rd_n(r, 8); break;
	case F_data16: rd_skip(r, 16); break;
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
		return co_dw_read_val(u, r, (uint16_t)f, 0, v);
	}
	default:
		return false;
	}
	return !r->bad;
}

/* For the forms these attributes take. */
bool co_dw_constant(const struct val *v, uint64_t *out)
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
	const uint8_t *p = co_dw_section(u->d, S_ADDR, &n);
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

const char *co_dw_string(struct unit *u, const struct val *v)
{
	size_t n, on;
	const uint8_t *p;
	uint64_t off = v->u;

	switch (v->form) {
	case F_string:
		return v->s;
	case F_strp:
		p = co_dw_section(u->d, S_STR, &n);
		break;
	case F_line_strp:
		p = co_dw_section(u->d, S_LINE_STR, &n);
		break;
	case F_strx: case F_strx1: case F_strx2: case F_strx3: case F_strx4:
	case F_GNU_str_index: {
		const uint8_t *o = co_dw_section(u->d, S_STR_OFF, &on);
		uint64_t at = u->str_off_base + v->u * u->off_size;

		if (!o || v->u > (1ull << 40) || !hg_range_ok(on, at, u->off_size))
			return NULL;
		struct rd r = {o + at, o + on, false};
		off = rd_n(&r, u->off_size);
		p = co_dw_section(u->d, S_STR, &n);
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
	const uint8_t *p = co_dw_section(u->d, S_ABBREV, &n);

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


const struct abbrev *co_dw_read_die(struct unit *u, struct rd *r,
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

		if (!co_dw_read_val(u, r, s->form, s->implicit, &v)) {
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
void co_dw_skip_children(struct unit *u, struct rd *r)
{
	size_t level = 1;

	while (level && !r->bad) {
		const struct abbrev *a = co_dw_read_die(u, r, NULL);

		if (!a)
			level--;
		else if (a->children)
			level++;
	}
}


/* .debug_ranges (DWARF 2 to 4): start and end pairs up to a pair of
 * zeros; a start of all ones makes its end the base instead. */
static void ranges_v4(struct unit *u, const struct val *v, co_dw_range_fn *fn,
		      void *ctx)
{
	size_t n;
	const uint8_t *p = co_dw_section(u->d, S_RANGES, &n);
	uint64_t base = u->base;
	uint64_t all = u->addr_size == 4 ? 0xffffffffull : ~0ull;

	if (v->form != F_sec_offset && v->form != F_data4 && v->form != F_data8)
		return;
	if (!p || v->u >= n)
		return;
	struct rd r = {p + v->u, p + n, false};
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

/* The start of a DWARF 5 range list: at an offset, or through the unit's
 * table of offsets. */
static bool rnglist_at(struct unit *u, const struct val *v, struct rd *out)
{
	size_t n;
	uint64_t off;
	const uint8_t *p = co_dw_section(u->d, S_RNGLISTS, &n);

	if (!p)
		return false;
	if (v->form == F_rnglistx) {
		uint64_t at = u->rnglists_base + v->u * u->off_size;

		if (v->u > (1ull << 40) || !hg_range_ok(n, at, u->off_size))
			return false;
		struct rd r = {p + at, p + n, false};
		off = u->rnglists_base + rd_n(&r, u->off_size);
	} else if (v->form == F_sec_offset) {
		off = v->u;
	} else {
		return false;
	}
	if (off >= n)
		return false;
	*out = (struct rd){p + off, p + n, false};
	return true;
}

/* A DWARF 5 range list's entries to its end (the base carries from one
 * to the next). */
static void rnglist_walk(struct unit *u, struct rd *r, co_dw_range_fn *fn,
			 void *ctx)
{
	uint64_t base = u->base;

	for (;;) {
		unsigned kind = (unsigned)rd_n(r, 1);
		uint64_t a, b;

		if (r->bad)
			return;
		switch (kind) {
		case 0: /* DW_RLE_end_of_list */
			return;
		case 1: /* base_addressx */
			if (!from_addr_table(u, rd_uleb(r), &base))
				return;
			break;
		case 2: /* startx_endx */
			a = rd_uleb(r);
			b = rd_uleb(r);
			if (r->bad || !from_addr_table(u, a, &a) ||
			    !from_addr_table(u, b, &b))
				return;
			fn(ctx, a, b);
			break;
		case 3: /* startx_length */
			a = rd_uleb(r);
			b = rd_uleb(r);
			if (r->bad || !from_addr_table(u, a, &a))
				return;
			fn(ctx, a, a + b);
			break;
		case 4: /* offset_pair */
			a = rd_uleb(r);
			b = rd_uleb(r);
			if (r->bad)
				return;
			fn(ctx, base + a, base + b);
			break;
		case 5: /* base_address */
			base = rd_n(r, u->addr_size);
			break;
		case 6: /* start_end */
			a = rd_n(r, u->addr_size);
			b = rd_n(r, u->addr_size);
			if (r->bad)
				return;
			fn(ctx, a, b);
			break;
		case 7: /* start_length */
			a = rd_n(r, u->addr_size);
			b = rd_uleb(r);
			if (r->bad)
				return;
			fn(ctx, a, a + b);
			break;
		default:
			return;
		}
	}
}

void co_dw_ranges(struct unit *u, const struct die *d, co_dw_range_fn *fn,
		  void *ctx)
{
	uint64_t lo, hi;
	struct rd r;

	if (d->has_low && d->has_high && address(u, &d->low, &lo)) {
		if (address(u, &d->high, &hi)) {
			fn(ctx, lo, hi);
			return;
		}
		if (co_dw_constant(&d->high, &hi)) {
			fn(ctx, lo, lo + hi);
			return;
		}
	}
	if (!d->has_ranges)
		return;
	if (u->version < 5)
		ranges_v4(u, &d->ranges, fn, ctx);
	else if (rnglist_at(u, &d->ranges, &r))
		rnglist_walk(u, &r, fn, ctx);
}


void co_dw_unit_free(struct unit *u)
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

		if (!co_dw_read_val(u, r, s->form, s->implicit, &v)) {
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
		u->comp_dir = co_dw_string(u, &comp);
}


enum co_dw_next co_dw_unit_next(struct dwarf *d, uint64_t *off,
				struct unit *u, struct rd *r, struct die *cu)
{
	size_t size;
	const uint8_t *info = co_dw_section(d, S_INFO, &size);

	if (!info || *off + 11 > size)
		return CO_DW_END;
	*r = (struct rd){info + *off, info + size, false};
	*u = (struct unit){.d = d, .off_size = 4};
	uint64_t len = rd_n(r, 4);

	if (len == 0xffffffff) {
		len = rd_n(r, 8);
		u->off_size = 8;
	}
	if (r->bad || len > (uint64_t)(r->end - r->p) || len < 2)
		return CO_DW_END;
	const uint8_t *next = r->p + len;
	r->end = next;
	u->version = (uint8_t)rd_n(r, 2);
	uint64_t abbrev_off;
	if (u->version >= 5) {
		unsigned type = (unsigned)rd_n(r, 1);

		u->addr_size = (uint8_t)rd_n(r, 1);
		abbrev_off = rd_n(r, u->off_size);
		if (type == 2 || type == 6) /* type units */
			rd_skip(r, 8 + u->off_size);
		else if (type == 4 || type == 5) /* skeleton, split */
			rd_skip(r, 8);
	} else {
		abbrev_off = rd_n(r, u->off_size);
		u->addr_size = (uint8_t)rd_n(r, 1);
	}
	*off = (uint64_t)(next - info);
	if (r->bad || u->version < 2 || u->version > 5 ||
	    (u->addr_size != 4 && u->addr_size != 8))
		return CO_DW_END; /* where dwarf_nextcu stops too */
	if (read_abbrevs(u, abbrev_off)) {
		unit_attrs(u, r, cu);
		if (!r->bad)
			return CO_DW_UNIT;
	}
	co_dw_unit_free(u);
	return CO_DW_SKIP;
}
