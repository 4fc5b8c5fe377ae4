/* SPDX-License-Identifier: MIT */
/*
 * A hazard rule: its public id, default severity, a one-line summary and the
 * fix, next to the predicates replay calls at the events it cares about.
 * Each rule lives in rules/<id>.c; an_rules.c lists them.
 */
#ifndef AN_RULE_H
#define AN_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "an_state.h"
#include "co.h"

struct an_launch {
	struct an_proc *proc;
	struct an_kernel *kernel; /* NULL if the handle was never named */
	uint64_t handle;
	uint64_t callsite; /* where it was launched; 0 if not recorded */
	int32_t rc;
	int32_t device; /* the GPU it runs on (an_proc's cur_device) */
	uint8_t api;
};

/* One pointer argument of a launch, resolved by the preload. */
struct an_launch_arg {
	const struct an_launch *launch;
	struct an_alloc *alloc; /* NULL when it points into no known block */
	uint64_t id;		/* what the preload resolved at launch time */
	uint64_t value, offset;
	unsigned index;
	uint8_t mem, gran;
	bool first_touch; /* the first launch that hands this block to a GPU */
};

struct an_range_op {
	struct an_proc *proc;
	struct an_alloc *alloc;
	uint64_t addr, size, id, callsite;
	int32_t advice, rc;
	uint8_t api, mem;
	bool prefetch; /* hipMemPrefetchAsync; else hipMemAdvise */
	int32_t died;  /* the signal the process died of inside the call,
			* which never returned (rc is then 0); else 0 */
};

struct an_copy {
	struct an_proc *proc;
	struct an_alloc *dst_alloc, *src_alloc;
	uint64_t dst, src, size, dst_id, src_id, callsite;
	int32_t kind, rc;
	uint8_t api, dst_mem, src_mem;
	bool async, memset;
};

/* A granularity change the model or the program made (not a query). */
struct an_gran_ev {
	struct an_proc *proc;
	struct an_alloc *alloc;
	uint64_t addr, size;
	uint8_t gran, source; /* enum hg_gran, enum hg_gran_source */
};

struct an_free_ev {
	struct an_proc *proc;
	struct an_alloc *alloc; /* the block freed, NULL if unknown */
	uint64_t id, addr, callsite;
	int32_t rc;
	uint8_t api, alloc_api;
};

struct an_rule {
	const char *id;
	enum an_sev sev;
	const char *summary;
	const char *fix;
	/* The same fix for an OpenMP offload program (map, omp_target_alloc,
	 * its own release functions); NULL: `fix` fits both front ends. */
	const char *fix_omp;
	void (*on_alloc)(struct an_ctx *c, const struct an_rule *r,
			 struct an_proc *p, const struct an_alloc *a);
	void (*on_free)(struct an_ctx *c, const struct an_rule *r,
			const struct an_free_ev *f);
	void (*on_range)(struct an_ctx *c, const struct an_rule *r,
			 const struct an_range_op *o);
	void (*on_copy)(struct an_ctx *c, const struct an_rule *r,
			const struct an_copy *o);
	void (*on_launch)(struct an_ctx *c, const struct an_rule *r,
			  const struct an_launch *l);
	void (*on_launch_arg)(struct an_ctx *c, const struct an_rule *r,
			      const struct an_launch_arg *a);
	/* Whether on_launch_arg can find anything among a launch's arguments,
	 * asked once before them (a kernel without the atomics a rule is
	 * about, say); NULL: it can. */
	bool (*launch_args_matter)(const struct an_launch *l);
	/* The kinds of memory (AN_MEM_BIT) whose arguments on_launch_arg
	 * judges; 0: every kind.  It is not called for the others. */
	uint32_t arg_mems;
	void (*on_end)(struct an_ctx *c, const struct an_rule *r,
		       struct an_proc *p);
	/* The fix for one finding, at the allocation's call site `site`
	 * ("app.hip:42 (main)") or the finding's call's, `call` ("" when it
	 * has none); NULL: the rule's fix says it all. */
	void (*fix_at)(const struct an_finding *f, const char *site,
		       const char *call, char *buf, size_t cap);
	void (*on_gran)(struct an_ctx *c, const struct an_rule *r,
			const struct an_gran_ev *g);
};

extern const struct an_rule *const an_rules[];
extern const unsigned an_nrules;
const struct an_rule *an_rule_by_id(const char *id);

#define AN_MEM_BIT(mem) (1u << (mem))
#define AN_MAX_RULES 32 /* bits of a uint32_t rule set */

/* The hooks that replay calls for every event of their kind. */
enum an_hook { AN_ON_ALLOC, AN_ON_FREE, AN_ON_LAUNCH, AN_ON_LAUNCH_ARG,
	       AN_HOOKS };

/* The rules that have hook h, in an_rules' order: an event asks only
 * them, not every rule whether it has one. */
struct an_hooked {
	const struct an_rule *const *r; /* NULL until an_rules_hook_up */
	unsigned n;
};
extern struct an_hooked an_hooked[AN_HOOKS];
void an_rules_hook_up(void);

