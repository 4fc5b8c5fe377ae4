/* SPDX-License-Identifier: MIT */
/*
 * Observed fact beside inference: the virtual GPU's dispatch and drop
 * events, kept as rows of (process, kernel, instruction, allocation) and,
 * once replay ends, set beside the atomics finding on the same kernel and
 * allocation.  The join waits for the end because the interpreter runs on
 * its own thread: a drop may be written before the launch that caused it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_atomic.h"
#include "an_rows.h"
#include "an_names.h"
#include "an_link.h"
#include "an_observed.h"
#include "an_output.h"
#include "an_rule.h"
#include "an_schema.h"
#include "an_state.h"
#include "hg_observe.h"

/* Dispatches of one kernel, by how they ended. */
static void copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

/* Past the cap a kernel's dispatches go uncounted: nothing is then said
 * of them beside a finding. */
static struct an_obs_kernel *kernel_of(struct an_exec *x, struct an_proc *p)
{
	for (size_t i = 0; i < x->nkernels; i++)
		if (x->kernels[i].proc == p && !strcmp(x->kernels[i].name, p->obs_kernel))
			return &x->kernels[i];
	if (!x->kernels)
		x->kernels = calloc(AN_OBS_ROWS, sizeof(*x->kernels));
	if (!x->kernels || x->nkernels == AN_OBS_ROWS)
		return NULL;
	struct an_obs_kernel *k = &x->kernels[x->nkernels++];
	k->proc = p;
	copy(k->name, sizeof(k->name), p->obs_kernel);
	return k;
}

static const struct an_obs_kernel *dispatches_of(const struct an_exec *x,
						 const struct an_finding *f)
{
	for (size_t i = 0; i < x->nkernels; i++)
		if (x->kernels[i].proc == f->proc && f->kernel && f->kernel->name &&
		    !strcmp(x->kernels[i].name, f->kernel->name))
			return &x->kernels[i];
	return NULL;
}

void an_on_vgpu_dispatch(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct an_exec *x = &c->exec;
	int32_t st = (int32_t)an_ev_i64(e, F_VD_STATUS);

	p->obs_kd = an_ev_u64(e, F_VD_KD);
	copy(p->obs_kernel, sizeof(p->obs_kernel), an_ev_str(e, F_VD_KERNEL));
	struct an_obs_kernel *k = st == HG_EXEC_DONE || st == HG_EXEC_FAULT
					  ? kernel_of(x, p) : NULL;

	if (st == HG_EXEC_DONE) {
		x->ran++;
		if (k)
			k->ran++;
		return;
	}
	if (st == HG_EXEC_FAULT) {
		p->gpu_faulted = true;
		x->faulted++;
		if (k)
			k->faulted++;
		return;
	}
	if (x->not_run++)
		return;
	x->first_proc = p;
	copy(x->first_kernel, sizeof(x->first_kernel), p->obs_kernel);
	if (st == HG_EXEC_UNKNOWN)
		snprintf(x->first_why, sizeof(x->first_why), "the interpreter lacks %s",
			 an_ev_str(e, F_VD_WHAT));
	else if (st == HG_EXEC_BUDGET)
		snprintf(x->first_why, sizeof(x->first_why),
			 "it ran past the virtual GPU's budget of %s wave-instructions",
			 an_ev_str(e, F_VD_WHAT));
	else if (st == HG_EXEC_TOO_LARGE)
		snprintf(x->first_why, sizeof(x->first_why),
			 "its work-group asks for %s, more than the hardware has",
			 an_ev_str(e, F_VD_WHAT));
	else
		copy(x->first_why, sizeof(x->first_why),
		     st == HG_EXEC_BAD_CODE ? "its code could not be read" : "out of memory");
}

