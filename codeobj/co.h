/* SPDX-License-Identifier: MIT */
/*
 * codeobj: read the GPU code a HIP program carries.
 *
 * Containers (co_set): a HIP fat binary wrapper, an offload bundle (plain or
 * compressed), a bare AMDGPU ELF, or a file holding any of these (an
 * executable or shared library with a .hip_fatbin section of bundles back to
 * back).  A set lists every code object it holds, with its target id.
 *
 * Code objects (co_object): one AMDGPU ELF, parsed: target, features, content
 * hash, and per kernel its argument layout and atomic profile.
 *
 * No global state; objects are independent, so distinct objects may be used
 * from distinct threads.  All input is treated as untrusted bytes.  Every
 * function that can fail fills a struct co_error and returns -1 or NULL.
 */
#ifndef CO_H
#define CO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hg_events.h"

/* What went wrong, where, why: "what: where+offset: why". */
struct co_error {
	char what[64];   /* the thing being read: "offload bundle", "ELF" ... */
	char where[256]; /* file path or "memory" */
	uint64_t offset; /* byte offset in `where` (absolute in the file) */
	char why[192];   /* the broken expectation */
};

/* Formats "where: offset 0x..: what: why" into buf; returns buf. */
char *co_error_str(const struct co_error *err, char *buf, size_t size);

/* ---- containers ---------------------------------------------------- */

struct co_entry {
	const char *triple;   /* bundle entry id, e.g. hipv4-amdgcn-amd-amdhsa--gfx90a:xnack- */
	const char *target;   /* target id: gfx90a:xnack- ("" for host entries) */
	const uint8_t *data;  /* the code object's bytes (mapped or decompressed) */
	size_t size;
	uint64_t offset;      /* of the bundle in its file/memory; of the entry inside */
	uint32_t bundle;      /* index of the bundle this entry came from */
	bool compressed;      /* came out of a CCOB bundle */
};

struct co_set;

/* The pointer __hipRegisterFatBinary receives ({"HIPF", version, bundle, _}). */
struct co_set *co_set_from_wrapper(const void *wrapper, struct co_error *err);
/*
 * An image as hipModuleLoadData receives it: a bundle or a bare AMDGPU ELF.
 * `size` may be 0 when unknown: it is then derived from the headers.
 */
struct co_set *co_set_from_image(const void *image, size_t size,
				 struct co_error *err);
/* A file: executable/shared library (.hip_fatbin), bundle, or .co/.hsaco. */
struct co_set *co_set_from_file(const char *path, struct co_error *err);
void co_set_free(struct co_set *set);

size_t co_set_count(const struct co_set *set); /* device entries only */
const struct co_entry *co_set_entry(const struct co_set *set, size_t i);
/* Done with entry i: the file's pages under it leave the process's resident
 * memory (they are read again if asked for). */
void co_set_release(const struct co_set *set, size_t i);
/* Number of bundles found (0 for a bare ELF). */
size_t co_set_bundles(const struct co_set *set);

/*
 * The entry the runtime would load for a device whose gcnArchName is
 * `device_isa` (e.g. "gfx90a:sramecc+:xnack-"), or -1.  Follows target id
 * compatibility: the processor must match; a feature the code object leaves
 * unspecified (any) matches both settings, a specified one must equal the
 * device's; a specified match is preferred over any.
 */
long co_set_select(const struct co_set *set, const char *device_isa);

/*
 * The device targets a plain offload bundle in memory names, comma-separated
 * ("gfx90a:xnack+,gfx908"), from its header alone: no code object is read,
 * so a program's registration pays a few hundred bytes.  0 and "" when
 * there are none or the bundle is compressed (its ids are inside).
 */
size_t co_bundle_targets(const void *bundle, char *buf, size_t cap);

/* ---- target ids ---------------------------------------------------- */

struct co_target {
	char proc[24];            /* gfx90a */
	enum hg_feature xnack;   /* ANY when unspecified in an id */
	enum hg_feature sramecc;
};

/* Parses "gfx90a:sramecc+:xnack-", also with a triple prefix ("...--gfx90a"). */
int co_target_parse(const char *id, struct co_target *out);
/* <0 incompatible; otherwise larger is a better match.  Code for a generic
 * target (gfx9-4-generic) matches the processors of its family. */
int co_target_match(const struct co_target *code, const struct co_target *dev);
/* "gfx9-4-generic" and the like: the runtime takes a specific target's code
 * over a generic one's. */
bool co_target_generic(const char *proc);

/* ---- code objects -------------------------------------------------- */

enum co_decoder {
	CO_DEC_AUTO = 0,  /* own decoder where it knows the target, else comgr */
	CO_DEC_OWN = 1,   /* own gfx9-family decoder only (fails on others) */
	CO_DEC_COMGR = 2, /* comgr's LLVM disassembler (the reference) */
};