/* Asked at every event: the lists are made at the first. */
static inline const struct an_hooked *an_rules_hooked(enum an_hook h)
{
	if (!an_hooked[h].r)
		an_rules_hook_up();
	return &an_hooked[h];
}

/* The rules a launch's arguments are shown to (an_rules_arg.c): those with
 * on_launch_arg that say they matter for this launch, as a set of an_rules
 * indices (bit i: an_rules[i]). */
uint32_t an_rules_for_args(const struct an_launch *l);
/* Shows one argument to those of the set that judge its kind of memory, in
 * an_rules' order. */
void an_rules_on_arg(struct an_ctx *c, uint32_t rules,
		     const struct an_launch_arg *a);

/*
 * Records one occurrence.  Equal occurrences (rule, severity, kernel,
 * allocator, call site, process) only count; the message is formatted once.
 */
struct an_finding *an_find(struct an_ctx *c, const struct an_rule *r,
			   enum an_sev sev, struct an_proc *p,
			   struct an_kernel *k, const struct an_alloc *a,
			   const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* The same, about a call other than the allocation (f->call) and, for a
 * block used after its free, that free (f->freed): findings at different
 * calls stay apart.  Either may be NULL. */
struct an_finding *an_find_at(struct an_ctx *c, const struct an_rule *r,
			      enum an_sev sev, struct an_proc *p,
			      struct an_kernel *k, const struct an_alloc *a,
			      const struct an_call *call,
			      const struct an_call *freed, const char *fmt, ...)
	__attribute__((format(printf, 9, 10)));
/* The same, about one argument of a launch: blocks from one allocation
 * site handed to a kernel as two of its arguments are two findings (the
 * report folds them into one that names both), not one counted twice
 * under the first's index. */
struct an_finding *an_find_arg(struct an_ctx *c, const struct an_rule *r,
			       enum an_sev sev, struct an_proc *p,
			       struct an_kernel *k, const struct an_alloc *a,
			       unsigned arg, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* The same, about a race between two kernel lines at[0] and at[1] ("" when
 * unknown): each pair is a finding of its own. */
struct an_finding *an_find_race(struct an_ctx *c, const struct an_rule *r,
				enum an_sev sev, struct an_proc *p,
				struct an_kernel *k, const char at[2][96],
				const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* The occurrence counted if an equal one was recorded already, which is
 * returned; NULL if none was: the message an_find needs is to be formatted
 * only then. */
struct an_finding *an_count(struct an_ctx *c, const struct an_rule *r,
			    enum an_sev sev, struct an_proc *p,
			    struct an_kernel *k, const struct an_alloc *a);

/* Helpers the predicates share. */
bool an_mem_is_host(uint8_t mem);
bool an_mem_is_fine(uint8_t gran);
const char *an_kernel_label(const struct an_kernel *k);
/* An OpenMP target region's kernel, by the name its compiler gives it. */
bool an_kernel_is_omp(const struct an_kernel *k);
/* Whether a finding belongs to an OpenMP offload program: its kernel is a
 * target region, its block came from an OpenMP allocator, or its process
 * offloaded through OpenMP. */
bool an_finding_is_omp(const struct an_finding *f);
/* The rule's general fix, in the words of the finding's front end. */
const char *an_rule_fix(const struct an_finding *f);
/* The GPU faults on this argument (system memory, XNACK off): other rules
 * about what the access would do stay silent, the fault comes first. */
bool an_arg_faults(const struct an_launch_arg *a);
/*
 * Whether the atomics of one class (a kernel's fp_sites or int_sites) may
 * reach argument arg; *at gets the kernel line of the first one on it ("" if
 * unknown).  Unattributed atomics ("?", or a trace that does not say) may
 * reach any argument.
 */
bool an_sites_reach(const char *sites, unsigned arg, char *at, size_t cap);
/*
 * The same, counting only atomics whose operation is in mask (enum hg_aop
 * bits); *ops gets the operations named on arg.  Entries that name no
 * operation (FP sites, older traces) count as any, and leave *ops 0.
 */
bool an_sites_reach_ops(const char *sites, unsigned arg, uint32_t mask,
			uint32_t *ops, char *at, size_t cap);
/* The scope an atomic asks for, as the sites say it: MI300's atomics are
 * marked system or agent scope; others, and older traces, are unmarked. */
#define AN_SCOPE_UNMARKED CO_SITE_UNMARKED
#define AN_SCOPE_AGENT CO_SITE_AGENT
#define AN_SCOPE_SYSTEM CO_SITE_SYSTEM
#define AN_SCOPES_ALL CO_SITES_ALL
/* As an_sites_reach, counting only entries of the scopes asked for. */
bool an_sites_reach_scoped(const char *sites, unsigned arg, unsigned scopes,
			   char *at, size_t cap);
/* " (offset N of a split range: coarse at [0, 4096), fine at ...)" when the
 * argument's block was split by advice; else "". */
const char *an_split_note(const struct an_launch_arg *a, char *buf, size_t cap);

#endif
