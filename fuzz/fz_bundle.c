/* SPDX-License-Identifier: MIT */
/* Fuzz the bundle readers (plain and CCOB) and what follows from an entry. */
#include <stdint.h>
#include <stdlib.h>

#include "co.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct co_error err;
	if (size == 0)
		return 0; /* size 0 means "derive it from the headers": in-process only */
	struct co_set *set = co_set_from_image(data, size, &err);
	for (size_t i = 0; set && i < co_set_count(set) && i < 4; i++) {
		const struct co_entry *e = co_set_entry(set, i);
		struct co_object *o = co_object_open(e->data, e->size, "fuzz", &err);
		if (o)
			co_object_analyse(o, CO_DEC_OWN, &err);
		co_object_free(o);
	}
	if (set)
		co_set_select(set, "gfx90a:xnack-");
	co_set_free(set);
	return 0;
}