/* Class of one atomic memory instruction. */
enum co_aclass {
	CO_AC_FP = 1,  /* hardware floating-point read-modify-write */
	CO_AC_INT = 2, /* integer read-modify-write (incl. swap) */
	CO_AC_CAS = 3, /* compare-and-swap */
};

enum co_aspace {
	CO_SP_GLOBAL = 1, /* global_* */
	CO_SP_FLAT = 2,   /* flat_*: global, LDS or scratch at run time */
	CO_SP_BUFFER = 3, /* buffer_* */
	CO_SP_LDS = 4,    /* ds_*: never a granularity hazard */
	CO_SP_SCALAR = 5, /* s_atomic_* / s_buffer_atomic_* */
};

/* The cache-policy bits of a memory instruction, by position: gfx90a and
 * older call them glc, slc, scc; gfx940 and later sc0, nt, sc1. */
enum co_cpol {
	CO_CPOL_SC0 = 1, /* glc: an atomic returns the old value */
	CO_CPOL_NT = 2,  /* slc */
	CO_CPOL_SC1 = 4, /* scc */
};

/*
 * The scope an atomic asks for.  From gfx940 on the instruction says it:
 * sc1 is system scope, its absence agent (device) scope.  Before gfx940 an
 * atomic carries no scope (glc only asks for the old value): how far it
 * reaches is the memory's doing.
 */
enum co_scope {
	CO_SCOPE_UNENCODED = 0,
	CO_SCOPE_AGENT = 1,
	CO_SCOPE_SYSTEM = 2,
};

/*
 * Synchronization at system scope (what reaches the host and other GPUs
 * while a kernel runs), as the code sequences of LLVM's memory model give
 * it: on MI300 an atomic with sc1, a load or store with sc0 and sc1, and
 * the fences `buffer_wbl2 sc0 sc1` (release) and `buffer_inv sc0 sc1`
 * (acquire); on gfx90a `buffer_wbl2` (release) and `buffer_invl2`
 * (acquire), which only system scope asks for.  gfx908's code, and a
 * relaxed atomic on gfx90a, are the same at agent and system scope: no
 * kind says them.
 */
enum co_sync {
	CO_SYNC_NONE = 0,
	CO_SYNC_ATOMIC = 1,  /* a read-modify-write at system scope */
	CO_SYNC_LOAD = 2,    /* an atomic (or volatile) load at system scope */
	CO_SYNC_STORE = 3,   /* an atomic (or volatile) store at system scope */
	CO_SYNC_ACQUIRE = 4, /* a fence that invalidates the L2 */
	CO_SYNC_RELEASE = 5, /* a fence that writes the L2 back */
};

struct co_insn {
	uint64_t addr;       /* virtual address in the code object (as objdump prints) */
	uint32_t op;         /* one enum hg_aop bit */
	uint8_t cls;         /* enum co_aclass; 0 for a sync that is no atomic */
	uint8_t sync;        /* enum co_sync */
	uint8_t space;       /* enum co_aspace */
	uint8_t cpol;        /* enum co_cpol bits */
	uint8_t scope;       /* enum co_scope, from cpol and the target */
	char mnemonic[38];
	int16_t arg;         /* kernel argument its address comes from; -1 unknown */
	uint32_t line;       /* source line from .debug_line; 0 unknown */
	const char *file;    /* its file (owned by the object); NULL unknown */
};

struct co_arg {
	uint32_t offset;
	uint32_t size;
	uint8_t value_kind;    /* enum hg_value_kind */
	uint8_t address_space; /* enum hg_addr_space */
};

/* What a kernel's machine code does atomically (global/flat/buffer unless said). */
struct co_atomics {
	uint32_t fp_ops;         /* enum hg_aop bits, HG_AOP_FP_MASK */
	uint32_t fp_count;
	uint64_t fp_first;       /* address of the first FP atomic (0 if none) */
	char fp_mnemonics[160];  /* unique, comma separated; may end in "..." */
	uint32_t int_ops;        /* enum hg_aop bits, integer ops incl. SWAP */
	uint32_t int_count;
	char int_mnemonics[160];
	uint32_t cas_count;      /* *_cmpswap on global/flat/buffer */
	uint32_t lds_count;      /* every ds_* atomic, any class */
	bool analysed;           /* false when the code could not be decoded */
	/* Per class, the arguments atomics reach: "ARG[@FILE:LINE];..." with
	 * the first atomic's line per argument, "?" for an atomic whose
	 * argument is unknown (then the whole kernel counts). */
	char fp_sites[160];
	char int_sites[160];
	/* Synchronization at system scope, by argument: "ARG+KIND^s@FILE:LINE"
	 * with KIND one of co_sync_name's words, one entry per argument and
	 * kind.  A fence's arguments are those of the global memory accesses
	 * in its basic block ("?" when one is unknown or there are none). */
	uint32_t sys_count;      /* instructions that synchronize so */
	char sys_sites[160];
};

/* The scopes a sites entry may say (its mark), as bits: unmarked where the
 * target's atomics carry none, or the string predates the mark. */