static bool same_row(const struct an_obs_row *r, const struct an_proc *p,
		     const char *kernel, const char *op, uint64_t code_off,
		     const struct an_alloc *a)
{
	return r->proc == p && r->code_off == code_off && !strcmp(r->kernel, kernel) &&
	       !strcmp(r->op, op) && r->has_alloc == (a != NULL) &&
	       (!a || (r->alloc.api == a->api && r->alloc.callsite == a->callsite));
}

void an_on_vgpu_drop(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct an_exec *x = &c->exec;
	uint64_t id = an_ev_u64(e, F_VX_ID), n = an_ev_u64(e, F_VX_COUNT);
	uint64_t off = an_ev_u64(e, F_VX_CODE_OFF);
	const char *op = an_ev_str(e, F_VX_OP);
	/* The row follows its dispatch on the same thread. */
	const char *kernel = p->obs_kd == an_ev_u64(e, F_VX_KD) ? p->obs_kernel : "";
	struct an_alloc *a = id ? an_alloc_get(p, id) : NULL;

	if (id && !a)
		a = an_freed_by_id(p, id);
	for (size_t i = 0; i < x->nrows; i++)
		if (same_row(&x->rows[i], p, kernel, op, off, a)) {
			x->rows[i].count += n;
			return;
		}
	if (x->nrows == AN_OBS_ROWS || !x->rows) {
		if (!x->rows)
			x->rows = calloc(AN_OBS_ROWS, sizeof(*x->rows));
		if (!x->rows || x->nrows == AN_OBS_ROWS) {
			x->rows_more += n;
			return;
		}
	}
	struct an_obs_row *r = &x->rows[x->nrows++];
	*r = (struct an_obs_row){ .proc = p, .code_off = off, .count = n,
				  .has_alloc = a != NULL };
	copy(r->kernel, sizeof(r->kernel), kernel);
	copy(r->op, sizeof(r->op), op);
	if (a)
		r->alloc = *a;
}

static const struct an_rule *rule_fp, *rule_int, *rule_fault;

static void rules_known(void)
{
	if (rule_fp)
		return;
	rule_fp = an_rule_by_id("fp-atomic-fine-grain");
	rule_int = an_rule_by_id("int-atomic-fine-host");
	rule_fault = an_rule_by_id("pageable-kernel-arg-no-xnack");
}

/* The atomics rules, whose verdict a drop confirms. */
static bool predicts(const struct an_finding *f)
{
	rules_known();
	return f->rule == rule_fp || f->rule == rule_int;
}

/* The rule whose verdict a memory access fault confirms. */
static bool predicts_fault(const struct an_finding *f)
{
	rules_known();
	return f->rule == rule_fault;
}

static struct an_finding *finding_of(struct an_finding *list, const struct an_obs_row *r)
{
	for (struct an_finding *f = list; f; f = f->all_next)
		if (predicts(f) && f->proc == r->proc && f->kernel && f->kernel->name &&
		    !strcmp(f->kernel->name, r->kernel) && f->has_alloc == r->has_alloc &&
		    (!r->has_alloc || (f->alloc.api == r->alloc.api &&
				       f->alloc.callsite == r->alloc.callsite)))
			return f;
	return NULL;
}

struct by_name {
	const char *name;
	struct an_kernel *k;
};

static void match_name(void *val, void *arg)
{
	struct by_name *b = arg;
	struct an_kernel *k = val;

	if (!b->k && k->name && !strcmp(k->name, b->name))
		b->k = k;
}

struct an_kernel *an_obs_find_kernel(struct an_proc *p, const char *symbol)
{
	struct by_name b = { symbol, NULL };

	if (symbol[0])
		hg_map_each(&p->kernels, match_name, &b);
	return b.k;
}

const char *an_obs_label(struct an_proc *p, const char *symbol)
{
	const struct an_kernel *k;

	if (!symbol[0])
		return "(unnamed)";
	k = an_obs_find_kernel(p, symbol);
	return k ? an_kernel_label(k) : symbol;
}

