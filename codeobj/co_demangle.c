/* SPDX-License-Identifier: MIT */
/*
 * Kernel names are mangled C++.  libstdc++'s __cxa_demangle does the work; it
 * is looked up at run time so that codeobj stays a C library with no C++
 * link dependency (and the preload, which absorbs codeobj, gains none).
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co_demangle.h"

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

static char *cxx_demangle(const char *mangled);

/* "<hex>_" at *s, advancing past it. */
static bool hex_field(const char **s)
{
	const char *p = *s;

	while (isxdigit((unsigned char)*p))
		p++;
	if (p == *s || *p != '_')
		return false;
	*s = p + 1;
	return true;
}

bool co_omp_region(const char *name, char *buf, size_t size)
{
	static const char prefix[] = "__omp_offloading_";
	const char *p = name, *fn, *l;
	char *f, *dm;
	long line;

	if (strncmp(p, prefix, sizeof(prefix) - 1))
		return false;
	p += sizeof(prefix) - 1;
	if (!hex_field(&p) || !hex_field(&p))
		return false;
	fn = p;
	l = strrchr(fn, '_');
	if (!l || l == fn || l[1] != 'l' || !isdigit((unsigned char)l[2]) ||
	    strspn(l + 2, "0123456789") != strlen(l + 2))
		return false;
	line = strtol(l + 2, NULL, 10);
	f = strndup(fn, (size_t)(l - fn));
	if (!f)
		return false;
	dm = cxx_demangle(f);
	/* A C++ function's region names the whole signature: keep its name. */
	snprintf(buf, size, "target region at line %ld in %s%s (file id %.*s)",
		 line, dm ? dm : f, dm ? "" : "()", (int)(fn - name - 18),
		 name + 17);
	free(dm);
	free(f);
	return true;
}

char *co_demangle(const char *mangled)
{
	char buf[512];

	if (co_omp_region(mangled, buf, sizeof buf))
		return strdup(buf);
	return cxx_demangle(mangled);
}

static char *cxx_demangle(const char *mangled)
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
