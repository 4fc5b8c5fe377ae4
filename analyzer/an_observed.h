/* SPDX-License-Identifier: MIT */
/*
 * What the virtual GPU saw happen (hg_observe.h): how many launches its
 * interpreter ran, and the atomics that did nothing.  Each such row is set
 * beside the finding that predicted it; a row no finding predicted is said
 * as a note, for then the rules missed something the run showed.
 */
#ifndef AN_OBSERVED_H
#define AN_OBSERVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct an_ctx;
struct an_proc;
struct an_ev;

/* Distinct rows kept (proc, kernel, instruction, allocation); the rest
 * are counted only. */
#define AN_OBS_ROWS 256

struct an_finding;

struct an_obs_row;
struct an_obs_kernel;

struct an_exec {
	uint64_t ran, not_run, faulted; /* dispatches, by how they ended */
	struct an_proc *first_proc;	/* the first that did not run: where, */
	char first_kernel[160];		/* which kernel, */
	char first_why[128];		/* and why */
	struct an_obs_row *rows;
	size_t nrows;
	uint64_t rows_more;		/* lanes in rows past AN_OBS_ROWS */
	uint64_t unexplained;		/* lanes no finding predicted */
	struct an_obs_kernel *kernels;	/* runs to the end, by kernel */
	size_t nkernels;
};

/* A trace's result merged: rows from `from` on join its findings, `list`
 * (an_group_live.c). */
void an_observed_arrive(struct an_ctx *c, struct an_finding *list, size_t from);
void an_on_vgpu_dispatch(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
void an_on_vgpu_drop(struct an_ctx *c, struct an_proc *p, const struct an_ev *e);
/* A kernel's symbol as users read it: demangled where the trace named
 * the kernel; "(unnamed)" for "". */
const char *an_obs_label(struct an_proc *p, const char *symbol);
/* The kernel the trace registered under symbol, or NULL ("" or none). */
struct an_kernel *an_obs_find_kernel(struct an_proc *p, const char *symbol);
/* A place in a kernel's code: "app.hip:42", or "code offset 0x1a40"
 * where the code object had no line. */
void an_obs_place(char *buf, size_t cap, const char *line, uint64_t off);
/* Sets each row beside its finding, once every event is replayed. */
void an_observed_join(struct an_ctx *c);
/* Inline: an_state_fini frees it with the rest of the state, which the
 * rules build on, so the state never calls into this file. */
static inline void an_observed_fini(struct an_exec *x)
{
	free(x->rows);
	free(x->kernels);
	x->rows = NULL;
	x->kernels = NULL;
}
/* "on the virtual MI210, 65536 atomics (flat_atomic_add_f64) at
 * app.hip:65 did nothing", or that the run did not bear the verdict out,
 * for a finding of the atomics rules with `observed` lanes (its group's);
 * false when there is nothing observed to say. */
bool an_observed_text(const struct an_ctx *c, const struct an_finding *f,
		      uint64_t observed, char *buf, size_t cap);
/* The report's first line about the virtual GPU ("virtual MI210: 3
 * launches ran on ..."); false when no process ran on one. */
bool an_exec_sentence(const struct an_ctx *c, char *buf, size_t cap);

#endif
