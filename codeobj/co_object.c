/* SPDX-License-Identifier: MIT */
/* One AMDGPU code object: ELF, metadata note, symbol table, analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co_int.h"

#define NT_AMDGPU_METADATA 32

struct co_object {
	struct co_prof_owned own;
	struct co_elf elf;
	char where[256];
	struct co_insn *insns;
	size_t ninsns, cap;
	uint32_t *first; /* per kernel: index of its first insn */
	/* The kernel being decoded's loads, stores and fences at system
	 * scope, as the decoder finds them; then every kernel's, tied to
	 * their arguments (a fence once per argument). */
	struct co_insn *raw, *syncs;
	size_t nraw, capraw, nsyncs, capsyncs;
	uint32_t *sfirst; /* per kernel: index of its first sync */
};

const struct co_profiles *co_object_profiles(const struct co_object *obj)
{
	return &obj->own.p;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct co_kernel *)a)->name,
		      ((const struct co_kernel *)b)->name);
}

void co_profiles_sort(struct co_profiles *p)
{
	if (p->nkernels)
		qsort(p->kernels, p->nkernels, sizeof *p->kernels, by_name);
}

const struct co_kernel *co_profiles_find(const struct co_profiles *p,
					 const char *name)
{
	char buf[1024];
	size_t n = strlen(name);
	if (n > 3 && !strcmp(name + n - 3, ".kd") && n - 3 < sizeof buf) {
		memcpy(buf, name, n - 3);
		buf[n - 3] = 0;
		name = buf;
	}
	struct co_kernel key = {.name = name};
	if (!p->nkernels)
		return NULL;
	return bsearch(&key, p->kernels, p->nkernels, sizeof key, by_name);
}

/* The metadata note: in a SHT_NOTE section, owner "AMDGPU", type 32. */
static int find_metadata(struct co_object *o, struct co_error *err)
{
	struct co_shdr sh;
	for (unsigned i = 1; i < o->elf.shnum; i++) {
		if (co_elf_shdr(&o->elf, i, &sh))
			return co_fail(err, "ELF section", o->where,
				       o->elf.shoff + i * 64ull,
				       "section %u lies outside the code object", i);
		if (sh.type != CO_SHT_NOTE)
			continue;
		struct hg_cursor c = hg_cursor_make(o->elf.p + sh.offset, sh.size);
		while (hg_cursor_left(&c) >= 12) {
			size_t at = c.pos;
			uint32_t namesz = hg_cursor_u32(&c), descsz = hg_cursor_u32(&c);
			uint32_t type = hg_cursor_u32(&c);
			const uint8_t *name = hg_cursor_take(&c, (namesz + 3ull) & ~3ull);
			const uint8_t *desc = hg_cursor_take(&c, descsz);
			hg_cursor_skip(&c, ((descsz + 3ull) & ~3ull) - descsz);
			if (!name || !desc)
				return co_fail(err, "ELF note", o->where,
					       sh.offset + at, "note runs past its section");
			if (type != NT_AMDGPU_METADATA || namesz != 7 ||
			    memcmp(name, "AMDGPU", 7))
				continue;
			const char *why = NULL;
			size_t bad = 0;
			if (co_meta_parse(desc, descsz, &o->own.p, &o->own.pool,
					  &why, &bad))
				return co_fail(err, "AMDHSA metadata", o->where,
					       (uint64_t)(desc - o->elf.p) + bad,
					       "%s", why);
			return 0;
		}
	}
	return co_fail(err, "AMDHSA metadata", o->where, 0,
		       "no NT_AMDGPU_METADATA note (code object v2 or not HSA)");
}

/*
 * The kernel descriptor ("name.kd"): which user SGPRs the kernel starts
 * with, in their fixed order (private segment buffer 4, dispatch pointer 2,
 * queue pointer 2, then the kernarg segment pointer 2).
 */
static void descriptor(struct co_kernel *k, const uint8_t *kd,
		       enum isa_family fam)
{
	struct isa_kd d;

