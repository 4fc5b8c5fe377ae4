/* SPDX-License-Identifier: MIT */
/*
 * Reading a loaded code object.  The loader places each segment at its
 * virtual address past the image's base, so program headers, symbols and
 * the note are found by address; every read goes through a bounds-checked
 * cursor, as the bytes are whatever the device memory holds.
 */
#include <string.h>

#include "co_msgpack.h"
#include "vg_image.h"

enum { EM_AMDGPU_ = 224, PT_DYNAMIC_ = 2, PT_NOTE_ = 4 };
enum { DT_HASH_ = 4, DT_STRTAB_ = 5, DT_SYMTAB_ = 6, DT_STRSZ_ = 10 };
#define NT_AMDGPU_METADATA_ 32
#define SYM 24u
#define MAX_SYMS (1u << 20)

int vg_image_is_elf(const uint8_t *img, size_t n)
{
	return n >= 64 && !memcmp(img, "\177ELF", 4) && img[4] == 2 && img[5] == 1 &&
	       (img[18] | img[19] << 8) == EM_AMDGPU_;
}

struct seg {
	uint64_t addr, size;
};

struct image {
	struct hg_cursor c;
	struct seg dyn, note;
};

static int headers(struct image *im)
{
	struct hg_cursor *c = &im->c;
	hg_cursor_seek(c, 32);
	uint64_t phoff = hg_cursor_u64(c);
	hg_cursor_seek(c, 54);
	uint16_t phentsize = hg_cursor_u16(c), phnum = hg_cursor_u16(c);
	if (c->bad || phentsize != 56)
		return -1;
	for (uint16_t i = 0; i < phnum; i++) {
		if (!hg_cursor_seek(c, phoff + (uint64_t)i * 56))
			return -1;
		uint32_t type = hg_cursor_u32(c);
		hg_cursor_skip(c, 12);
		uint64_t vaddr = hg_cursor_u64(c);
		hg_cursor_skip(c, 8);
		uint64_t filesz = hg_cursor_u64(c);
		if (c->bad)
			return -1;
		if (type == PT_DYNAMIC_)
			im->dyn = (struct seg){ vaddr, filesz };
		else if (type == PT_NOTE_)
			im->note = (struct seg){ vaddr, filesz };
	}
	return im->dyn.size ? 0 : -1;
}

/* The symbol whose value is kd, by the dynamic section's tables. */
static int symbol(struct image *im, uint64_t kd, char *name, size_t cap)
{
	struct hg_cursor *c = &im->c;
	uint64_t symtab = 0, strtab = 0, strsz = 0, hash = 0;
	for (uint64_t off = 0; off + 16 <= im->dyn.size; off += 16) {
		if (!hg_cursor_seek(c, im->dyn.addr + off))
			return -1;
		uint64_t tag = hg_cursor_u64(c), val = hg_cursor_u64(c);
		if (c->bad || !tag)
			break;
		if (tag == DT_SYMTAB_) symtab = val;
		else if (tag == DT_STRTAB_) strtab = val;
		else if (tag == DT_STRSZ_) strsz = val;
		else if (tag == DT_HASH_) hash = val;
	}
	uint64_t nsym = strtab > symtab ? (strtab - symtab) / SYM : 0;
	if (hash && hg_cursor_seek(c, hash + 4))
		nsym = hg_cursor_u32(c);
	if (!symtab || !strtab || c->bad || nsym > MAX_SYMS)
		return -1;
	for (uint64_t i = 1; i < nsym; i++) {
		if (!hg_cursor_seek(c, symtab + i * SYM))
			return -1;
		uint32_t st_name = hg_cursor_u32(c);
		hg_cursor_skip(c, 4);
		uint64_t value = hg_cursor_u64(c);
		if (c->bad)
			return -1;
		if (value != kd || st_name >= strsz || !hg_range_ok(c->size, strtab + st_name, 1))
			continue;
		const char *s = (const char *)c->base + strtab + st_name;
		size_t len = strnlen(s, c->size - (strtab + st_name));
		if (len < 3 || len == c->size - (strtab + st_name) || strcmp(s + len - 3, ".kd") ||
		    len - 3 >= cap)
			continue;
		memcpy(name, s, len - 3);
		name[len - 3] = '\0';
		return 0;
	}
	return -1;
}

static int copy_str(const struct mp_val *v, char *out, size_t cap)
{
	if (v->t != MP_STR || v->n >= cap)
		return -1;
	memcpy(out, v->s, v->n);
	out[v->n] = '\0';
	return 0;
}

