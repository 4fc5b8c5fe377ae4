/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see README.md): device variables.  Device
 * memory is host memory here, so a variable's device address is its host
 * shadow's, once __hipRegisterVar has named it.
 */
#include "fh.h"

#define FH_MAX_VARS 256

static struct {
	const void *var;
	size_t size;
} fh_vars[FH_MAX_VARS];
static size_t fh_nvars;

void fh_symbol_add(const void *var, size_t size)
{
	fh_lock();
	if (fh_nvars < FH_MAX_VARS)
		fh_vars[fh_nvars++] = (__typeof__(fh_vars[0])){var, size};
	fh_unlock();
}

static size_t fh_symbol_size(const void *sym)
{
	size_t size = 0;

	fh_lock();
	for (size_t i = 0; i < fh_nvars && !size; i++)
		if (fh_vars[i].var == sym)
			size = fh_vars[i].size;
	fh_unlock();
	return size;
}

hipError_t hipGetSymbolAddress(void **p, const void *sym)
{
	FH_INIT();
	if (!p)
		return fh_ret(hipErrorInvalidValue);
	if (!fh_symbol_size(sym))
		return fh_ret(hipErrorInvalidSymbol);
	*p = (void *)sym;
	return fh_ret(hipSuccess);
}

hipError_t hipGetSymbolSize(size_t *size, const void *sym)
{
	FH_INIT();
	if (!size)
		return fh_ret(hipErrorInvalidValue);
	*size = fh_symbol_size(sym);
	return fh_ret(*size ? hipSuccess : hipErrorInvalidSymbol);
}
