/* SPDX-License-Identifier: MIT */
/* Internal to codeobj: shared helpers and the pieces between files. */
#ifndef CO_INT_H
#define CO_INT_H

#include "co.h"
#include "hg_cursor.h"
#include "isa.h"

#define CO_HIDDEN __attribute__((visibility("hidden")))

/* Sane limits: anything beyond is called corrupt rather than allocated. */
#define CO_MAX_BUNDLE_ENTRIES 4096u
#define CO_MAX_TRIPLE 512u
#define CO_MAX_UNCOMPRESSED (1ull << 30) /* 1 GiB per bundle */
#define CO_MAX_KERNELS (1u << 20)
#define CO_MAX_ARGS 4096u

/* Fills err (if not NULL) and returns -1. */
CO_HIDDEN int co_fail(struct co_error *err, const char *what, const char *where,
		      uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Bundles: parse one at `data` (at most `avail` bytes); on success *used is
 * the bundle's size derived from its header. */
struct co_set;
CO_HIDDEN int co_bundle_parse(struct co_set *set, const uint8_t *data,
			      size_t avail, uint64_t base_off, size_t *used,
			      struct co_error *err);
CO_HIDDEN bool co_is_bundle(const uint8_t *p, size_t n);
CO_HIDDEN bool co_is_ccob(const uint8_t *p, size_t n);
CO_HIDDEN bool co_is_amdgpu_elf(const uint8_t *p, size_t n);
CO_HIDDEN size_t co_elf_extent(const uint8_t *p, size_t avail);

/* Set building. */
CO_HIDDEN int co_set_add(struct co_set *set, const char *triple, size_t tlen,
			 const uint8_t *data, size_t size, uint64_t off,
			 bool compressed, struct co_error *err);
CO_HIDDEN uint8_t *co_set_keep(struct co_set *set, size_t size);
CO_HIDDEN const char *co_set_where(const struct co_set *set);
CO_HIDDEN void co_set_next_bundle(struct co_set *set);

/* Decompression of a CCOB payload into `out` (exactly out_size bytes). */
CO_HIDDEN int co_inflate(unsigned method, const uint8_t *in, size_t in_size,
			 uint8_t *out, size_t out_size, const char **why);

/* Host ELF: the sections (or, for clang 15's old OpenMP driver, the bytes
 * in read-only data) that carry GPU code; returns how many, up to max, or
 * -1.  *omp_host: the program registers OpenMP offload images. */
enum co_host_kind {
	CO_HOST_FATBIN = 1,	 /* .hip_fatbin: offload bundles */
	CO_HOST_OFFLOADING = 2,	 /* .llvm.offloading: offload binaries */
	CO_HOST_OMP_SECTION = 3, /* .omp_offloading.<triple>: an ELF or bundle */
	CO_HOST_OMP_EMBEDDED = 4, /* an AMDGPU ELF inside .rodata */
};
struct co_host_sec {
	uint8_t kind;
	uint64_t off, size;
};
CO_HIDDEN int co_host_sections(const uint8_t *p, size_t n,
			       struct co_host_sec *out, int max, bool *omp_host,
			       const char **why);

/* LLVM offload binaries (co_offload.c). */
CO_HIDDEN bool co_is_offload_binary(const uint8_t *p, size_t n);
/* Size from the header of a binary known to hold one (0 if implausible). */
CO_HIDDEN size_t co_offload_extent(const uint8_t *p);
CO_HIDDEN int co_offload_parse(struct co_set *set, const uint8_t *data,
			       size_t avail, uint64_t base, size_t *used,
			       struct co_error *err);
/* A .llvm.offloading section: binaries back to back, 8-aligned. */
CO_HIDDEN int co_offload_section(struct co_set *set, const uint8_t *p,
				 size_t n, uint64_t base, struct co_error *err);

/* Decoders: call `hit` for every atomic memory instruction in [code, code+n). */
typedef void (*co_hit_fn)(void *ctx, const struct co_insn *insn);
/* The instruction family codeobj decodes proc as (ISA_UNKNOWN: none). */
CO_HIDDEN enum isa_family co_isa_family(const char *proc);
/* Returns the number of instructions decoded, or -1 when the stream is not
 * one the decoder understands (the caller then falls back to comgr). */
CO_HIDDEN long co_isa_scan(enum isa_family fam, const uint8_t *code,
			   size_t n, uint64_t addr, co_hit_fn hit, void *ctx);
/* The loads, stores and fences that synchronize at system scope, for the
 * dataflow: a load or store gets its argument as an atomic does; a fence
 * is tied to the argument of each global memory access in its basic block
 * (tie(ctx, i, arg), -1 once for an access whose argument is unknown or a
 * block with none). */
struct co_flow_sync {
	struct co_insn *in; /* sorted by address */
	uint32_t n;
	void (*tie)(void *ctx, uint32_t i, int arg);
	void *ctx;
};
/* Sets insns[i].arg for each atomic of k whose address derives from one
 * pointer argument (co_flow.c), and ties sync's (may be NULL); -1 when the
 * code cannot be followed. */
CO_HIDDEN int co_flow_args(enum isa_family fam, const struct co_kernel *k,
			   const uint8_t *code, struct co_insn *insns,
			   uint32_t ninsns, const struct co_flow_sync *sync);
/* Classifies a mnemonic as printed by LLVM; false when not an atomic. */
CO_HIDDEN bool co_classify_mnemonic(const char *m, struct co_insn *out);
/* The enum co_sync a memory instruction that is no atomic (mnemonic m,
 * cache-policy bits cpol) has on this family; CO_SYNC_NONE for most. */
CO_HIDDEN uint8_t co_sync_kind(enum isa_family fam, const char *m,
			       uint8_t cpol);
/* The scope an atomic asks for on this family (enum co_scope). */
CO_HIDDEN uint8_t co_insn_scope(enum isa_family fam,
				const struct co_insn *in);

struct co_comgr;
CO_HIDDEN struct co_comgr *co_comgr_open(const char *target, const char **why);
CO_HIDDEN long co_comgr_scan(struct co_comgr *dis, const uint8_t *code,
			     size_t n, uint64_t addr, co_hit_fn hit, void *ctx);
CO_HIDDEN void co_comgr_close(struct co_comgr *dis);

/* Metadata (msgpack) into profiles; strings are allocated in `pool`. */
struct co_strpool;
CO_HIDDEN int co_meta_parse(const uint8_t *p, size_t n, struct co_profiles *out,
			    struct co_strpool **pool, const char **why,
			    size_t *bad_off);
CO_HIDDEN const char *co_pool_add(struct co_strpool **pool, const char *s,
				  size_t n);
/* Zeroed, max_align_t aligned, freed with the pool. */
CO_HIDDEN void *co_pool_alloc(struct co_strpool **pool, size_t size);

/* Profiles that own their memory (cache results, objects). */
struct co_prof_owned {
	struct co_profiles p;
	struct co_strpool *pool;
};
CO_HIDDEN void co_pool_free(struct co_strpool *pool);

CO_HIDDEN void co_profiles_sort(struct co_profiles *p);
/* Whether the comma-separated list holds the n-byte name (co_target.c). */
CO_HIDDEN bool co_list_has(const char *list, const char *name, size_t n);
CO_HIDDEN void co_atomics_add(struct co_atomics *a, const struct co_insn *in);
/* co_object_open without the content hash (left 0): scan reports no hash,
 * and hashing read every page of every code object, a tenth of its time. */
CO_HIDDEN struct co_object *co_object_open_nohash(const void *data, size_t size,
						  const char *where,
						  struct co_error *err);
/* Sets file and line of each atomic from the code object's DWARF, when it
 * has some (co_dwarf_lines.c: our own reader, no libdw). */
struct co_elf;
CO_HIDDEN void co_lines(const struct co_elf *elf, struct co_insn *insns,
			size_t n, struct co_strpool **pool);
/* Fills a->fp_sites and a->int_sites from the kernel's atomics. */
CO_HIDDEN void co_atomics_sites(struct co_atomics *a, const struct co_insn *in,
				uint32_t n);
/* Fills a->sys_sites and a->sys_count from the kernel's syncs (in the
 * code's order, a fence once per argument). */
CO_HIDDEN void co_sync_sites(struct co_atomics *a, const struct co_insn *in,
			     uint32_t n);

#endif

/* ELF64 little-endian, just what codeobj needs (co_elf.c). */
struct co_elf {
	const uint8_t *p;
	size_t n;
	uint64_t shoff;
	uint16_t shnum, shstrndx, machine, type;
	uint32_t flags;
};

struct co_shdr {
	const char *name; /* "" when unnamed or out of range */
	uint32_t type, link;
	uint64_t flags, addr, offset, size, entsize;
};

#define CO_EM_AMDGPU 224
#define CO_SHT_SYMTAB 2
#define CO_SHT_NOTE 7
#define CO_SHT_NOBITS 8
#define CO_SHT_DYNSYM 11

CO_HIDDEN int co_elf_open(struct co_elf *e, const uint8_t *p, size_t n,
			  const char **why, uint64_t *bad_off);
/* Section i with its bytes checked to lie inside the file (NOBITS aside). */
CO_HIDDEN int co_elf_shdr(const struct co_elf *e, unsigned i, struct co_shdr *sh);
CO_HIDDEN long co_elf_find(const struct co_elf *e, const char *name);
/* "gfx90a:xnack-" from e_flags; "" when the machine is unknown. */
CO_HIDDEN void co_elf_target(const struct co_elf *e, char *buf, size_t size,
			     enum hg_feature *xnack, enum hg_feature *sramecc);
