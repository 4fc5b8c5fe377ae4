/* SPDX-License-Identifier: MIT */
/*
 * What an atomic read-modify-write does, by AMD's own tables: the one
 * lookup scan, the analyzer, HIPGRAIN_WARN and the interpreter read.  The
 * table is atomics/amd-atomics.tsv, AMD's cells as data, compiled into C
 * at build time (isa/gen_atab.py); each answer names the row it read and
 * the assumptions it made where a fact about the machine was unknown.
 */
#ifndef ISA_ATAB_H
#define ISA_ATAB_H

#include <stddef.h>

/* The tables' product columns, in their order. */
#define ISA_ATAB_COLS(X)                                                       \
	X(MI100, "MI100") X(MI200_PCIE, "MI200-PCIe") X(MI200_AA, "MI200-A+A") \
	X(MI300X, "MI300X") X(MI300A, "MI300A") X(MI350X, "MI350X")

/* The tables' operations, in their row order within a block. */
#define ISA_ATAB_OPS(X)                                                        \
	X(ADD_I32, "add-i32") X(SUB_I32, "sub-i32") X(MIN_I32, "min-i32")      \
	X(MAX_I32, "max-i32") X(INC_I32, "inc-i32") X(DEC_I32, "dec-i32")      \
	X(ADD_I64, "add-i64") X(MIN_I64, "min-i64") X(MAX_I64, "max-i64")      \
	X(ADD_F32, "add-f32") X(MIN_F32, "min-f32") X(MAX_F32, "max-f32")      \
	X(ADD_F64, "add-f64") X(MIN_F64, "min-f64") X(MAX_F64, "max-f64")      \
	X(ADD_PK_F16, "add-pk-f16") X(ADD_PK_BF16, "add-pk-bf16")              \
	X(EXCH_I32, "exch-i32") X(CAS_I32, "cas-i32") X(AND_I32, "and-i32")    \
	X(OR_I32, "or-i32") X(XOR_I32, "xor-i32") X(EXCH_I64, "exch-i64")      \
	X(CAS_I64, "cas-i64") X(AND_I64, "and-i64") X(OR_I64, "or-i64")        \
	X(XOR_I64, "xor-i64")

/* The outcomes the cells use. */
#define ISA_ATAB_CELLS(X)                                                      \
	X(NATIVE, "native") X(NORETURN, "noreturn") X(CAS, "cas") X(NOP, "nop") \
	X(DOWNGRADE, "downgrade") X(DOWNGRADE_CAS, "downgrade-cas")

#define ISA_ATAB_X(id, name) ISA_ATAB_##id,
enum isa_atab_col { ISA_ATAB_COLS(ISA_ATAB_X) ISA_ATAB_NCOLS };
enum isa_atab_op { ISA_ATAB_OPS(ISA_ATAB_X) ISA_ATAB_NOPS };
enum isa_atab_cell { ISA_ATAB_CELLS(ISA_ATAB_X) ISA_ATAB_NCELLS };
#undef ISA_ATAB_X

/* The page's memory locations, granularities and scopes. */
enum isa_atab_mem { ISA_ATAB_DEVICE, ISA_ATAB_MIGRATABLE, ISA_ATAB_PINNED };
enum isa_atab_gran { ISA_ATAB_COARSE, ISA_ATAB_FINE };
enum isa_atab_scope { ISA_ATAB_SCOPE_DEVICE, ISA_ATAB_SCOPE_SYSTEM };
/* hw: the program asks for hardware atomics; cas: for CAS emulation. */
enum isa_atab_table { ISA_ATAB_HW, ISA_ATAB_CASEMU };

/* A fact about the machine, as far as the caller knows it. */
enum isa_fact { ISA_FACT_UNKNOWN, ISA_FACT_YES, ISA_FACT_NO };
enum isa_link { ISA_LINK_UNKNOWN, ISA_LINK_PCIE, ISA_LINK_XGMI };

/* What the table's column and PCIe choice rest on. */
struct isa_atab_facts {
	enum isa_link cpu_link;	  /* the GPU's link to the CPU */
	enum isa_fact pcie_atomics; /* atomics cross that link as PCIe AtomicOps */
	enum isa_fact apu;	  /* GPU and CPU in one package (MI300A) */
};

struct isa_atab_query {
	const char *target;	/* "gfx90a" or a target id "gfx90a:xnack-" */
	struct isa_atab_facts facts;
	enum isa_atab_table table;
	enum isa_atab_mem mem;
	enum isa_atab_gran gran;
	enum isa_atab_scope scope;
	enum isa_atab_op op;
};

struct isa_atab_answer {
	enum isa_atab_cell cell;
	enum isa_atab_col col;
	int pcie_atomics;	/* which of the two tables was read */
	const char *source;	/* "hw-atomics_pcie_instinct.csv:299" */
	/* "" or what was assumed for an unknown fact that changes the cell,
	 * e.g. "CPU link unknown, judged as PCIe (MI200-PCIe)" */
	char assumed[160];
};

/* The product column of a target on a machine: -1 for a target the tables
 * do not cover.  assumed (may be NULL) says which unknown fact was
 * assumed, whether or not it changes a cell. */
int isa_atab_column(const char *target, const struct isa_atab_facts *f,
		    char *assumed, size_t cap);
/* The cell: 0, or -1 for a target the tables do not cover. */
int isa_atab_lookup(const struct isa_atab_query *q, struct isa_atab_answer *out);
/* One cell as compiled, for the table test; source may be NULL. */
enum isa_atab_cell isa_atab_raw(enum isa_atab_table t, int pcie_atomics,
				enum isa_atab_mem m, enum isa_atab_gran g,
				enum isa_atab_scope s, enum isa_atab_op op,
				enum isa_atab_col col, const char **source);
/* The cell leaves memory as the operation says, at some scope. */
int isa_atab_lands(enum isa_atab_cell c);

const char *isa_atab_col_name(enum isa_atab_col c);
const char *isa_atab_op_name(enum isa_atab_op op);
const char *isa_atab_cell_name(enum isa_atab_cell c);

#endif
