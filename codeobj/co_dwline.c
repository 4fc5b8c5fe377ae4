/* SPDX-License-Identifier: MIT */
/*
 * A compile unit's line-number program (.debug_line, DWARF 2 to 5) run into
 * one table of rows and files, then searched per address.  The rows and
 * file names are libdw 0.188's (see co_lines.c): a row is the last one at
 * or below the address in the order (address, end of sequence first, table
 * order), none when that is an end of sequence, and the table's last row
 * counts as one; file names are "dir/name" unless the name is absolute; a
 * table libdw would reject gives no rows at all.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "co_dwarf.h"

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
		return co_dw_string(u, v);
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
			if (!co_dw_read_val(&fake, r, forms[m], 0, &v))
				return false;
			if (descs[m] == 1 /* DW_LNCT_path */ && !have_path) {
				path = entry_string(&fake, &v);
				have_path = true;
			} else if (descs[m] == 2 /* DW_LNCT_directory_index */ &&
				   !have_dir) {
				if (!co_dw_constant(&v, &dir))
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
	const uint8_t *p = co_dw_section(u->d, S_LINE, &n);
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

const struct row *co_dw_row_at(struct unit *u, uint64_t addr)
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

const char *co_dw_file_name(struct unit *u, uint64_t idx)
{
	return lines(u) && idx < u->nfiles ? u->files[idx] : NULL;
}

