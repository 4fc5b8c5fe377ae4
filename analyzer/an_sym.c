/* SPDX-License-Identifier: MIT */
/*
 * Call-site frames are return addresses in the traced process.  The
 * statedump's bin_info events say where each object was mapped, so one
 * offline libdwfl session per process, with every object reported at its
 * load address, turns addresses into function and file:line.
 */
#include "an_sym.h"
#include "co_scan.h"

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
 * them: walk the compile units' ranges instead.
 */
static const char *an_line_by_cu(Dwfl_Module *m, Dwarf_Addr pc, int *lineno)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = NULL;

	while ((cu = dwfl_module_nextcu(m, cu, &bias))) {
		Dwarf_Line *l;

		if (dwarf_haspc(cu, pc - bias) <= 0)
			continue;
		l = dwarf_getsrc_die(cu, pc - bias);
		if (l && dwarf_lineno(l, lineno) == 0)
			return dwarf_linesrc(l, NULL, NULL);
		return NULL;
	}
	return NULL;
}

static void an_sym_frame(Dwfl *d, uint64_t ret, struct an_frame *f)
{
	/* A return address points after the call: look up the call itself. */
	Dwarf_Addr pc = ret ? ret - 1 : 0;
	Dwfl_Module *m = d ? dwfl_addrmodule(d, pc) : NULL;
	const char *fn = m ? dwfl_module_addrname(m, pc) : NULL;
	Dwfl_Line *line = m ? dwfl_module_getsrc(m, pc) : NULL;
	const char *file = NULL;
	int lineno = 0;

	*f = (struct an_frame){.pc = ret};
	if (fn) {
		f->function = an_demangle(fn);
		if (!f->function)
			f->function = strdup(fn);
	}
	if (line)
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!file && m)
		file = an_line_by_cu(m, pc, &lineno);
	if (file) {
		f->file = strdup(file);
		f->line = lineno;
	}
}

int an_sym_callsite(struct an_proc *p, uint64_t callsite, struct an_frame *out,
		    int max)
{
	const struct an_callsite *cs =
		callsite ? an_map_get(&p->callsites, callsite) : NULL;
	Dwfl *d;
	int n;

	if (!cs)
		return 0;
	d = an_dwfl(p);
	n = cs->n < max ? cs->n : max;
	for (int i = 0; i < n; i++)
		an_sym_frame(d, cs->frames[i], &out[i]);
	return n;
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