#define CO_SITE_UNMARKED 1u
#define CO_SITE_AGENT 2u
#define CO_SITE_SYSTEM 4u
#define CO_SITES_ALL 7u

/*
 * Whether the atomics a sites string lists (fp_sites, int_sites) may reach
 * argument arg, counting only entries whose operation is in mask (enum
 * hg_aop bits, or CO_SYNC_BIT for sys_sites' kinds; an entry naming none
 * counts as any) and whose scope is in
 * scopes.  *ops gets the operations named on arg, *at the line of the
 * first entry on it ("" if none).  "?" (an atomic whose argument is
 * unknown) and an empty or NULL string reach every argument.  The one
 * reader of the form co_atomics_sites writes: the analyzer's rules and the
 * preload's online warning judge alike.
 */
bool co_sites_reach(const char *sites, unsigned arg, uint32_t mask,
		    unsigned scopes, uint32_t *ops, char *at, size_t cap);
/*
 * The lines of the entries co_sites_reach counts on argument arg, each as
 * "OP@FILE:LINE" ("max@hist.hip:17"; "@FILE:LINE" for an entry that names
 * no operation; a sys_sites entry's kind for OP, "acquire@flag.hip:8"), joined by ';' into out, in the source's order (file,
 * then line): one per operation and scope, at its first line.  Entries without a line and "?"
 * are left out; a list out cannot hold ends at its last whole entry.
 * Returns how many it holds.
 */
size_t co_sites_lines(const char *sites, unsigned arg, uint32_t mask,
		      unsigned scopes, char *out, size_t cap);
/* The name of one enum hg_aop operation ("max"), "" for a bit none has. */
const char *co_aop_name(uint32_t op);
/* The word for one enum co_sync ("acquire"), "" for none. */
const char *co_sync_name(unsigned kind);
/* A sys_sites entry's kind as a bit of co_sites_reach's and
 * co_sites_lines' mask, above enum hg_aop's bits. */
#define CO_SYNC_BIT(kind) (1u << (24 + (kind)))

struct co_kernel {
	const char *name;    /* metadata .name (the mangled device function name) */
	const char *symbol;  /* metadata .symbol, e.g. "foo.kd" */
	uint32_t kernarg_size;
	uint32_t nargs;
	const struct co_arg *args;
	int8_t kernarg_sgpr; /* first SGPR of the kernarg pointer; -1 unknown */
	uint64_t code_addr;  /* from the symbol table; 0/0 when not found */
	uint64_t code_size;
	struct co_atomics atomics;
	uint32_t ninsns;     /* atomic instructions (not filled from the cache) */
	const struct co_insn *insns;
	/* Synchronization at system scope, one per argument a fence is tied
	 * to, in the code's order (not filled from the cache). */
	uint32_t nsyncs;
	const struct co_insn *syncs;
};

/* A code object's kernel facts: what the preload needs, and what is cached. */
struct co_profiles {
	char target[64];           /* gfx90a:xnack- */
	enum hg_feature xnack;
	enum hg_feature sramecc;
	uint64_t hash;             /* co_hash of the code object's bytes */
	uint32_t code_object_version; /* 4, 5, ... (0 unknown) */
	uint64_t decoded;          /* instructions decoded by the last analysis */
	uint32_t nkernels;
	struct co_kernel *kernels; /* sorted by name */
};

struct co_object;

/* Parses an AMDGPU ELF (bytes are not copied: keep them alive). */
struct co_object *co_object_open(const void *data, size_t size,
				 const char *where, struct co_error *err);
/* Decodes every kernel's code and fills the atomic profiles. */
int co_object_analyse(struct co_object *obj, enum co_decoder dec,
		      struct co_error *err);
const struct co_profiles *co_object_profiles(const struct co_object *obj);
void co_object_free(struct co_object *obj);
/* The source line of each address (insns[i].addr, as the atomics count
 * them) from the object's DWARF: file and line set where it says, the
 * file owned by the object.  Any instruction, not only the atomics the
 * analysis keeps: the virtual GPU's race check names both of a pair. */
void co_object_lines(struct co_object *obj, struct co_insn *insns, size_t n);

/* Kernel by the name __hipRegisterFunction receives (".kd" accepted too). */
const struct co_kernel *co_profiles_find(const struct co_profiles *p,
					 const char *name);
void co_profiles_free(struct co_profiles *p); /* only for co_cache_load results */

/* Fast 64-bit content hash (own code, not cryptographic). */
uint64_t co_hash(const void *data, size_t size);

/* ---- profile cache ------------------------------------------------- */

/* Writes dir/<hash>.hgp atomically (temp file + rename). */
int co_cache_store(const char *dir, const struct co_profiles *p,
		   struct co_error *err);
/* Returns NULL with err->why "not cached" (errno ENOENT) when absent. */
struct co_profiles *co_cache_load(const char *dir, uint64_t hash,
				  struct co_error *err);

#endif /* CO_H */