	k->kernarg_sgpr = -1;
	if (isa_kd_parse(kd, fam, &d) || !d.sgpr_kernarg_ptr)
		return;
	k->kernarg_sgpr = (int8_t)(4 * d.sgpr_private_buffer +
				   2 * d.sgpr_dispatch_ptr +
				   2 * d.sgpr_queue_ptr);
}

/* The instruction family of the code object's target. */
static enum isa_family family(const struct co_profiles *p)
{
	struct co_target t;

	return co_target_parse(p->target, &t) ? ISA_UNKNOWN : co_isa_family(t.proc);
}

/* Kernel code ranges: the STT_FUNC symbol named like the kernel; its
 * descriptor: the STT_OBJECT named like it plus ".kd". */
static void code_ranges(struct co_object *o)
{
	enum isa_family fam = family(&o->own.p);
	struct co_shdr sh, str, target;
	long idx = co_elf_find(&o->elf, ".symtab");
	if (idx < 0)
		idx = co_elf_find(&o->elf, ".dynsym");
	if (idx < 0 || co_elf_shdr(&o->elf, (unsigned)idx, &sh) ||
	    co_elf_shdr(&o->elf, sh.link, &str))
		return;
	const uint8_t *syms = o->elf.p + sh.offset;
	const char *strs = (const char *)o->elf.p + str.offset;
	for (uint64_t off = 0; off + 24 <= sh.size; off += 24) {
		const uint8_t *s = syms + off;
		uint32_t name;
		uint16_t shndx;
		uint64_t value, size;
		memcpy(&name, s, 4);
		memcpy(&shndx, s + 6, 2);
		memcpy(&value, s + 8, 8);
		memcpy(&size, s + 16, 8);
		unsigned type = s[4] & 0xf;
		if ((type != 2 /* STT_FUNC */ && type != 1 /* STT_OBJECT */) ||
		    name >= str.size || !memchr(strs + name, 0, str.size - name))
			continue;
		size_t len = strlen(strs + name);
		bool kd = len > 3 && !strcmp(strs + name + len - 3, ".kd");
		struct co_kernel *k = (struct co_kernel *)co_profiles_find(
			&o->own.p, strs + name);
		if (!k || kd != (type == 1) ||
		    co_elf_shdr(&o->elf, shndx, &target) ||
		    target.type == CO_SHT_NOBITS || value < target.addr ||
		    !hg_range_ok(target.size, value - target.addr, size))
			continue;
		if (kd) {
			if (size >= 64)
				descriptor(k, o->elf.p + target.offset +
						      (value - target.addr),
					   fam);
			continue;
		}
		k->code_addr = value;
		k->code_size = size;
	}
}

struct co_object *co_object_open(const void *data, size_t size,
				 const char *where, struct co_error *err)
{
	struct co_object *o = co_object_open_nohash(data, size, where, err);

	if (o)
		o->own.p.hash = co_hash(data, size);
	return o;
}

struct co_object *co_object_open_nohash(const void *data, size_t size,
					const char *where, struct co_error *err)
{
	struct co_object *o = calloc(1, sizeof *o);
	if (!o) {
		co_fail(err, "code object", where, 0, "out of memory");
		return NULL;
	}
	snprintf(o->where, sizeof o->where, "%s", where ? where : "memory");
	const char *why = NULL;
	uint64_t bad = 0;
	if (co_elf_open(&o->elf, data, size, &why, &bad)) {
		co_fail(err, "ELF header", o->where, bad, "%s", why);
		goto fail;
	}
	if (o->elf.machine != CO_EM_AMDGPU) {
		co_fail(err, "ELF header", o->where, 18,
			"machine %u is not AMDGPU (224)", o->elf.machine);
		goto fail;
	}
	struct co_profiles *p = &o->own.p;
	co_elf_target(&o->elf, p->target, sizeof p->target, &p->xnack, &p->sramecc);
	if (find_metadata(o, err))
		goto fail;
	for (uint32_t i = 0; i < p->nkernels; i++) {
		p->kernels[i].atomics.analysed = false;
		p->kernels[i].kernarg_sgpr = -1;
	}
	co_profiles_sort(p);
	code_ranges(o);
	return o;
fail:
	co_object_free(o);
	return NULL;
}

