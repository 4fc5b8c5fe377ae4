/* SPDX-License-Identifier: MIT */
/*
 * A compile unit's line-number program (.debug_line, DWARF 2 to 5) run into
 * one table of rows and files, then searched per address.  The rows and
 * file names are libdw 0.188's (see co_dwarf_lines.c): a row is the last one at
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

/* The program being read: its header's parameters, and the tables a
 * define_file still adds to. */
struct lprog {
	struct unit *u;
	struct rd r; /* to the program's end */
	unsigned version, os;
	uint64_t hlen;
	const uint8_t *hstart;
	unsigned min_len, max_ops, line_range, opcode_base;
	int line_base;
	const uint8_t *std_len;
	const char **dirs;
	size_t ndirs, fcap, rcap;
};

/* The header up to its tables: the program's extent, and the parameters
 * the state machine runs with. */
static bool read_header(struct lprog *lp)
{
	struct unit *u = lp->u;
	struct rd *r = &lp->r;
	size_t n;
	const uint8_t *p = co_dw_section(u->d, S_LINE, &n);

	if (!u->has_stmt || !p || u->stmt >= n)
		return false;
	*r = (struct rd){p + u->stmt, p + n, false};
	uint64_t len = rd_n(r, 4);
	lp->os = 4;
	if (len == 0xffffffff) {
		len = rd_n(r, 8);
		lp->os = 8;
	}
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return false;
	r->end = r->p + len;
	lp->version = (unsigned)rd_n(r, 2);
	if (r->bad || lp->version < 2 || lp->version > 5)
		return false;
	if (lp->version >= 5) {
		unsigned as = (unsigned)rd_n(r, 1), seg = (unsigned)rd_n(r, 1);

		if (as != u->addr_size || seg)
			return false;
	}
	lp->hlen = rd_n(r, lp->os);
	lp->hstart = r->p;
	lp->min_len = (unsigned)rd_n(r, 1);
	lp->max_ops = 1;
	if (lp->version >= 4) {
		lp->max_ops = (unsigned)rd_n(r, 1);
		if (!lp->max_ops)
			return false;
	}
	rd_n(r, 1); /* default_is_stmt: the rows keep no is_stmt */
	lp->line_base = (int8_t)rd_n(r, 1);
	lp->line_range = (unsigned)rd_n(r, 1);
	lp->opcode_base = (unsigned)rd_n(r, 1);
	if (r->bad || !need(r, lp->opcode_base ? lp->opcode_base - 1 : 0))
		return false;
	/* Standard opcode lengths; [0] unused (libdw's off-by-one view). */
	lp->std_len = r->p - 1;
	r->p += lp->opcode_base ? lp->opcode_base - 1 : 0;
	return true;
}

/* DWARF 2 to 4: the compile directory, then the header's own. */
static bool read_dirs_v4(struct lprog *lp)
{
	struct rd *r = &lp->r;
	size_t cap = 8;

	lp->dirs = malloc(cap * sizeof *lp->dirs);
	if (!lp->dirs)
		return false;
	lp->dirs[lp->ndirs++] = lp->u->comp_dir;
	while (r->p < r->end && *r->p) {
		const char *dir = rd_cstr(r);

		if (!dir)
			return false;
		if (lp->ndirs == cap) {
			const char **nd = realloc(lp->dirs, 2 * cap * sizeof *nd);
			if (!nd)
				return false;
			lp->dirs = nd;
			cap *= 2;
		}
		lp->dirs[lp->ndirs++] = dir;
	}
	if (r->p >= r->end)
		return false;
	r->p++;
	return r->p < r->end;
}

/* A DWARF 2 to 4 file entry after its name and directory index, in the
 * header's table or a define_file: mtime and length, which no row needs. */
