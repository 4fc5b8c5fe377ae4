/* SPDX-License-Identifier: MIT */
/* Names for code: C++ demangling and call-site symbolisation (libdw). */
#ifndef AN_SYM_H
#define AN_SYM_H

#include <stdbool.h>
#include <stdint.h>

#include "an_state.h"

#define AN_MAX_FRAMES 16

struct an_frame {
	char *function; /* demangled when possible; NULL if unknown */
	char *file;	/* NULL without debug info */
	int line;
	uint64_t pc;
	bool inlined; /* inlined into the next frame, at the same pc */
	/* In an object of the system's libraries (/usr/lib, /lib: glibc,
	 * libstdc++), whose debug symbols may give it a file and line: never
	 * the user's call site. */
	bool system;
};

/* A malloc'ed demangled name, or NULL if name is not a mangled C++ name. */
char *an_demangle(const char *name);
/* Symbolises the frames of a call site of p, inlined calls expanded
 * (innermost first); returns how many. */
int an_sym_callsite(struct an_proc *p, uint64_t callsite, struct an_frame *out,
		    int max);
/*
 * As an_sym_callsite, but the frames of the system's libraries left bare
 * (their address only) unless the site depends on them: an_site_frame and
 * an_site_text give what they give on an_sym_callsite's frames.  For every
 * output that shows only the site, without opening the debug info of the
 * system's libraries (glibc's is compressed).
 */
int an_sym_site(struct an_proc *p, uint64_t callsite, struct an_frame *out,
		int max);
/* an_sym_site names every frame, as an_sym_callsite does: the reference
 * that tests compare the outputs against. */
extern bool an_sym_every_frame;
/* An object under /lib, /lib64, /usr/lib or /usr/lib64. */
bool an_path_is_system(const char *path);
/* A header of HIP, the C/C++ library or the compiler: not the user's code. */
bool an_file_is_library(const char *file);
void an_frames_free(struct an_frame *f, int n);
void an_sym_proc_fini(struct an_proc *p);

#endif
