/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "co_rules.h"

#define HOST_MEMS                                                              \
	(CO_MEMBIT(HG_MEM_HOST_PINNED) | CO_MEMBIT(HG_MEM_HOST_REGISTERED) |   \
	 CO_MEMBIT(HG_MEM_SYSTEM) | CO_MEMBIT(HG_MEM_SYSTEM_UNTRACKED) |       \
	 CO_MEMBIT(HG_MEM_MANAGED) /* may reside in host DRAM */)
#define ALL_MEMS 0xffffffffu
#define ROCM_TABLE "ROCm docs, AMD GPU atomics operation support (reference/gpu-atomics-operation)"
#define SEED000 "AMD's talk \"AMD Node Memory Model\" (HLRS, September 2023): FP atomics on fine/coarse grained memory"

/* The words for each kind of effect (words() picks one). */
static const struct co_rule rules[] = {
	{HG_AOP_FP_MASK, ALL_MEMS, CO_EFFECT_NOP,
	 "hardware FP atomics on fine-grained memory silently do nothing on MI100/MI200",
	 SEED000 "; " ROCM_TABLE},
	{HG_AOP_SUB | HG_AOP_MIN | HG_AOP_MAX | HG_AOP_AND | HG_AOP_OR | HG_AOP_XOR |
		 HG_AOP_INC | HG_AOP_DEC,
	 HOST_MEMS, CO_EFFECT_NOP,
	 "integer sub/min/max/and/or/xor/inc/dec to fine-grained host memory over PCIe "
	 "(no PCIe AtomicOp for them) do nothing on MI100/MI200",
	 ROCM_TABLE},
	{HG_AOP_INT_MASK | HG_AOP_CMPSWAP, HOST_MEMS, CO_EFFECT_NOP,
	 "integer atomics, add, exchange and compare-swap too, to fine-grained host "
	 "memory do nothing on MI100/MI200 when the host's PCIe root port carries no "
	 "AtomicOps",
	 ROCM_TABLE},
	{HG_AOP_FP_MASK | HG_AOP_INT_MASK | HG_AOP_CMPSWAP, HOST_MEMS, CO_EFFECT_DOWNGRADED,
	 "on MI300 system-scope atomics (sc1) to fine-grained host memory over "
	 "PCIe are downgraded from system to device scope; agent-scope ones (no "
	 "sc1) asked for device scope and get it",
	 ROCM_TABLE},
};

bool co_rules_cover(const char *proc)
{
	struct isa_atab_facts f = {0};
	return isa_atab_column(proc, &f, NULL, 0) >= 0;
}

/* The tables' rows for one operation bit: a hardware instruction of either
 * width, where the tables have both. */
static size_t rows_of(uint32_t bit, enum isa_atab_op out[2])
{
	switch (bit) {
	case HG_AOP_ADD: out[0] = ISA_ATAB_ADD_I32; out[1] = ISA_ATAB_ADD_I64; return 2;
	case HG_AOP_SUB: out[0] = ISA_ATAB_SUB_I32; return 1;
	case HG_AOP_MIN: out[0] = ISA_ATAB_MIN_I32; out[1] = ISA_ATAB_MIN_I64; return 2;
	case HG_AOP_MAX: out[0] = ISA_ATAB_MAX_I32; out[1] = ISA_ATAB_MAX_I64; return 2;
	case HG_AOP_AND: out[0] = ISA_ATAB_AND_I32; out[1] = ISA_ATAB_AND_I64; return 2;
	case HG_AOP_OR: out[0] = ISA_ATAB_OR_I32; out[1] = ISA_ATAB_OR_I64; return 2;
	case HG_AOP_XOR: out[0] = ISA_ATAB_XOR_I32; out[1] = ISA_ATAB_XOR_I64; return 2;
	case HG_AOP_INC: out[0] = ISA_ATAB_INC_I32; return 1;
	case HG_AOP_DEC: out[0] = ISA_ATAB_DEC_I32; return 1;
	case HG_AOP_SWAP: out[0] = ISA_ATAB_EXCH_I32; out[1] = ISA_ATAB_EXCH_I64; return 2;
	case HG_AOP_CMPSWAP: out[0] = ISA_ATAB_CAS_I32; out[1] = ISA_ATAB_CAS_I64; return 2;
	case HG_AOP_FADD: out[0] = ISA_ATAB_ADD_F32; out[1] = ISA_ATAB_ADD_F64; return 2;
	/* gfx9 has hardware FP min/max of doubles only */
	case HG_AOP_FMIN: out[0] = ISA_ATAB_MIN_F64; return 1;
	case HG_AOP_FMAX: out[0] = ISA_ATAB_MAX_F64; return 1;
	case HG_AOP_PK_FADD_F16: out[0] = ISA_ATAB_ADD_PK_F16; return 1;
	case HG_AOP_PK_FADD_BF16: out[0] = ISA_ATAB_ADD_PK_BF16; return 1;
	default: return 0;
	}
}

