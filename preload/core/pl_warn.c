/* SPDX-License-Identifier: MIT */
/*
 * HIPGRAIN_WARN=1: say on stderr, while the program runs, when a launch
 * hands an atomic kernel memory on which codeobj's rule table says its
 * atomics do nothing or lose scope.  Once per (kernel, allocation).  The
 * offline report remains the full verdict; this is the early word, and it
 * judges as the report does: only the atomics that reach the argument, and
 * for a scope downgrade only those that ask for system scope.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "co.h"
#include "co_rules.h"
#include "co_demangle.h"
#include "hg_env.h"
#include "hg_events.h"
#include "pl_device.h"
#include "pl_hip.h"
#include "pl_warn.h"
#include "reg.h"
#include "hg_spin.h"
#include "vg_node.h"

#define SEEN 256

static int enabled = -1;
static hg_spin_t lock = HG_SPIN_INIT;
static uint64_t seen[SEEN][2];
static unsigned nseen;

static int first_time(uint64_t handle, uint64_t id)
{
	int fresh = 1;

	hg_spin_lock(&lock);
	for (unsigned i = 0; i < nseen && fresh; i++)
		fresh = !(seen[i][0] == handle && seen[i][1] == id);
	if (fresh && nseen < SEEN) {
		seen[nseen][0] = handle;
		seen[nseen++][1] = id;
	}
	hg_spin_unlock(&lock);
	return fresh;
}

static const char *const mem_names[] = {
#define HG_X(v, id, name) [v] = name,
	HG_MEM_LIST(HG_X)
#undef HG_X
};

/* The operations of k's atomics that may reach argument arg in the scopes
 * asked for; *at gets the kernel line of the first one found. */
static uint32_t reaching(const struct reg_kernel *k, int arg, unsigned scopes,
			 char *at, size_t cap)
{
	uint32_t named, ops = 0;
	char line[96];

	at[0] = '\0';
	if (co_sites_reach(k->fp_sites, (unsigned)arg, ~0u, scopes, &named,
			   line, sizeof(line))) {
		ops |= k->atomic_ops & HG_AOP_FP_MASK;
		snprintf(at, cap, "%s", line);
	}
	if (co_sites_reach(k->int_sites, (unsigned)arg, ~0u, scopes, &named,
			   line, sizeof(line))) {
		/* An entry that names no operation may be any of them. */
		ops |= named ? named : k->atomic_ops & ~HG_AOP_FP_MASK;
		if (!at[0])
			snprintf(at, cap, "%s", line);
	}
	return ops;
}

/* What the atomics reaching the argument do there; a downgrade counts
 * only system-scope (or unmarked) atomics, as the report's rule does.
 * The machine is the virtual product's, as the report judges it
 * (analyzer/an_link.c); on a real GPU AMD's tables' lookup assumes what
 * it must. */
static enum co_effect judge(const struct reg_kernel *k, int arg,
			    const char *arch, uint8_t mem, uint8_t gran,
			    struct co_rule_result *r, char *at, size_t cap)
{
	uint32_t ops = reaching(k, arg, CO_SITES_ALL, at, cap);
	struct isa_atab_facts facts;
	enum co_effect e;

	if (!ops)
		return CO_EFFECT_OK;
	vg_node_facts(hg_env_get(HG_ENV_VIRTUAL_GPU), &facts);
	e = co_rule_lookup(arch, &facts, ops, (enum hg_mem)mem, (enum hg_gran)gran, r);
	if (e != CO_EFFECT_DOWNGRADED)
		return e;
	ops = reaching(k, arg, CO_SITE_SYSTEM | CO_SITE_UNMARKED, at, cap);
	return ops ? co_rule_lookup(arch, &facts, ops, (enum hg_mem)mem,
				    (enum hg_gran)gran, r)
		   : CO_EFFECT_OK;
}

/* Appends one sites list's lines (co_sites_lines' "max@a.hip:85;...") to
 * at, after its first `start` bytes: "max at a.hip:85", or the line alone
 * where no operation is named (FP atomics). */
static size_t put_lines(const char *lines, char *at, size_t start, size_t o,
			size_t cap)
{
	for (const char *p = lines; *p && o < cap;) {
		size_t n = strcspn(p, ";"), m = strcspn(p, "@");

		if (m < n)
			o += (size_t)snprintf(at + o, cap - o, "%s%.*s%s%.*s",
					      o > start ? ", " : "", (int)m, p,
					      m ? " at " : "",
					      (int)(n - m - 1), p + m + 1);
		p += n + (p[n] == ';');
	}
	return o;
}

/* Each atomic whose effect r names at its own line, never a safe one's
 * beside them: " (max at a.hip:85, or at a.hip:86)" for integer atomics,
 * " at a.hip:65" for FP ones; "" when none has a line. */
