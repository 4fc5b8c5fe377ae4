/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): device variables.  A
 * registered variable (__hipRegisterVar, which a program's constructors
 * call, fh_launch.c) gets device memory of its size; the symbol, the host variable's
 * address, names it in hipGetSymbolAddress and the symbol copies.
 */
#include "fh.h"

#define FH_VARS 64

static struct {
	const void *symbol;
	char *dev;
	size_t size;
} vars[FH_VARS];
static int nvars;

void fh_var_register(const void *var, size_t size)
{
	void *dev = NULL;

	if (!var || !size || fh_map(&dev, size, FH_DEVICE, 0) != hipSuccess)
		return;
	fh_lock();
	if (nvars < FH_VARS)
		vars[nvars++] = (__typeof__(vars[0])){var, dev, size};
	fh_unlock();
}

/* The variable symbol names; NULL (and hipErrorInvalidSymbol recorded) if
 * none. */
static int find(const void *symbol, char **dev, size_t *size)
{
	int found = 0;

	fh_lock();
	for (int i = 0; i < nvars && !found; i++) {
		if (vars[i].symbol == symbol) {
			*dev = vars[i].dev;
			*size = vars[i].size;
			found = 1;
		}
	}
	fh_unlock();
	return found;
}

hipError_t hipGetSymbolAddress(void **ptr, const void *symbol)
{
	char *dev;
	size_t size;

	FH_INIT();
	if (!ptr || !find(symbol, &dev, &size))
		return fh_ret(hipErrorInvalidSymbol);
	*ptr = dev;
	return fh_ret(hipSuccess);
}

hipError_t hipGetSymbolSize(size_t *n, const void *symbol)
{
	char *dev;
	size_t size;

	FH_INIT();
	if (!n || !find(symbol, &dev, &size))
		return fh_ret(hipErrorInvalidSymbol);
	*n = size;
	return fh_ret(hipSuccess);
}

/* to: host -> symbol; else symbol -> host.  The variable's end bounds the
 * copy. */
static hipError_t sym_copy(const char *api, int to, void *host,
			   const void *symbol, size_t n, size_t off, int kind)
{
	char *dev;
	size_t size;

	if (!find(symbol, &dev, &size))
		return fh_ret(hipErrorInvalidSymbol);
	if (off > size || n > size - off)
		return fh_ret(hipErrorInvalidValue);
	return to ? fh_copy(api, dev + off, host, n, kind)
		  : fh_copy(api, host, dev + off, n, kind);
}

#define FH_SYM(name, to, params, host, sym, n, off, kind)                      \
	FH_PUBLIC hipError_t name params                                                 \
	{                                                                      \
		FH_INIT();                                                     \
		return sym_copy(#name, to, (void *)(host), sym, n, off, kind); \
	}

FH_SYM(hipMemcpyToSymbol, 1, (const void *sym, const void *s, size_t n,
			      size_t off, hipMemcpyKind k), s, sym, n, off, k)
FH_SYM(hipMemcpyToSymbolAsync, 1,
       (const void *sym, const void *s, size_t n, size_t off, hipMemcpyKind k,
	hipStream_t st), s, sym, n, off, k)
FH_SYM(hipMemcpyToSymbol_spt, 1, (const void *sym, const void *s, size_t n,
				  size_t off, hipMemcpyKind k), s, sym, n, off,
       k)
FH_SYM(hipMemcpyToSymbolAsync_spt, 1,
       (const void *sym, const void *s, size_t n, size_t off, hipMemcpyKind k,
	hipStream_t st), s, sym, n, off, k)
FH_SYM(hipMemcpyFromSymbol, 0, (void *d, const void *sym, size_t n,
				size_t off, hipMemcpyKind k), d, sym, n, off, k)
FH_SYM(hipMemcpyFromSymbolAsync, 0,
       (void *d, const void *sym, size_t n, size_t off, hipMemcpyKind k,
	hipStream_t st), d, sym, n, off, k)
FH_SYM(hipMemcpyFromSymbol_spt, 0, (void *d, const void *sym, size_t n,
				    size_t off, hipMemcpyKind k), d, sym, n,
       off, k)
FH_SYM(hipMemcpyFromSymbolAsync_spt, 0,
       (void *d, const void *sym, size_t n, size_t off, hipMemcpyKind k,
	hipStream_t st), d, sym, n, off, k)