/* A hardware instruction's effect: a "cas" cell means the compiler would
 * not emit it, so it says nothing of one that is there. */
static enum co_effect effect_of(enum isa_atab_cell c)
{
	return c == ISA_ATAB_NOP ? CO_EFFECT_NOP :
	       c == ISA_ATAB_DOWNGRADE ? CO_EFFECT_DOWNGRADED : CO_EFFECT_OK;
}

static int table_mem(enum hg_mem mem, enum isa_atab_mem *out)
{
	switch (mem) {
	case HG_MEM_UNKNOWN: case HG_MEM_DEVICE: case HG_MEM_DEVICE_FINE:
		*out = ISA_ATAB_DEVICE; return 0;
	case HG_MEM_HOST_PINNED: case HG_MEM_HOST_REGISTERED:
		*out = ISA_ATAB_PINNED; return 0;
	case HG_MEM_MANAGED: case HG_MEM_SYSTEM: case HG_MEM_SYSTEM_UNTRACKED:
		*out = ISA_ATAB_MIGRATABLE; return 0;
	default:
		return -1;
	}
}

/* The words for what the table gave: FP operations first, then the integer
 * ones PCIe's AtomicOps would have carried, then the rest. */
static const struct co_rule *words(uint32_t ops, enum co_effect e)
{
	if (e == CO_EFFECT_DOWNGRADED)
		return &rules[3];
	if (ops & HG_AOP_FP_MASK)
		return &rules[0];
	return ops & (HG_AOP_ADD | HG_AOP_SWAP | HG_AOP_CMPSWAP) ? &rules[2] : &rules[1];
}

static void ask(struct isa_atab_query *q, uint32_t bit, struct co_rule_result *r)
{
	enum isa_atab_op op[2];
	for (size_t i = rows_of(bit, op); i-- > 0;) {
		struct isa_atab_answer a;
		q->op = op[i];
		if (isa_atab_lookup(q, &a) < 0)
			return;
		enum co_effect e = effect_of(a.cell);
		r->column = isa_atab_col_name(a.col);
		if (e < r->effect || e == CO_EFFECT_OK)
			continue;
		if (e > r->effect) {
			r->effect = e;
			r->ops = 0;
			r->row = a.source;
			snprintf(r->assumed, sizeof(r->assumed), "%s", a.assumed);
		}
		r->ops |= bit;
	}
}

enum co_effect co_rule_lookup(const char *arch, const struct isa_atab_facts *f,
			      uint32_t ops, enum hg_mem mem, enum hg_gran gran,
			      struct co_rule_result *out)
{
	struct co_rule_result r = {CO_EFFECT_OK, 0, NULL, "", "", ""};
	struct isa_atab_query q = {.target = arch, .table = ISA_ATAB_HW,
				   .scope = ISA_ATAB_SCOPE_SYSTEM};
	if (f)
		q.facts = *f;
	if ((gran == HG_GRAN_COARSE || gran == HG_GRAN_FINE || gran == HG_GRAN_MIXED) &&
	    !table_mem(mem, &q.mem)) {
		q.gran = gran == HG_GRAN_COARSE ? ISA_ATAB_COARSE : ISA_ATAB_FINE;
		for (uint32_t bit = 1; bit; bit <<= 1)
			if (ops & bit)
				ask(&q, bit, &r);
	}
	if (r.effect != CO_EFFECT_OK)
		r.rule = words(r.ops, r.effect);
	if (out)
		*out = r;
	return r.effect;
}

const char *co_effect_name(enum co_effect e)
{
	return e == CO_EFFECT_NOP ? "nop" : e == CO_EFFECT_DOWNGRADED ? "downgraded" : "ok";
}