void an_obs_place(char *buf, size_t cap, const char *line, uint64_t off)
{
	if (line && *line)
		snprintf(buf, cap, "%s", line);
	else
		snprintf(buf, cap, "code offset 0x%llx", (unsigned long long)off);
}

/* The virtual GPU the process ran on: a merged report's processes each
 * have their own. */
static const char *vgpu_of(const struct an_ctx *c, const struct an_proc *p)
{
	return p && p->vgpu[0] ? p->vgpu : c->vgpu;
}

/* It with the conditions of the model: "MI210 (PCIe, AtomicOps)". */
static const char *vgpu_said(const struct an_ctx *c, const struct an_proc *p,
			     char *buf, size_t cap)
{
	return an_link_vgpu_text(vgpu_of(c, p), buf, cap);
}

static void say_unexplained(struct an_ctx *c, const struct an_obs_row *r)
{
	char where[160], gpu[96];

	an_where(r->proc, where, sizeof(where));
	an_warn(c, "observed on the virtual %s: %llu atomics (%s) of kernel %s did "
		   "nothing in %s memory%s%s, and no finding predicted it (in %s)",
		vgpu_said(c, r->proc, gpu, sizeof(gpu)), (unsigned long long)r->count, r->op,
		an_obs_label(r->proc, r->kernel),
		r->has_alloc ? an_gran_name(r->alloc.gran) : "unknown",
		r->has_alloc ? " from " : "",
		r->has_alloc ? an_api_name(r->alloc.api) : "", where);
}

/* Each operation the drops were of, once: a max and an or beside it are
 * both named, never the one counted under the other's name. */
static void add_op(struct an_finding *f, const char *op)
{
	size_t n = strlen(f->observed_op), len = strlen(op);

	for (const char *p = f->observed_op; (p = strstr(p, op)); p += len)
		if ((p == f->observed_op || p[-1] == ' ') &&
		    (p[len] == ',' || !p[len]))
			return;
	if (n + len + 3 < sizeof(f->observed_op))
		snprintf(f->observed_op + n, sizeof(f->observed_op) - n, "%s%s",
			 n ? ", " : "", op);
}

void an_observed_join(struct an_ctx *c)
{
	struct an_exec *x = &c->exec;

	if (x->first_proc)
		copy(x->first_kernel, sizeof(x->first_kernel),
		     an_obs_label(x->first_proc, x->first_kernel));
	for (size_t i = 0; i < x->nrows; i++) {
		const struct an_obs_row *r = &x->rows[i];
		struct an_finding *f;

		if (r->joined)
			continue; /* its finding took it as its trace arrived */
		if (!(f = finding_of(c->findings, r))) {
			x->unexplained += r->count;
			say_unexplained(c, r);
			continue;
		}
		f->observed += r->count;
		add_op(f, r->op);
	}
	if (x->rows_more)
		an_warn(c, "the virtual GPU saw %llu more atomics do nothing, in more "
			   "places than the report keeps apart",
			(unsigned long long)x->rows_more);
}

/* As a trace's result arrives: its rows (from `from` on) join its findings
 * now, before the findings merge into groups; the rest stay for
 * an_observed_join, which says them unexplained in their order.  A row
 * is of one trace's process, so only that trace's findings can take it. */
void an_observed_arrive(struct an_ctx *c, struct an_finding *list, size_t from)
{
	struct an_exec *x = &c->exec;

	for (size_t i = from; i < x->nrows; i++) {
		struct an_obs_row *r = &x->rows[i];
		struct an_finding *f = finding_of(list, r);

		if (!f)
			continue;
		f->observed += r->count;
		add_op(f, r->op);
		r->joined = true;
	}
}

