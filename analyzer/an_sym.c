/* SPDX-License-Identifier: MIT */
/*
 * Call-site frames are return addresses in the traced process.  The
 * statedump's bin_info events say where each object was mapped, so one
 * offline libdwfl session per process, with every object reported at its
 * load address, turns addresses into function and file:line.
 */
#include "an_sym.h"
#include "an_output.h"
#include "co_demangle.h"
#include "co_scan.h"
#include "hg_srcpath.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler; C linkage, so C can call it. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *an_demangle(const char *name)
{
	char region[512];
	int status = -1;
	char *d;

	/* An OpenMP target region's kernel: where its author wrote it. */
	if (name && co_omp_region(name, region, sizeof(region)))
		return strdup(region);
	if (!name || strncmp(name, "_Z", 2))
		return NULL;
	d = __cxa_demangle(name, NULL, NULL, &status);
	if (status) {
		free(d);
		return NULL;
	}
	return d;
}

static const Dwfl_Callbacks an_dwfl_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static Dwfl *an_dwfl(struct an_proc *p)
{
	Dwfl *d;

	if (p->dwfl)
		return p->dwfl;
	d = dwfl_begin(&an_dwfl_cb);
	if (!d)
		return NULL;
	dwfl_report_begin(d);
	for (size_t i = 0; i < p->nbins; i++) {
		const struct an_bin *b = &p->bins[i];

		if (b->path[0] != '/')
			continue; /* [vdso] and the like */
		dwfl_report_elf(d, b->path, b->path, -1,
				b->is_pic ? b->baddr : 0, false);
	}
	dwfl_report_end(d, NULL, NULL);
	p->dwfl = d;
	return d;
}

/*
 * clang (hipcc) emits no .debug_aranges, and libdw's address lookup needs
 * them: walk the compile units' ranges when it finds nothing.
 */
static Dwarf_Die *an_cu_of(Dwfl_Module *m, Dwarf_Addr pc, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(m, pc, bias);

	if (cu)
		return cu;
	while ((cu = dwfl_module_nextcu(m, cu, bias)))
		if (dwarf_haspc(cu, pc - *bias) > 0)
			return cu;
	return NULL;
}

static char *an_dup_name(const char *name)
{
	char *d = an_demangle(name);

	return d ? d : name ? strdup(name) : NULL;
}

/* An inlined scope's function: its linkage name demangled, else its name. */
static char *an_scope_name(Dwarf_Die *scope)
{
	Dwarf_Attribute a;
	const char *s =
		dwarf_formstring(dwarf_attr_integrate(scope, DW_AT_linkage_name, &a));

	if (!s)
		s = dwarf_formstring(dwarf_attr_integrate(scope, DW_AT_name, &a));
	return an_dup_name(s);
}

/* Where an inlined scope was called from: DW_AT_call_file/call_line. */
static void an_call_site(Dwarf_Die *cu, Dwarf_Die *scope, const char **file,
			 int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx, l;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_file, &a), &idx) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && idx < nfiles)
		*file = dwarf_filesrc(files, idx, NULL, NULL);
	if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_line, &a), &l) == 0)
		*line = (int)l;
}

static void an_put(struct an_frame *f, uint64_t pc, char *fn, const char *file,
		   int line, bool inlined, bool sys)
{
	*f = (struct an_frame){.pc = pc, .function = fn, .line = line,
			       .inlined = inlined, .system = sys};
	if (file)
		f->file = strdup(file);
}

/*
 * The scopes around pc, innermost first, as the code nests them: each
 * inlined call inside the one it was inlined into.  dwarf_getscopes
 * follows an inlined scope to its abstract definition, which loses the
 * calls around it (a std::vector's allocation, inlined five deep, would
 * end at the first); the parents of its innermost scope are the chain.
 */
static int an_sym_scopes(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **out)
{
	Dwarf_Die *scopes = NULL, inner;
	int n = dwarf_getscopes(cu, pc, &scopes);

	*out = scopes;
	if (n <= 0)
		return n;
	inner = scopes[0];
	free(scopes);
	*out = NULL;
	return dwarf_getscopes_die(&inner, out);
}

/*
 * One return address as the frames it stands for: each inlined scope around
 * the call, innermost first, at the line inside it, then the function the
 * code was inlined into, at the line that called the outermost inline.
 */