static bool file_entry(struct lprog *lp, const char *name, uint64_t dir)
{
	struct rd *r = &lp->r;

	if (r->bad || dir >= lp->ndirs || r->p >= r->end)
		return false;
	rd_uleb(r);
	if (r->p >= r->end)
		return false;
	rd_uleb(r);
	return !r->bad && add_file(lp->u, &lp->fcap, join(lp->dirs[dir], name));
}

static bool read_files_v4(struct lprog *lp)
{
	struct rd *r = &lp->r;

	while (r->p < r->end && *r->p) {
		const char *name = rd_cstr(r);

		if (!name || r->p >= r->end)
			return false;
		if (!file_entry(lp, name, rd_uleb(r)))
			return false;
	}
	if (r->p >= r->end)
		return false;
	r->p++;
	return true;
}

/* A DWARF 5 table's entry format.  Its forms are read as a version 5 unit
 * with the table's offset size reads them, whatever the compile unit's. */
struct entry_fmt {
	struct unit as;
	unsigned n;
	uint16_t forms[256], descs[256];
	bool has_path, has_dir;
	uint64_t count;
};

static bool read_format(struct lprog *lp, struct entry_fmt *f)
{
	struct rd *r = &lp->r;

	f->n = (unsigned)rd_n(r, 1);
	f->as = *lp->u;
	f->as.off_size = (uint8_t)lp->os;
	f->as.version = 5;
	f->has_path = f->has_dir = false;
	for (unsigned i = 0; i < f->n; i++) {
		uint64_t desc = rd_uleb(r), form = rd_uleb(r);

		if (r->bad || form > 0xffff || form == F_implicit_const ||
		    form == F_indirect)
			return false;
		f->descs[i] = desc > 0xffff ? 0 : (uint16_t)desc;
		f->forms[i] = (uint16_t)form;
		f->has_path |= desc == 1;
		f->has_dir |= desc == 2;
	}
	return true;
}

/* The entry count, which must fit the bytes left. */
static bool read_count(struct lprog *lp, struct entry_fmt *f)
{
	struct rd *r = &lp->r;

	f->count = rd_uleb(r);
	return !(r->bad || (!f->n && f->count) ||
		 (f->n && f->count > (uint64_t)(r->end - r->p) / f->n));
}

/* One entry's path and directory index, each as it first occurs. */
static bool read_entry(struct lprog *lp, struct entry_fmt *f,
		       const char **path, uint64_t *dir)
{
	bool have_path = false, have_dir = false;
	struct val v;

	*path = NULL;
	*dir = ~0ull;
	for (unsigned m = 0; m < f->n; m++) {
		if (!co_dw_read_val(&f->as, &lp->r, f->forms[m], 0, &v))
			return false;
		if (f->descs[m] == 1 /* DW_LNCT_path */ && !have_path) {
			*path = entry_string(&f->as, &v);
			have_path = true;
		} else if (f->descs[m] == 2 /* DW_LNCT_directory_index */ &&
			   !have_dir) {
			if (!co_dw_constant(&v, dir))
				*dir = ~0ull;
			have_dir = true;
		}
	}
	return *path != NULL;
}

/* DWARF 5: the directories whole, before any file indexes them. */
static bool read_dirs_v5(struct lprog *lp)
{
	struct entry_fmt f;
	uint64_t dir;

	if (!read_format(lp, &f) || (f.n && !f.has_path) || !read_count(lp, &f))
		return false;
	lp->dirs = malloc((f.count ? f.count : 1) * sizeof *lp->dirs);
	if (!lp->dirs)
		return false;
	lp->ndirs = f.count;
	for (uint64_t n = 0; n < f.count; n++)
		if (!read_entry(lp, &f, &lp->dirs[n], &dir))
			return false;
	return true;
}

