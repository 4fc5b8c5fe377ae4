/* SPDX-License-Identifier: MIT */
#include "isa_atomic.h"

static const char *target(enum isa_family fam)
{
	return fam == ISA_GFX908 ? "gfx908" : fam == ISA_GFX90A ? "gfx90a" :
	       fam == ISA_GFX940 ? "gfx942" : "";
}

static int wide(enum isa_atab_op op)
{
	switch (op) {
	case ISA_ATAB_ADD_I64: case ISA_ATAB_MIN_I64: case ISA_ATAB_MAX_I64:
	case ISA_ATAB_ADD_F64: case ISA_ATAB_MIN_F64: case ISA_ATAB_MAX_F64:
	case ISA_ATAB_EXCH_I64: case ISA_ATAB_CAS_I64: case ISA_ATAB_AND_I64:
	case ISA_ATAB_OR_I64: case ISA_ATAB_XOR_I64:
		return 1;
	default:
		return 0;
	}
}

enum isa_atab_cell isa_atomic_cell(enum isa_family fam, const struct isa_atab_facts *f,
				   enum isa_atab_op op, enum isa_amem mem,
				   enum isa_atab_scope scope, const char **source)
{
	struct isa_atab_query q = {
		.target = target(fam), .facts = *f, .table = ISA_ATAB_HW,
		.mem = mem == ISA_M_FINE_HOST ? ISA_ATAB_PINNED : ISA_ATAB_DEVICE,
		.gran = mem == ISA_M_COARSE ? ISA_ATAB_COARSE : ISA_ATAB_FINE,
		.scope = scope, .op = op,
	};
	struct isa_atab_answer a;
	if (isa_atab_lookup(&q, &a) < 0) {
		/* a family the tables do not cover: the atomic is performed */
		if (source)
			*source = "";
		return ISA_ATAB_NATIVE;
	}
	if (a.cell == ISA_ATAB_CAS || a.cell == ISA_ATAB_DOWNGRADE_CAS) {
		q.op = wide(op) ? ISA_ATAB_CAS_I64 : ISA_ATAB_CAS_I32;
		isa_atab_lookup(&q, &a);
	}
	if (source)
		*source = a.source;
	return a.cell;
}
