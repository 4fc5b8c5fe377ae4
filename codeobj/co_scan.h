/* SPDX-License-Identifier: MIT */
/* `hipgrain scan`: audit the code objects in files, as text or JSON. */
#ifndef CO_SCAN_H
#define CO_SCAN_H

#include <stdbool.h>
#include <stdio.h>

#include "co.h"

struct co_scan_opts {
	bool json;
	bool sarif;             /* SARIF 2.1.0 (co_scan_sarif.c); json is false */
	bool verbose;           /* text: every kernel, not only those at risk */
	const char *target;     /* only code objects compatible with this id */
	enum co_decoder decoder;
	FILE *out;              /* report */
	FILE *err;              /* "what, where, why" of unreadable inputs */
};

struct co_scan_stats {
	size_t files, files_bad, code_objects, kernels;
	size_t fp_kernels;      /* kernels with hardware FP atomics */
	size_t int_kernels;     /* others whose integer atomics misbehave */
	size_t fp_insns, int_insns, cas_insns;
	size_t sync_kernels;    /* kernels that synchronize at system scope */
	size_t not_decoded;     /* code objects of targets not decoded */
	bool target_unmatched;  /* --target matched no code object */
	size_t quiet_code_objects; /* text: not listed, nothing at risk */
};

/* Returns 0 when every file was read, -1 when at least one was not. */
int co_scan_run(const struct co_scan_opts *o, char *const *paths, int n,
		struct co_scan_stats *st);

/* The SARIF writer's pieces, called by co_scan_run(). */
void co_sarif_begin(FILE *out);
void co_sarif_kernel(FILE *out, bool *first, const char *path,
		     const struct co_entry *en, const struct co_profiles *p,
		     const struct co_kernel *k);
void co_sarif_end(FILE *out, bool ok);

/* Synchronization at system scope (co_scan_sync.c): a sys_sites list in
 * words ("acquire on 0 (a.hip:4), release on unknown"), a kernel's JSON
 * member "system_sync". */
void co_sync_words(FILE *f, const char *sites);
void co_sync_json(FILE *f, const struct co_kernel *k);

#endif