/* A file, unlike a directory, must say which directory it is in. */
static bool read_files_v5(struct lprog *lp)
{
	struct unit *u = lp->u;
	struct entry_fmt f;

	if (!read_format(lp, &f) || (f.n && (!f.has_path || !f.has_dir)) ||
	    !read_count(lp, &f))
		return false;
	for (uint64_t n = 0; n < f.count; n++) {
		const char *path;
		uint64_t dir;

		if (!read_entry(lp, &f, &path, &dir) || dir >= lp->ndirs)
			return false;
		char *name = join(lp->dirs[dir], path);
		if (n == 0) {
			/* Entry 0 takes the place of the "???" entry. */
			free(u->files[0]);
			u->files[0] = name;
			if (!name)
				return false;
		} else if (!add_file(u, &lp->fcap, name)) {
			return false;
		}
	}
	return true;
}

/* The state machine's registers, with libdw's widths. */
struct regs {
	uint64_t addr;
	uint32_t op_index, file, isa, disc, column;
	int64_t line;
	size_t seq;
};

/* What an opcode leaves to the state machine's loop. */
enum step { STEP_BAD, STEP_NONE, STEP_ROW, STEP_END };

static void advance(const struct lprog *lp, struct regs *s, uint64_t adv)
{
	uint32_t a = (uint32_t)adv;

	s->addr += (uint32_t)(lp->min_len * ((s->op_index + a) / lp->max_ops));
	s->op_index = (s->op_index + a) % lp->max_ops;
}

static enum step special_op(struct lprog *lp, struct regs *s, unsigned op)
{
	unsigned adj = op - lp->opcode_base;

	if (!lp->line_range)
		return STEP_BAD;
	s->line += lp->line_base + (int)(adj % lp->line_range);
	advance(lp, s, adj / lp->line_range);
	return STEP_ROW;
}

static enum step define_file(struct lprog *lp)
{
	struct rd *r = &lp->r;
	const char *name = rd_cstr(r);

	if (!name || r->p >= r->end)
		return STEP_BAD;
	/* libdw reads this index into 32 bits, the header table's into 64. */
	if (!file_entry(lp, name, (uint32_t)rd_uleb(r)))
		return STEP_BAD;
	return STEP_NONE;
}

static enum step extended_op(struct lprog *lp, struct regs *s)
{
	struct rd *r = &lp->r;

	if (r->end - r->p < 2)
		return STEP_BAD;
	unsigned elen = *r->p++;
	if ((size_t)(r->end - r->p) < elen)
		return STEP_BAD;
	unsigned sub = *r->p++;
	switch (sub) {
	case 1: /* DW_LNE_end_sequence */
		return STEP_END;
	case 2: /* DW_LNE_set_address */
		s->op_index = 0;
		if ((size_t)(r->end - r->p) < lp->u->addr_size)
			return STEP_BAD;
		s->addr = rd_n(r, lp->u->addr_size);
		return STEP_NONE;
	case 3: /* DW_LNE_define_file */
		return define_file(lp);
	case 4: /* DW_LNE_set_discriminator */
		if (lp->opcode_base <= sub || lp->std_len[sub] != 1 ||
		    r->p >= r->end)
			return STEP_BAD;
		s->disc = (uint32_t)rd_uleb(r);
		return STEP_NONE;
	default:
		if ((size_t)(r->end - (r->p - 1)) < elen)
			return STEP_BAD;
		r->p += (ptrdiff_t)elen - 1; /* 0: libdw steps back */
		return STEP_NONE;
	}
}

static enum step standard_op(struct lprog *lp, struct regs *s, unsigned op)
{
	static const uint8_t want[13] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
	struct rd *r = &lp->r;

	if (lp->std_len[op] != want[op])
		return STEP_BAD;
	if (want[op] && r->p >= r->end)
		return STEP_BAD;
	switch (op) {
	case 1: return STEP_ROW; /* copy */
	case 2: advance(lp, s, rd_uleb(r)); break;
	case 3: s->line += (int32_t)rd_sleb(r); break;
	case 4: s->file = (uint32_t)rd_uleb(r); break;
	case 5: s->column = (uint32_t)rd_uleb(r); break;
	case 6: case 7: case 10: case 11: break;
	case 8: /* const_add_pc */
		if (!lp->line_range)
			return STEP_BAD;
		advance(lp, s, (255 - lp->opcode_base) / lp->line_range);
		break;
	case 9: /* fixed_advance_pc */
		if (r->end - r->p < 2)
			return STEP_BAD;
		s->addr += rd_n(r, 2);
		s->op_index = 0;
		break;
	case 12: s->isa = (uint32_t)rd_uleb(r); break;
	}
	return STEP_NONE;
}

