/* SPDX-License-Identifier: MIT */
/* Names for code: C++ demangling and call-site symbolisation (libdw). */
#ifndef AN_SYM_H
#define AN_SYM_H

#include <stdint.h>

#include "an_state.h"

#define AN_MAX_FRAMES 8

struct an_frame {
	char *function; /* demangled when possible; NULL if unknown */
	char *file;	/* NULL without debug info */
	int line;
	uint64_t pc;
};

/* A malloc'ed demangled name, or NULL if name is not a mangled C++ name. */
char *an_demangle(const char *name);
/* Symbolises the frames of a call site of p; returns how many. */
int an_sym_callsite(struct an_proc *p, uint64_t callsite, struct an_frame *out,
		    int max);
void an_frames_free(struct an_frame *f, int n);
void an_sym_proc_fini(struct an_proc *p);

#endif