bool an_observed_text(const struct an_ctx *c, const struct an_finding *f,
		      uint64_t observed, char *buf, size_t cap)
{
	const struct an_obs_kernel *k;
	char said[96];
	const char *gpu = vgpu_of(c, f->proc);

	if (!gpu[0] || !(k = dispatches_of(&c->exec, f)))
		return false;
	gpu = vgpu_said(c, f->proc, said, sizeof(said));
	if (predicts_fault(f)) {
		if (k->faulted)
			snprintf(buf, cap, "on the virtual %s, the kernel stopped at a memory "
					   "access fault %llu time%s",
				 gpu, (unsigned long long)k->faulted,
				 k->faulted == 1 ? "" : "s");
		else
			snprintf(buf, cap, "on the virtual %s, the kernel ran %llu time%s with "
					   "no memory access fault: the verdict is not borne out by "
					   "the run",
				 gpu, (unsigned long long)k->ran, k->ran == 1 ? "" : "s");
		return k->faulted || k->ran;
	}
	if (!predicts(f))
		return false;
	if (observed) {
		char at[320];

		an_atomic_lines_text(f->atomic_lines, NULL, at, sizeof(at));
		if (!at[0] && f->atomic_at[0])
			snprintf(at, sizeof(at), " at %s", f->atomic_at);
		snprintf(buf, cap, "on the virtual %s, %llu atomics (%s)%s did nothing",
			 gpu, (unsigned long long)observed, f->observed_op, at);
		return true;
	}
	/* A scope downgrade is not seen in what a run computes. */
	if (f->sev != AN_SEV_ERROR || !k->ran)
		return false;
	snprintf(buf, cap, "on the virtual %s, the kernel ran %llu time%s and none of "
			   "its atomics into this memory did nothing: the verdict is not "
			   "borne out by the run",
		 gpu, (unsigned long long)k->ran, k->ran == 1 ? "" : "s");
	return true;
}

bool an_exec_sentence(const struct an_ctx *c, char *buf, size_t cap)
{
	const struct an_exec *x = &c->exec;
	const char *tail = "the findings come from what the runtime asked of its "
			   "driver and from the kernels' code";
	uint64_t all = x->ran + x->not_run + x->faulted;
	size_t n;

	if (!c->vgpu[0])
		return false;
	/* hipgrain run --force-gpu: the runtime could not drive the product,
	 * which is why nothing reached the interpreter. */
	if (!all && c->vgpu_why[0]) {
		snprintf(buf, cap, "virtual %s: no kernel ran: %s; %s", c->vgpu, c->vgpu_why,
			 tail);
		return true;
	}
	if (!c->vgpu_exec) {
		snprintf(buf, cap, "virtual %s: kernels were not executed; %s", c->vgpu, tail);
		return true;
	}
	if (!all) {
		snprintf(buf, cap, "virtual %s: kernels ran on hipgrain's interpreter with "
				   "the product's memory semantics (no launch reached it); %s",
			 c->vgpu, tail);
		return true;
	}
	if (x->ran == all)
		n = (size_t)snprintf(buf, cap, "virtual %s: %llu launch%s ran on hipgrain's "
					       "interpreter with the product's memory semantics",
				     c->vgpu, (unsigned long long)all, all == 1 ? "" : "es");
	else
		n = (size_t)snprintf(buf, cap, "virtual %s: %llu of %llu launches ran on "
					       "hipgrain's interpreter with the product's "
					       "memory semantics",
				     c->vgpu, (unsigned long long)x->ran,
				     (unsigned long long)all);
	if (n < cap && x->faulted)
		n += (size_t)snprintf(buf + n, cap - n, "; %llu stopped at a memory access "
							"fault",
				      (unsigned long long)x->faulted);
	if (n < cap && x->not_run)
		n += (size_t)snprintf(buf + n, cap - n,
				      "; %llu did not run (the first, kernel %s: %s), so "
				      "for %s only the inferred verdicts hold",
				      (unsigned long long)x->not_run, x->first_kernel,
				      x->first_why, x->not_run == 1 ? "it" : "them");
	if (n < cap)
		snprintf(buf + n, cap - n, "; %s", tail);
	return true;
}