void co_object_lines(struct co_object *o, struct co_insn *insns, size_t n)
{
	if (co_elf_find(&o->elf, ".debug_line") >= 0)
		co_lines(&o->elf, insns, n, &o->own.pool);
}

void co_object_free(struct co_object *o)
{
	if (!o)
		return;
	co_pool_free(o->own.pool);
	free(o->insns);
	free(o->first);
	free(o->raw);
	free(o->syncs);
	free(o->sfirst);
	free(o);
}

/* Appends in to a growing list; false when memory ran out. */
static bool push(struct co_insn **v, size_t *n, size_t *cap,
		 const struct co_insn *in)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct co_insn *m = realloc(*v, c * sizeof(*m));

		if (!m)
			return false; /* dropped: the count below would be short */
		*v = m;
		*cap = c;
	}
	(*v)[(*n)++] = *in;
	return true;
}

static void collect(void *ctx, const struct co_insn *in)
{
	struct co_object *o = ctx;

	if (in->sync && !in->cls)
		push(&o->raw, &o->nraw, &o->capraw, in);
	else
		push(&o->insns, &o->ninsns, &o->cap, in);
}

/* A fence of the dataflow's: one record per argument it is tied to. */
static void tie(void *ctx, uint32_t i, int arg)
{
	struct co_object *o = ctx;
	struct co_insn in = o->raw[i];

	in.arg = (int16_t)arg;
	push(&o->syncs, &o->nsyncs, &o->capsyncs, &in);
}

static int sync_order(const void *a, const void *b)
{
	const struct co_insn *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->arg > y->arg) - (x->arg < y->arg);
}

static bool tied(const struct co_insn *v, size_t from, size_t to, uint64_t addr)
{
	for (size_t i = from; i < to; i++)
		if (v[i].addr == addr)
			return true;
	return false;
}

/* The kernel's syncs from its raw list (tied by the dataflow from mark on,
 * if it ran), its atomics at system scope, in the code's order.  A fence
 * the dataflow did not reach reaches every argument. */
static void kernel_syncs(struct co_object *o, enum isa_family fam,
			 size_t mark, size_t amark)
{
	size_t tied_end = o->nsyncs;

	for (size_t i = 0; i < o->nraw; i++) {
		const struct co_insn *in = &o->raw[i];
		bool fence = in->sync == CO_SYNC_ACQUIRE ||
			     in->sync == CO_SYNC_RELEASE;

		if (!fence || !tied(o->syncs, mark, tied_end, in->addr))
			push(&o->syncs, &o->nsyncs, &o->capsyncs, in);
	}
	for (size_t i = amark; i < o->ninsns; i++) {
		struct co_insn in = o->insns[i];

		if (in.space == CO_SP_LDS ||
		    co_insn_scope(fam, &in) != CO_SCOPE_SYSTEM)
			continue;
		in.sync = CO_SYNC_ATOMIC;
		in.scope = CO_SCOPE_SYSTEM;
		push(&o->syncs, &o->nsyncs, &o->capsyncs, &in);
	}
	if (o->nsyncs > mark)
		qsort(o->syncs + mark, o->nsyncs - mark, sizeof(*o->syncs),
		      sync_order);
}

/* Attribution only where there is something to attribute: an atomic whose
 * address is a pointer (LDS atomics have none, a buffer's is in its
 * descriptor). */
static bool pointer_atomics(const struct co_insn *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (in[i].space == CO_SP_GLOBAL || in[i].space == CO_SP_FLAT)
			return true;
	return false;
}