static void risky_lines(const struct reg_kernel *k, int arg,
			const struct co_rule_result *r, char *at, size_t cap)
{
	unsigned scopes = r->effect == CO_EFFECT_DOWNGRADED
				  ? CO_SITE_SYSTEM | CO_SITE_UNMARKED
				  : CO_SITES_ALL;
	char fp[192], in[192];
	size_t o;

	co_sites_lines(k->fp_sites, (unsigned)arg, r->ops, scopes, fp, sizeof(fp));
	co_sites_lines(k->int_sites, (unsigned)arg, r->ops, scopes, in, sizeof(in));
	at[0] = '\0';
	if (fp[0]) {
		o = (size_t)snprintf(at, cap, " at ");
		put_lines(fp, at, o, o, cap);
	} else if (in[0]) {
		o = (size_t)snprintf(at, cap, " (");
		o = put_lines(in, at, o, o, cap);
		if (o + 1 < cap)
			strcat(at, ")");
	}
}

int pl_warn_wanted(const struct reg_kernel *k)
{
	if (enabled < 0)
		enabled = !strcmp(hg_env_get(HG_ENV_WARN), "1");
	return enabled && k->atomic_ops;
}

void pl_warn_launch(const struct reg_kernel *k, int arg, uint64_t id,
		    uint8_t mem, uint8_t gran)
{
	const char *arch;
	struct co_rule_result r;
	char msg[1024], line[96], at[256] = "", *dm;
	int n;

	if (!pl_warn_wanted(k) ||
	    (gran != HG_GRAN_FINE && gran != HG_GRAN_MIXED))
		return;
	arch = pl_device_arch(pl_device_current());
	if (judge(k, arg, arch, mem, gran, &r, line, sizeof(line)) ==
		    CO_EFFECT_OK ||
	    !first_time(k->handle, id))
		return;
	risky_lines(k, arg, &r, at, sizeof(at));
	/* The name its author wrote, as the report gives it; rare enough
	 * (once per kernel and block) to demangle here. */
	dm = k->name ? co_demangle(k->name) : NULL;
	n = snprintf(msg, sizeof(msg),
		     "hipgrain: warning: %s gets %s-grained %s memory as argument "
		     "%d%s: on %s%s%s%s, %s [%s]\n",
		     dm ? dm : k->name ? k->name : "a kernel",
		     gran == HG_GRAN_MIXED ? "partly fine" : "fine",
		     mem < sizeof(mem_names) / sizeof(*mem_names) && mem_names[mem]
			     ? mem_names[mem] : "unknown",
		     arg, at, arch, r.assumed[0] ? " (" : "", r.assumed,
		     r.assumed[0] ? ")" : "", r.rule->reason,
		     (r.ops & HG_AOP_FP_MASK) ? "fp-atomic-fine-grain"
					      : "int-atomic-fine-host");
	free(dm);
	reg_emit_warning(HG_WARN_HAZARD, msg);
	(void)!write(2, msg, n > 0 && (size_t)n < sizeof(msg) ? (size_t)n
							       : strlen(msg));
}

/* Memory no advice or prefetch acts on, as the report's rules judge it
 * (advise-unsupported, prefetch-unsupported): device and pinned memory.
 * malloc memory is left to the report, which knows the XNACK mode. */
static const char *range_futile(uint8_t mem, int prefetch)
{
	switch (mem) {
	case HG_MEM_DEVICE:
	case HG_MEM_DEVICE_FINE:
		return prefetch ? "device memory never migrates"
				: "its allocator does not support advice";
	case HG_MEM_HOST_PINNED:
	case HG_MEM_HOST_REGISTERED:
		return prefetch ? "pinned host memory never migrates"
				: "its allocator does not support advice";
	default:
		return NULL;
	}
}

void pl_warn_range(const struct hg_tp_range_op *op)
{
	int prefetch = op->api == HG_API_HIP_MEM_PREFETCH_ASYNC ||
		       op->api == HG_API_HIP_MEM_PREFETCH_ASYNC_V2;
	const char *why;
	char msg[512];
	int n;

	if (enabled < 0)
		enabled = !strcmp(hg_env_get(HG_ENV_WARN), "1");
	why = enabled ? range_futile(op->mem, prefetch) : NULL;
	if (!why || !first_time(op->api, op->id))
		return;
	n = snprintf(msg, sizeof(msg),
		     "hipgrain: warning: %s on %llu bytes of %s memory has no "
		     "effect: %s%s [%s]\n",
		     prefetch ? "hipMemPrefetchAsync" : "hipMemAdvise",
		     (unsigned long long)op->size,
		     op->mem < sizeof(mem_names) / sizeof(*mem_names) &&
				     mem_names[op->mem]
			     ? mem_names[op->mem] : "unknown",
		     why,
		     prefetch ? "; the driver refuses the range, and a ROCm "
				"build with assertions aborts the program in "
				"this call"
			      : "",
		     prefetch ? "prefetch-unsupported" : "advise-unsupported");
	reg_emit_warning(HG_WARN_HAZARD, msg);
	(void)!write(2, msg, n > 0 && (size_t)n < sizeof(msg) ? (size_t)n
							       : strlen(msg));
}
