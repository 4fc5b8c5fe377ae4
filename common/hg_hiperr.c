/* SPDX-License-Identifier: MIT */
#include "hg_hiperr.h"

#include <stddef.h>

static const struct {
	int code;
	const char *name;
} errors[] = {
#define HG_X(code, name) {code, name},
	HG_HIP_ERRORS(HG_X)
#undef HG_X
};

const char *hg_hip_error_name(int code)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].code == code)
			return errors[i].name;
	return NULL;
}
