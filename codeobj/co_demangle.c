/* SPDX-License-Identifier: MIT */
/*
 * Kernel names are mangled C++.  libstdc++'s __cxa_demangle does the work; it
 * is looked up at run time so that codeobj stays a C library with no C++
 * link dependency (and the preload, which absorbs codeobj, gains none).
 */
#include <dlfcn.h>
#include <stdlib.h>

#include "co_scan.h"

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

static demangle_fn find_demangler(void)
{
	void *f = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!f) {
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		f = h ? dlsym(h, "__cxa_demangle") : NULL;
	}
	return (demangle_fn)f;
}

char *co_demangle(const char *mangled)
{
	/* scan runs single-threaded; a repeated lookup would be harmless */
	static demangle_fn fn;
	static int looked;
	if (!looked) {
		fn = find_demangler();
		looked = 1;
	}
	if (!fn || mangled[0] != '_' || mangled[1] != 'Z')
		return NULL;
	int status = 0;
	char *d = fn(mangled, NULL, NULL, &status);
	if (status) {
		free(d);
		return NULL;
	}
	return d;
}