/* An opcode past those this reader knows: as many operands as the header
 * gives it. */
static bool skip_operands(struct lprog *lp, unsigned op)
{
	struct rd *r = &lp->r;

	for (int k = lp->std_len[op]; k > 0; k--) {
		if (r->p >= r->end)
			return false;
		rd_uleb(r);
	}
	return true;
}

static bool emit_row(struct lprog *lp, struct regs *s, bool end)
{
	struct unit *u = lp->u;

	/* Values libdw's row cannot hold make it reject the table. */
	if (s->line != (int32_t)s->line || s->op_index > 0xff ||
	    s->column > 0xffff || s->isa > 0xff || s->disc >= (1u << 24))
		return false;
	if (u->nrows == lp->rcap) {
		size_t c = lp->rcap ? 2 * lp->rcap : 1024;
		struct row *nr = realloc(u->rows, c * sizeof *nr);
		if (!nr)
			return false;
		u->rows = nr;
		lp->rcap = c;
	}
	u->rows[u->nrows++] = (struct row){s->addr, s->file, (uint32_t)s->seq++,
					   (int32_t)s->line, end};
	if (end)
		*s = (struct regs){.file = 1, .line = 1, .seq = s->seq};
	s->disc = 0;
	return true;
}

/* The line-number state machine, as DWARF defines it: one opcode at a
 * time, a row where one asks for it.  An unknown opcode's operands are
 * only skipped: one cut short by the program's end fails no table. */
static bool run_program(struct lprog *lp)
{
	struct regs s = {.file = 1, .line = 1};
	struct rd *r = &lp->r;

	while (r->p < r->end) {
		unsigned op = *r->p++;
		enum step st;

		if (op >= lp->opcode_base)
			st = special_op(lp, &s, op);
		else if (op == 0)
			st = extended_op(lp, &s);
		else if (op <= 12)
			st = standard_op(lp, &s, op);
		else if (skip_operands(lp, op))
			continue;
		else
			return false;
		if (st == STEP_BAD || r->bad)
			return false;
		if (st != STEP_NONE && !emit_row(lp, &s, st == STEP_END))
			return false;
	}
	return true;
}

/* Rows in search order, the last one ending the table. */
static void finish_rows(struct unit *u)
{
	for (size_t i = 1; i < u->nrows; i++)
		if (row_cmp(&u->rows[i - 1], &u->rows[i]) > 0) {
			qsort(u->rows, u->nrows, sizeof *u->rows, row_cmp);
			break;
		}
	if (u->nrows)
		u->rows[u->nrows - 1].end = true;
}

static bool read_tables(struct lprog *lp)
{
	if (lp->version < 5)
		return read_dirs_v4(lp) && read_files_v4(lp);
	if (!read_dirs_v5(lp))
		return false;
	for (size_t i = 0; i < lp->ndirs; i++)
		if (!lp->dirs[i])
			return false;
	return read_files_v5(lp);
}

static bool parse_lines(struct unit *u)
{
	struct lprog lp = {.u = u};
	bool ok;

	if (!read_header(&lp))
		return false;
	/* Files: index 0 is "???" until DWARF 5 names it. */
	ok = add_file(u, &lp.fcap, join(NULL, "???")) && read_tables(&lp) &&
	     !lp.r.bad && lp.r.p == lp.hstart + lp.hlen && run_program(&lp);
	if (ok)
		finish_rows(u);
	free(lp.dirs);
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

