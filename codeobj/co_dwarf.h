/* SPDX-License-Identifier: MIT */
/*
 * Internal to the DWARF reader behind co_lines: what co_dwarf.c (sections,
 * the byte reader, forms, abbreviations, DIEs, ranges), co_dwarf_linetab.c
 * (the line-number program) and co_dwarf_lines.c (the walk over inline
 * scopes) share.
 * The bytes are untrusted: every read goes through struct rd, which never
 * passes its end.
 */
#ifndef CO_DWARF_H
#define CO_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "co_int.h"

enum { DW_TAG_inlined_subroutine = 0x1d, DW_TAG_namespace = 0x39 };
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

/* The sections read, each inflated on first use.  A caller that has the
 * bytes already (the fuzz harness) sets p, n and tried itself. */
enum { S_INFO, S_ABBREV, S_LINE, S_LINE_STR, S_STR, S_STR_OFF, S_ADDR,
       S_RNGLISTS, S_RANGES, S_N };

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

/* A cursor over untrusted bytes: a read past the end yields 0 and sets bad,
 * which every later read keeps. */
struct rd {
	const uint8_t *p, *end;
	bool bad;
};

static inline bool need(struct rd *r, uint64_t n)
{
	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		r->p = r->end;
		return false;
	}
	return true;
}

static inline uint64_t rd_n(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if (!need(r, n))
		return 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static inline uint64_t rd_uleb(struct rd *r)
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

static inline int64_t rd_sleb(struct rd *r)
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

static inline const char *rd_cstr(struct rd *r)
{
	const uint8_t *z = r->p < r->end ?
		memchr(r->p, 0, (size_t)(r->end - r->p)) : NULL;
	const char *s = (const char *)r->p;

	if (!z) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	r->p = z + 1;
	return s;
}

static inline void rd_skip(struct rd *r, uint64_t n)
{
	if (need(r, n))
		r->p += n;
}

/* An abbreviation's attribute: DWARF's numbers, kept to 16 bits (larger
 * ones are no real producer's, and read as 0, unknown). */
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

/* A compile unit: its header, abbreviations and bases, and its line table
 * (co_dwarf_linetab.c), read on first use. */
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

/* The attributes a DIE's scope needs. */
struct die {
	uint16_t tag;
	bool children;
	bool has_low, has_high, has_ranges, has_file, has_line;
	struct val low, high, ranges, file, line;
};

/* co_dwarf.c */
CO_HIDDEN void co_dw_find_sections(struct dwarf *d);
/* The section's bytes, inflated if compressed; NULL when absent or broken. */
CO_HIDDEN const uint8_t *co_dw_section(struct dwarf *d, int which, size_t *n);
CO_HIDDEN void co_dw_free(struct dwarf *d);
CO_HIDDEN bool co_dw_read_val(struct unit *u, struct rd *r, uint16_t form,
			      int64_t implicit, struct val *v);
/* A constant as libdw's dwarf_formudata reads it. */
CO_HIDDEN bool co_dw_constant(const struct val *v, uint64_t *out);
CO_HIDDEN const char *co_dw_string(struct unit *u, const struct val *v);

enum co_dw_next { CO_DW_END, CO_DW_SKIP, CO_DW_UNIT };
/* The compile unit at *off in .debug_info, and *off past it: CO_DW_UNIT
 * with u, its first DIE cu, and r at cu's children; CO_DW_SKIP for a unit
 * that cannot be read (nothing to free); CO_DW_END where libdw stops. */
CO_HIDDEN enum co_dw_next co_dw_unit_next(struct dwarf *d, uint64_t *off,
					  struct unit *u, struct rd *r,
					  struct die *cu);
CO_HIDDEN void co_dw_unit_free(struct unit *u);
/* Reads (or with die NULL, skips) one DIE's attributes; its abbreviation,
 * or NULL for a null entry or when broken (then r->bad). */
CO_HIDDEN const struct abbrev *co_dw_read_die(struct unit *u, struct rd *r,
					      struct die *die);
CO_HIDDEN void co_dw_skip_children(struct unit *u, struct rd *r);
typedef void co_dw_range_fn(void *ctx, uint64_t lo, uint64_t hi);
/* The address ranges of a DIE, as libdw's dwarf_ranges gives them. */
CO_HIDDEN void co_dw_ranges(struct unit *u, const struct die *d,
			    co_dw_range_fn *fn, void *ctx);

/* co_dwarf_linetab.c: the unit's line table, read on first use. */
/* The row for addr, as dwarf_getsrc_die finds it, or NULL. */
CO_HIDDEN const struct row *co_dw_row_at(struct unit *u, uint64_t addr);
CO_HIDDEN const char *co_dw_file_name(struct unit *u, uint64_t idx);

/* co_dwarf_lines.c: co_lines once the sections are found. */
CO_HIDDEN void co_dw_lines(struct dwarf *d, struct co_insn *insns, size_t n,
			   struct co_strpool **pool);

#endif
