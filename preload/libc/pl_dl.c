/* SPDX-License-Identifier: MIT */
/*
 * dlopen and dlmopen as their caller would have them.  glibc looks a bare
 * file name up along the search path of the object that called dlopen (its
 * RPATH or RUNPATH, $ORIGIN expanded).  A wrapper becomes that caller:
 * liblttng-ust-dl.so, which `hipgrain run` preloads for the dlopen events
 * that symbolisation needs, hides the real caller's RUNPATH, and LLVM 15's
 * libomptarget, which finds its amdgpu plugin through its own RUNPATH,
 * then finds none, and every target region runs on the host.
 *
 * Ahead of that wrapper, a bare name is looked up here along the real
 * caller's path (dlinfo's RTLD_DI_SERINFO for the caller's link map), and
 * the next dlopen is given the file found.  What comes after those
 * directories in glibc's order (ld.so.cache, the default directories) does
 * not depend on the caller, so a name not found along them is passed on as
 * it came, as is a name some loaded object already answers to.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pl_boot.h"
#include "pl_export.h"

/* The search path of a link map rarely holds more than a few entries. */
#define PL_DL_SERINFO 8192

/* Whether a loaded object answers to name (glibc matches a bare name
 * against what is loaded before it searches): then name stays as it is. */
static bool pl_dl_loaded(const struct link_map *lm, const char *name)
{
	while (lm->l_prev)
		lm = lm->l_prev;
	for (; lm; lm = lm->l_next) {
		const char *base = strrchr(lm->l_name, '/');

		if (!strcmp(base ? base + 1 : lm->l_name, name))
			return true;
	}
	return false;
}

/* The directories of a search path, in glibc's order. */
static Dl_serinfo *pl_dl_path(struct link_map *lm, char *mem, size_t cap)
{
	Dl_serinfo *si = (Dl_serinfo *)mem;

	if (dlinfo(lm, RTLD_DI_SERINFOSIZE, si) || si->dls_size > cap ||
	    dlinfo(lm, RTLD_DI_SERINFO, si))
		return NULL;
	return si;
}

static struct link_map *pl_dl_map(const void *addr)
{
	struct link_map *lm = NULL;
	Dl_info info;

	return dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) ? lm : NULL;
}

/*
 * The file glibc would open for a dlopen of name called from code at from,
 * in buf; false: pass name on unchanged.  Only the caller's own directories
 * are searched: the tail its path shares with libc's, which has neither
 * RPATH nor RUNPATH, is the default directories, which the next dlopen
 * searches all the same.
 */
static bool pl_dl_find(const void *from, const char *name, char *buf,
		       size_t cap)
{
	alignas(Dl_serinfo) char mine[PL_DL_SERINFO], libc[PL_DL_SERINFO];
	struct link_map *lm = pl_dl_map(from), *lc = pl_dl_map((void *)&access);
	Dl_serinfo *si, *sc;
	unsigned own;

	if (!name || !*name || strchr(name, '/') || !lm || !lc || lm == lc)
		return false;
	si = pl_dl_path(lm, mine, sizeof(mine));
	sc = pl_dl_path(lc, libc, sizeof(libc));
	if (!si || !sc)
		return false;
	for (own = si->dls_cnt; own > 0 && sc->dls_cnt + own > si->dls_cnt;
	     own--) {
		unsigned j = sc->dls_cnt - (si->dls_cnt - own) - 1;

		if (strcmp(si->dls_serpath[own - 1].dls_name,
			   sc->dls_serpath[j].dls_name))
			break;
	}
	for (unsigned i = 0; i < own; i++)
		if ((size_t)snprintf(buf, cap, "%s/%s",
				     si->dls_serpath[i].dls_name, name) < cap &&
		    access(buf, F_OK) == 0)
			return !pl_dl_loaded(lm, name);
	return false;
}

PL_EXPORT void *dlopen(const char *name, int flags)
{
	static void *(*next)(const char *, int);
	char path[4096];

	if (!next)
		next = (void *(*)(const char *, int))pl_next_sym("dlopen");
	if (!next)
		return NULL;
	if (pl_dl_find(__builtin_return_address(0), name, path, sizeof(path)))
		name = path;
	return next(name, flags);
}

PL_EXPORT void *dlmopen(Lmid_t lmid, const char *name, int flags)
{
	static void *(*next)(Lmid_t, const char *, int);
	char path[4096];

	if (!next)
		next = (void *(*)(Lmid_t, const char *, int))pl_next_sym(
			"dlmopen");
	if (!next)
		return NULL;
	if (pl_dl_find(__builtin_return_address(0), name, path, sizeof(path)))
		name = path;
	return next(lmid, name, flags);
}
