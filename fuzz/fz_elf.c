/* SPDX-License-Identifier: MIT */
/* Fuzz the AMDGPU ELF reader, the symbol table walk and our decoder. */
#include <stdint.h>
#include <stdlib.h>

#include "co.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct co_error err;
	struct co_object *o = co_object_open(data, size, "fuzz", &err);
	if (o) {
		co_object_analyse(o, CO_DEC_OWN, &err);
		const struct co_profiles *p = co_object_profiles(o);
		if (p->nkernels)
			co_profiles_find(p, p->kernels[0].name);
	}
	co_object_free(o);
	return 0;
}