/* One entry of a kernel's .args: its name, offset and size. */
static int arg(struct hg_cursor *c, struct vg_karg *a)
{
	struct mp_val m = mp_read(c);
	if (m.t != MP_MAP)
		return -1;
	memset(a, 0, sizeof(*a));
	for (uint32_t i = 0; i < m.n; i++) {
		struct mp_val k = mp_read(c);
		if (mp_str_is(&k, ".name") || mp_str_is(&k, ".offset") ||
		    mp_str_is(&k, ".size")) {
			struct mp_val v = mp_read(c);
			if (mp_str_is(&k, ".name"))
				copy_str(&v, a->name, sizeof(a->name));
			else if (v.t == MP_INT && v.i >= 0 && v.i < (1 << 20))
				*(mp_str_is(&k, ".offset") ? &a->offset : &a->size) = (uint32_t)v.i;
		} else if (k.t == MP_BAD || !mp_skip(c, 2)) {
			return -1;
		}
	}
	return c->bad ? -1 : 0;
}

/* A kernel's map: its .args when its .name is the one sought. */
static int kernel(struct hg_cursor *c, struct vg_kinfo *out)
{
	struct mp_val m = mp_read(c);
	if (m.t != MP_MAP)
		return -1;
	int mine = 0;
	struct vg_kinfo k = { .nargs = 0 };
	for (uint32_t i = 0; i < m.n; i++) {
		struct mp_val key = mp_read(c);
		if (mp_str_is(&key, ".name")) {
			struct mp_val v = mp_read(c);
			mine = mp_str_is(&v, out->name);
		} else if (mp_str_is(&key, ".args")) {
			struct mp_val a = mp_read(c);
			if (a.t != MP_ARRAY)
				return -1;
			for (uint32_t j = 0; j < a.n; j++) {
				struct vg_karg one;
				if (arg(c, &one))
					return -1;
				if (k.nargs < VG_IMAGE_ARGS)
					k.args[k.nargs++] = one;
			}
		} else if (key.t == MP_BAD || !mp_skip(c, 1)) {
			return -1;
		}
	}
	if (!mine)
		return 1;
	out->nargs = k.nargs;
	memcpy(out->args, k.args, sizeof(k.args));
	return 0;
}

static int metadata(struct hg_cursor *c, struct vg_kinfo *out)
{
	struct mp_val root = mp_read(c);
	if (root.t != MP_MAP)
		return -1;
	for (uint32_t i = 0; i < root.n; i++) {
		struct mp_val key = mp_read(c);
		if (!mp_str_is(&key, "amdhsa.kernels")) {
			if (key.t == MP_BAD || !mp_skip(c, 0))
				return -1;
			continue;
		}
		struct mp_val ks = mp_read(c);
		if (ks.t != MP_ARRAY)
			return -1;
		for (uint32_t j = 0; j < ks.n; j++) {
			int rc = kernel(c, out);
			if (rc <= 0)
				return rc;
		}
		return -1;
	}
	return -1;
}

/* The AMDGPU metadata note, read for the kernel named in out. */
static int args(struct image *im, struct vg_kinfo *out)
{
	struct hg_cursor *c = &im->c;
	uint64_t off = 0;
	while (off + 12 <= im->note.size) {
		if (!hg_cursor_seek(c, im->note.addr + off))
			return -1;
		uint32_t namesz = hg_cursor_u32(c), descsz = hg_cursor_u32(c),
			 type = hg_cursor_u32(c);
		uint64_t name = c->pos, desc = name + ((namesz + 3ull) & ~3ull);
		if (c->bad || !hg_range_ok(c->size, desc, descsz))
			return -1;
		if (type == NT_AMDGPU_METADATA_ && namesz == 7 &&
		    !memcmp(c->base + name, "AMDGPU", 7)) {
			struct hg_cursor m = hg_cursor_make(c->base + desc, descsz);
			return metadata(&m, out);
		}
		off += 12 + ((namesz + 3ull) & ~3ull) + ((descsz + 3ull) & ~3ull);
	}
	return -1;
}

int vg_image_kernel(const uint8_t *img, size_t n, uint64_t kd, struct vg_kinfo *out)
{
	memset(out, 0, sizeof(*out));
	struct image im = { .c = hg_cursor_make(img, n) };
	if (!vg_image_is_elf(img, n) || headers(&im) ||
	    symbol(&im, kd, out->name, sizeof(out->name)))
		return -1;
	/* A kernel without readable metadata is still named. */
	if (im.note.size && args(&im, out))
		out->nargs = 0;
	return 0;
}