static int an_sym_pc(Dwfl *d, uint64_t ret, struct an_frame *out, int max)
{
	/* A return address points after the call: look up the call itself. */
	Dwarf_Addr pc = ret ? ret - 1 : 0, bias = 0;
	Dwfl_Module *m = d ? dwfl_addrmodule(d, pc) : NULL;
	Dwarf_Die *cu = m ? an_cu_of(m, pc, &bias) : NULL, *scopes = NULL;
	Dwarf_Line *l = cu ? dwarf_getsrc_die(cu, pc - bias) : NULL;
	const char *file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	int line = 0, n = 0, ns = cu ? an_sym_scopes(cu, pc - bias, &scopes) : 0;
	/* Modules are reported under their path (an_dwfl). */
	const char *mod = m ? dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL,
					       NULL, NULL) : NULL;
	bool sys = an_path_is_system(mod);

	if (l)
		dwarf_lineno(l, &line);
	for (int i = 0; i < ns && n < max - 1; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		an_put(&out[n++], ret, an_scope_name(&scopes[i]), file, line,
		       true, sys);
		an_call_site(cu, &scopes[i], &file, &line);
	}
	free(scopes);
	an_put(&out[n++], ret,
	       an_dup_name(m ? dwfl_module_addrname(m, pc) : NULL), file, line,
	       false, sys);
	return n;
}

bool an_sym_every_frame;

/* Whether a return address lies in an object of the system's libraries:
 * its module's path is enough, no debug info is opened. */
static bool an_pc_is_system(Dwfl *d, uint64_t ret)
{
	Dwfl_Module *m = d ? dwfl_addrmodule(d, ret ? ret - 1 : 0) : NULL;

	return m && an_path_is_system(dwfl_module_info(m, NULL, NULL, NULL,
						       NULL, NULL, NULL, NULL));
}

/* The frames of cs; with `bare`, each frame in a system library as its
 * address alone (one frame, no name, no file). */
static int an_sym_frames(struct an_proc *p, const struct an_callsite *cs,
			 struct an_frame *out, int max, bool bare)
{
	Dwfl *d = an_dwfl(p);
	int n = 0;

	for (int i = 0; i < cs->n && n < max; i++) {
		if (bare && an_pc_is_system(d, cs->frames[i]))
			an_put(&out[n++], cs->frames[i], NULL, NULL, 0, false,
			       true);
		else
			n += an_sym_pc(d, cs->frames[i], &out[n], max - n);
	}
	return n;
}

int an_sym_callsite(struct an_proc *p, uint64_t callsite, struct an_frame *out,
		    int max)
{
	const struct an_callsite *cs =
		callsite ? hg_map_get(&p->callsites, callsite) : NULL;

	return cs ? an_sym_frames(p, cs, out, max, false) : 0;
}

/*
 * Which frame names the site: an_site_frame's, else the first named frame
 * (an_site_text's fallback).  Among frames whose system libraries were left
 * bare, it is also the one the whole frames give when it comes before the
 * first bare frame: up to there both lists are the same frames, and no
 * frame after it can take its place (each of an_site_frame's rules takes
 * the first frame that passes it, and a bare frame passes none).
 */
static bool an_site_settled(const struct an_frame *f, int n)
{
	int i = an_site_frame(f, n), first_bare = n;

	for (int j = 0; j < n && first_bare == n; j++)
		if (f[j].system)
			first_bare = j;
	for (int j = 0; i < 0 && j < n; j++)
		if (f[j].function)
			i = j;
	return i >= 0 && i < first_bare;
}

int an_sym_site(struct an_proc *p, uint64_t callsite, struct an_frame *out,
		int max)
{
	const struct an_callsite *cs =
		callsite ? hg_map_get(&p->callsites, callsite) : NULL;
	int n;

	if (!cs)
		return 0;
	if (an_sym_every_frame)
		return an_sym_frames(p, cs, out, max, false);
	n = an_sym_frames(p, cs, out, max, true);
	if (an_site_settled(out, n))
		return n;
	an_frames_free(out, n);
	return an_sym_frames(p, cs, out, max, false);
}

bool an_path_is_system(const char *path)
{
	static const char *const dirs[] = {"/lib/", "/lib64/", "/usr/lib/",
					   "/usr/lib64/"};

	for (size_t i = 0; path && i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

void an_frames_free(struct an_frame *f, int n)
{
	for (int i = 0; i < n; i++) {
		free(f[i].function);
		free(f[i].file);
	}
}

void an_sym_proc_fini(struct an_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
}
