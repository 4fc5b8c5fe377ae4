/* SPDX-License-Identifier: MIT */
/*
 * Atomic classes from mnemonics as LLVM prints them.  Both decoders (ours and
 * comgr's) go through this one function, so they can only disagree on which
 * instruction sits where, which is what the agreement test checks.
 */
#include <stdio.h>
#include <string.h>

#include "co_int.h"

static bool starts(const char *s, const char *p, const char **rest)
{
	size_t n = strlen(p);
	if (strncmp(s, p, n))
		return false;
	*rest = s + n;
	return true;
}

/* LDS operations that read-modify-write (ds_read/write/permute... do not). */
static const char *const ds_atomic[] = {
	"add", "sub", "rsub", "inc", "dec", "min", "max", "and", "or", "xor",
	"mskor", "wrxchg", "wrxchg2", "wrxchg2st64", "cmpst", "cmpswap",
	"condxchg32", "pk", "wrap", NULL,
};

static const struct { const char *name; uint32_t op; } int_ops[] = {
	{"add", HG_AOP_ADD}, {"sub", HG_AOP_SUB}, {"rsub", HG_AOP_SUB},
	{"csub", HG_AOP_SUB}, {"smin", HG_AOP_MIN}, {"umin", HG_AOP_MIN},
	{"min", HG_AOP_MIN}, {"smax", HG_AOP_MAX}, {"umax", HG_AOP_MAX},
	{"max", HG_AOP_MAX}, {"and", HG_AOP_AND}, {"or", HG_AOP_OR},
	{"xor", HG_AOP_XOR}, {"inc", HG_AOP_INC}, {"dec", HG_AOP_DEC},
	{"swap", HG_AOP_SWAP}, {"wrxchg", HG_AOP_SWAP},
	{"wrxchg2", HG_AOP_SWAP}, {"wrxchg2st64", HG_AOP_SWAP},
	{"mskor", HG_AOP_AND | HG_AOP_OR}, {"condxchg32", HG_AOP_SWAP},
	{"wrap", HG_AOP_ADD},
};

static bool is_fp_type(const char *rest)
{
	return strstr(rest, "_f32") || strstr(rest, "_f64") ||
	       strstr(rest, "_f16") || strstr(rest, "_bf16");
}

static uint32_t fp_op(const char *op, const char *rest)
{
	if (!strncmp(rest, "pk_add", 6))
		return strstr(rest, "bf16") ? HG_AOP_PK_FADD_BF16 : HG_AOP_PK_FADD_F16;
	if (!strcmp(op, "add") || !strcmp(op, "fadd"))
		return HG_AOP_FADD;
	if (!strcmp(op, "min") || !strcmp(op, "fmin"))
		return HG_AOP_FMIN;
	if (!strcmp(op, "max") || !strcmp(op, "fmax"))
		return HG_AOP_FMAX;
	return 0;
}

bool co_classify_mnemonic(const char *m, struct co_insn *out)
{
	const char *rest;
	uint8_t space;
	if (starts(m, "global_atomic_", &rest))
		space = CO_SP_GLOBAL;
	else if (starts(m, "flat_atomic_", &rest))
		space = CO_SP_FLAT;
	else if (starts(m, "buffer_atomic_", &rest) ||
		 starts(m, "image_atomic_", &rest))
		space = CO_SP_BUFFER;
	else if (starts(m, "s_atomic_", &rest) ||
		 starts(m, "s_buffer_atomic_", &rest))
		space = CO_SP_SCALAR;
	else if (starts(m, "ds_", &rest) && !strstr(rest, "src2"))
		space = CO_SP_LDS;
	else
		return false;

	char op[24];
	size_t n = strcspn(rest, "_");
	if (n == 0 || n >= sizeof op)
		return false;
	memcpy(op, rest, n);
	op[n] = 0;
	if (space == CO_SP_LDS) {
		bool found = false;
		for (size_t i = 0; ds_atomic[i]; i++)
			found |= !strcmp(op, ds_atomic[i]);
		if (!found)
			return false;
	}

	memset(out, 0, sizeof *out);
	out->space = space;
	out->arg = -1;
	snprintf(out->mnemonic, sizeof out->mnemonic, "%s", m);
	if (!strcmp(op, "cmpswap") || !strcmp(op, "cmpst") || !strcmp(op, "fcmpswap")) {
		out->cls = CO_AC_CAS;
		out->op = HG_AOP_CMPSWAP;
		return true;
	}
	if (is_fp_type(rest) || op[0] == 'f' || !strcmp(op, "pk")) {
		out->cls = CO_AC_FP;
		out->op = fp_op(op, rest);
		return out->op != 0;
	}
	for (size_t i = 0; i < sizeof int_ops / sizeof int_ops[0]; i++)
		if (!strcmp(op, int_ops[i].name)) {
			out->cls = CO_AC_INT;
			out->op = int_ops[i].op;
			return true;
		}
	return false;
}