static int scan_kernel(struct co_object *o, struct co_kernel *k,
		       enum co_decoder dec, enum isa_family fam,
		       struct co_comgr **dis, struct co_error *err)
{
	struct co_shdr sh;
	const uint8_t *code = NULL;
	for (unsigned i = 1; i < o->elf.shnum && !code; i++)
		if (co_elf_shdr(&o->elf, i, &sh) == 0 && sh.type != CO_SHT_NOBITS &&
		    k->code_addr >= sh.addr && k->code_addr - sh.addr < sh.size &&
		    (sh.flags & 4 /* SHF_EXECINSTR */))
			code = o->elf.p + sh.offset + (k->code_addr - sh.addr);
	if (!code)
		return 0;
	size_t mark = o->ninsns, smark = o->nsyncs;
	o->nraw = 0;
	long n = dec == CO_DEC_COMGR ? -1 :
		 co_isa_scan(fam, code, k->code_size, k->code_addr, collect, o);
	if (n >= 0) {
		struct co_flow_sync sync = {o->raw, (uint32_t)o->nraw, tie, o};

		/* a kernel with syncs may have no atomics: no array at all */
		struct co_insn *mine = o->insns ? o->insns + mark : NULL;

		o->own.p.decoded += (uint64_t)n;
		if (o->nraw || (o->ninsns > mark &&
				pointer_atomics(mine, o->ninsns - mark)))
			co_flow_args(fam, k, code, mine, (uint32_t)(o->ninsns - mark),
				     o->nraw ? &sync : NULL);
		kernel_syncs(o, fam, smark, mark);
		return 0;
	}
	/* our decoder gave up: the reference decides */
	o->ninsns = mark;
	o->nsyncs = smark;
	o->nraw = 0;
	if (dec == CO_DEC_OWN)
		return co_fail(err, "kernel code", o->where, k->code_addr,
			       "%s: own decoder does not know this code (%s)",
			       k->name, o->own.p.target);
	if (!*dis) {
		const char *why = NULL;
		*dis = co_comgr_open(o->own.p.target, &why);
		if (!*dis)
			return co_fail(err, "disassembler", o->where, 0, "%s: %s",
				       o->own.p.target, why);
	}
	o->own.p.decoded +=
		(uint64_t)co_comgr_scan(*dis, code, k->code_size, k->code_addr, collect, o);
	kernel_syncs(o, fam, smark, mark);
	return 0;
}

int co_object_analyse(struct co_object *o, enum co_decoder dec,
		      struct co_error *err)
{
	struct co_profiles *p = &o->own.p;
	enum isa_family fam = family(p);
	struct co_comgr *dis = NULL;
	free(o->first);
	free(o->sfirst);
	o->ninsns = o->nsyncs = 0;
	p->decoded = 0;
	o->first = calloc(p->nkernels + 1, sizeof *o->first);
	o->sfirst = calloc(p->nkernels + 1, sizeof *o->sfirst);
	if (!o->first || !o->sfirst)
		return co_fail(err, "analysis", o->where, 0, "out of memory");
	int rc = 0;
	for (uint32_t i = 0; i < p->nkernels && !rc; i++) {
		o->first[i] = (uint32_t)o->ninsns;
		o->sfirst[i] = (uint32_t)o->nsyncs;
		struct co_kernel *k = &p->kernels[i];
		if (k->code_size)
			rc = scan_kernel(o, k, dec, fam, &dis, err);
	}
	o->first[p->nkernels] = (uint32_t)o->ninsns;
	o->sfirst[p->nkernels] = (uint32_t)o->nsyncs;
	co_comgr_close(dis);
	if (!rc && co_elf_find(&o->elf, ".debug_line") >= 0) {
		co_lines(&o->elf, o->insns, o->ninsns, &o->own.pool);
		co_lines(&o->elf, o->syncs, o->nsyncs, &o->own.pool);
	}
	for (uint32_t i = 0; i < p->nkernels; i++) {
		struct co_kernel *k = &p->kernels[i];
		memset(&k->atomics, 0, sizeof k->atomics);
		k->insns = rc || !o->insns ? NULL : o->insns + o->first[i];
		k->ninsns = rc ? 0 : o->first[i + 1] - o->first[i];
		for (uint32_t j = 0; j < k->ninsns; j++) {
			struct co_insn *in = &o->insns[o->first[i] + j];

			in->scope = co_insn_scope(fam, in);
			co_atomics_add(&k->atomics, in);
		}
		co_atomics_sites(&k->atomics, k->insns, k->ninsns);
		k->syncs = rc || !o->syncs ? NULL : o->syncs + o->sfirst[i];
		k->nsyncs = rc ? 0 : o->sfirst[i + 1] - o->sfirst[i];
		co_sync_sites(&k->atomics, k->syncs, k->nsyncs);
		k->atomics.analysed = !rc && k->code_size;
	}
	return rc;
}