static void add_unique(char *list, size_t size, const char *m)
{
	size_t ml = strlen(m);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == ml && !memcmp(p, m, n))
			return;
		p += n + (p[n] == ',');
	}
	size_t len = strlen(list);
	if (len + ml + 2 > size) {
		if (len + 4 < size && strcmp(list + len - 3, "..."))
			strcat(list, ",...");
		return;
	}
	if (len)
		list[len++] = ',';
	memcpy(list + len, m, ml + 1);
}

void co_atomics_add(struct co_atomics *a, const struct co_insn *in)
{
	if (in->space == CO_SP_LDS) {
		a->lds_count++;
		return;
	}
	if (in->cls == CO_AC_CAS) {
		a->cas_count++;
	} else if (in->cls == CO_AC_FP) {
		if (!a->fp_count || in->addr < a->fp_first)
			a->fp_first = in->addr;
		a->fp_count++;
		a->fp_ops |= in->op;
		add_unique(a->fp_mnemonics, sizeof a->fp_mnemonics, in->mnemonic);
	} else {
		a->int_count++;
		a->int_ops |= in->op;
		add_unique(a->int_mnemonics, sizeof a->int_mnemonics, in->mnemonic);
	}
}

uint8_t co_insn_scope(enum isa_family fam, const struct co_insn *in)
{
	/* LDS atomics reach no further than the work-group whatever the
	 * bits; MI300's memory atomics say their scope in sc1. */
	if (in->space == CO_SP_LDS || fam != ISA_GFX940)
		return CO_SCOPE_UNENCODED;
	return in->cpol & CO_CPOL_SC1 ? CO_SCOPE_SYSTEM : CO_SCOPE_AGENT;
}

/* Both of sc0 and sc1: MI300's system scope on a load, store or fence. */
static bool sys_bits(uint8_t cpol)
{
	return (cpol & (CO_CPOL_SC0 | CO_CPOL_SC1)) == (CO_CPOL_SC0 | CO_CPOL_SC1);
}

uint8_t co_sync_kind(enum isa_family fam, const char *m, uint8_t cpol)
{
	const char *rest;

	if (fam == ISA_GFX90A) {
		/* Agent scope needs neither: its L2 is the agent's. */
		if (!strcmp(m, "buffer_wbl2"))
			return CO_SYNC_RELEASE;
		return !strcmp(m, "buffer_invl2") ? CO_SYNC_ACQUIRE : CO_SYNC_NONE;
	}
	if (fam != ISA_GFX940 || !sys_bits(cpol))
		return CO_SYNC_NONE;
	if (!strcmp(m, "buffer_wbl2"))
		return CO_SYNC_RELEASE;
	if (!strcmp(m, "buffer_inv"))
		return CO_SYNC_ACQUIRE;
	if (!starts(m, "global_", &rest) && !starts(m, "flat_", &rest))
		return CO_SYNC_NONE;
	if (!strncmp(rest, "load_", 5))
		return CO_SYNC_LOAD;
	return !strncmp(rest, "store_", 6) ? CO_SYNC_STORE : CO_SYNC_NONE;
}
