/* SPDX-License-Identifier: MIT */
/*
 * A kernel's facts, read from the code object the runtime would load for
 * this device: where its pointer arguments sit and which atomics it uses.
 * Each module's code object is read once (or loaded from the profile cache,
 * keyed by content hash, so the next run of the same program pays nothing)
 * and each kernel is emitted once, at its first launch.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "co.h"
#include "hg_env.h"
#include "hg_events.h"
#include "pl_device.h"
#include "pl_hip.h"
#include "pl_profile.h"
#include "reg.h"

struct module_code {
	struct co_set *set;
	const struct co_entry *entry; /* the code object for the device */
	struct co_object *obj;	    /* NULL when the profiles came from cache */
	struct co_object *lines;    /* opened for pl_profile_lines, else NULL */
	struct co_profiles *cached; /* co_cache_load's result */
	const struct co_profiles *p;
	char target[64];
};

static int cache_dir(char *buf, size_t n)
{
	const char *d = hg_env_get(HG_ENV_CACHE_DIR);
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (*d)
		snprintf(buf, n, "%s", d);
	else if (xdg && *xdg)
		snprintf(buf, n, "%s/hipgrain", xdg);
	else if (home && *home)
		snprintf(buf, n, "%s/.cache/hipgrain", home);
	else
		return -1;
	mkdir(buf, 0700); /* its parent may be missing: then no cache */
	return 0;
}

static void warn(enum hg_warn code, const struct co_error *err,
		 const char *what)
{
	char msg[640], e[512];

	snprintf(msg, sizeof(msg), "%s: %s", what,
		 err ? co_error_str(err, e, sizeof(e)) : "");
	reg_emit_warning(code, msg);
}

static const struct co_profiles *analyse(struct module_code *mc,
					 const struct co_entry *e)
{
	struct co_error err;
	char dir[1024];
	uint64_t h = co_hash(e->data, e->size);
	int have_dir = cache_dir(dir, sizeof(dir)) == 0;

	if (have_dir && (mc->cached = co_cache_load(dir, h, &err)))
		return mc->cached;
	mc->obj = co_object_open(e->data, e->size, "memory", &err);
	if (!mc->obj || co_object_analyse(mc->obj, CO_DEC_AUTO, &err)) {
		warn(HG_WARN_CODE_OBJECT_UNREADABLE, &err, e->target);
		return NULL;
	}
	if (have_dir)
		co_cache_store(dir, co_object_profiles(mc->obj), &err);
	return co_object_profiles(mc->obj);
}

/* No compatible code object (say xnack+ code under XNACK off): the runtime
 * will refuse the launch; profile the same processor's code anyway, so the
 * report can say which mode mismatched. */
static long same_processor(const struct co_set *set, const char *arch)
{
	struct co_target dev, code;

	if (co_target_parse(arch, &dev))
		return -1;
	for (size_t i = 0; i < co_set_count(set); i++)
		if (!co_target_parse(co_set_entry(set, i)->target, &code) &&
		    !strcmp(code.proc, dev.proc))
			return (long)i;
	return -1;
}

static void read_module(struct reg_module *m)
{
	const char *arch = pl_device_arch(pl_device_current());
	struct module_code *mc = calloc(1, sizeof(*mc));
	struct co_error err;
	long i;

	m->status = -ENOMEM;
	if (!mc)
		return;
	m->profiles = mc;
	mc->set = m->image ? co_set_from_image(m->image, 0, &err)
			   : co_set_from_file(m->path ? m->path : "", &err);
	if (!mc->set) {
		warn(HG_WARN_CODE_OBJECT_UNREADABLE, &err, "fat binary");
		m->status = -EINVAL;
		return;
	}
	i = co_set_select(mc->set, arch);
	if (i < 0 && (i = same_processor(mc->set, arch)) >= 0)
		m->status = -ENOEXEC;
	if (i < 0) {
		reg_emit_warning(HG_WARN_NO_CODE_OBJECT,
				 *arch ? arch : "no usable GPU");
		m->status = -ENOENT;
		return;
	}
	snprintf(mc->target, sizeof(mc->target), "%s",
		 co_set_entry(mc->set, (size_t)i)->target);
	mc->entry = co_set_entry(mc->set, (size_t)i);
	mc->p = analyse(mc, mc->entry);
	if (!mc->p)
		m->status = -EINVAL;
	else if (m->status != -ENOEXEC)
		m->status = 0;
}

static const struct module_code *module_code(uint64_t handle, int *status)
{
	struct reg_module *m = reg_module_get(handle);
	int expected = 0;

	if (!m) {
		*status = -ENOENT;
		return NULL;
	}
	if (atomic_compare_exchange_strong(&m->state, &expected, 1)) {
		read_module(m);
		atomic_store(&m->state, 2);
	}
	while (atomic_load(&m->state) != 2)
		sched_yield();
	*status = m->status;
	return m->status && m->status != -ENOEXEC ? NULL : m->profiles;
}

/* The args array of a launch holds the explicit arguments only. */
static void layout(struct reg_kernel *k, const struct co_kernel *ck)
{
	for (uint32_t a = 0; a < ck->nargs; a++) {
		const struct co_arg *arg = &ck->args[a];

		if (arg->value_kind == HG_VK_HIDDEN)
			continue;
		if (arg->value_kind == HG_VK_GLOBAL_BUFFER &&
		    k->nptr < REG_KMAX_PTR) {
			k->ptr_index[k->nptr] = k->nexplicit;
			k->ptr_offset[k->nptr++] = arg->offset;
		}
		k->nexplicit++;
	}
	k->kernarg_size = ck->kernarg_size;
	k->atomic_ops = ck->atomics.fp_ops | ck->atomics.int_ops;
	snprintf(k->fp_mnemonics, sizeof(k->fp_mnemonics), "%s",
		 ck->atomics.fp_mnemonics);
	snprintf(k->fp_sites, sizeof(k->fp_sites), "%s", ck->atomics.fp_sites);
	snprintf(k->int_sites, sizeof(k->int_sites), "%s",
		 ck->atomics.int_sites);
}

static void emit_for(const struct reg_kernel *k, const char *target,
		     const struct co_profiles *p, const struct co_kernel *ck,
		     int status)
{
	uint32_t off[256], size[256];
	uint8_t kind[256], space[256];
	struct hg_tp_kernel ev = {
		.handle = k->handle, .module = k->module, .name = k->name,
		.target = target, .status = status,
		.fp_mnemonics = "", .int_mnemonics = "",
		.fp_sites = "", .int_sites = "", .sys_sites = "",
		.arg_offset = off, .arg_size = size, .arg_kind = kind,
		.arg_space = space,
	};

	if (ck) {
		const struct co_atomics *at = &ck->atomics;

		ev.co_hash = p->hash;
		ev.xnack = p->xnack;
		ev.kernarg_size = ck->kernarg_size;
		for (uint32_t a = 0; a < ck->nargs && a < 256; a++, ev.nargs++) {
			off[a] = ck->args[a].offset;
			size[a] = ck->args[a].size;
			kind[a] = ck->args[a].value_kind;
			space[a] = ck->args[a].address_space;
		}
		ev.fp_ops = at->fp_ops, ev.fp_count = at->fp_count;
		ev.fp_first = at->fp_first, ev.fp_mnemonics = at->fp_mnemonics;
		ev.int_ops = at->int_ops, ev.int_count = at->int_count;
		ev.int_mnemonics = at->int_mnemonics;
		ev.cas_count = at->cas_count, ev.lds_count = at->lds_count;
		ev.fp_sites = at->fp_sites, ev.int_sites = at->int_sites;
		ev.sys_sites = at->sys_sites;
	}
	reg_emit_kernel(&ev);
}

static void emit(const struct reg_kernel *k, const struct module_code *mc,
		 const struct co_kernel *ck)
{
	emit_for(k, mc ? mc->target : "", mc ? mc->p : NULL, ck, k->status);
}

/*
 * An OpenMP target region: libomptarget does not say which device it would
 * run on (and without a GPU it runs the region on the host), so the region
 * is judged against every target its image carries, as kernels that never
 * ran are.  The argument layout is the same in each: the first gives it.
 */
static void profile_each_target(struct reg_kernel *k, const struct reg_module *m)
{
	struct co_error err;
	struct co_set *set = co_set_from_image(m->image, 0, &err);
	bool laid_out = false;

	k->status = -ENOENT;
	for (size_t i = 0; set && i < co_set_count(set); i++) {
		const struct co_entry *e = co_set_entry(set, i);
		struct module_code mc = {0};
		const struct co_profiles *p = analyse(&mc, e);
		const struct co_kernel *ck =
			p ? co_profiles_find(p, k->name ? k->name : "") : NULL;

		if (ck && !laid_out) {
			layout(k, ck);
			laid_out = true;
			k->status = 0;
		}
		if (ck)
			emit_for(k, e->target, p, ck, 0);
		co_object_free(mc.obj);
		co_profiles_free(mc.cached);
	}
	if (!laid_out)
		emit_for(k, "", NULL, NULL, k->status);
	co_set_free(set);
}

void pl_profile_kernel(struct reg_kernel *k)
{
	const struct reg_module *m = reg_module_get(k->module);
	const struct module_code *mc;
	const struct co_kernel *ck = NULL;

	if (m && m->api == HG_API_OMP_REGISTER_LIB && m->image) {
		profile_each_target(k, m);
		return;
	}
	mc = module_code(k->module, &k->status);

	if (mc && !(ck = co_profiles_find(mc->p, k->name ? k->name : "")))
		k->status = -ENOENT;
	if (ck)
		layout(k, ck);
	emit(k, mc, ck);
}

static void unlaunched_in(const struct co_entry *e, struct reg_kernel **ks,
			  size_t n, uint64_t module)
{
	struct module_code mc = {0};
	const struct co_profiles *p = analyse(&mc, e);

	for (size_t i = 0; p && i < n; i++) {
		const struct co_kernel *ck;

		if (ks[i]->module != module || atomic_load(&ks[i]->state))
			continue;
		ck = co_profiles_find(p, ks[i]->name ? ks[i]->name : "");
		if (ck)
			emit_for(ks[i], e->target, p, ck, 0);
	}
	co_object_free(mc.obj);
	co_profiles_free(mc.cached);
}

void pl_profile_unlaunched(uint64_t module)
{
	enum { MAX_KERNELS = 1 << 16 };
	struct reg_module *m = reg_module_get(module);
	struct reg_kernel **ks;
	struct co_set *set;
	struct co_error err;
	size_t n;

	if (!m || !m->image || !(ks = malloc(MAX_KERNELS * sizeof(*ks))))
		return;
	n = reg_kernel_all(ks, MAX_KERNELS);
	set = co_set_from_image(m->image, 0, &err);
	for (size_t i = 0; set && i < co_set_count(set); i++)
		unlaunched_in(co_set_entry(set, i), ks, n, module);
	co_set_free(set);
	free(ks);
}

/* The module whose code holds kernel `name`, read already. */
static struct module_code *module_of(const char *name)
{
	enum { MAX_KERNELS = 1 << 12 };
	struct reg_kernel **ks = malloc(MAX_KERNELS * sizeof(*ks));
	struct module_code *found = NULL;
	size_t n = ks ? reg_kernel_all(ks, MAX_KERNELS) : 0;

	for (size_t i = 0; i < n && !found; i++) {
		struct reg_module *m;

		if (!ks[i]->name || strcmp(ks[i]->name, name) ||
		    !(m = reg_module_get(ks[i]->module)) ||
		    atomic_load(&m->state) != 2 || !m->profiles)
			continue;
		found = m->profiles;
		if (!found->entry)
			found = NULL;
	}
	free(ks);
	return found;
}

void pl_profile_lines(const char *name, const uint64_t *off, size_t n,
		      char (*out)[96])
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct co_insn in[4] = {{0}};
	struct module_code *mc;
	struct co_error err;

	for (size_t i = 0; i < n; i++)
		out[i][0] = '\0';
	if (!name || !*name || n > 4)
		return;
	pthread_mutex_lock(&lock);
	mc = module_of(name);
	if (mc && !mc->obj && !mc->lines)
		mc->lines = co_object_open(mc->entry->data, mc->entry->size,
					   "memory", &err);
	struct co_object *o = mc ? (mc->obj ? mc->obj : mc->lines) : NULL;
	for (size_t i = 0; o && i < n; i++)
		in[i].addr = off[i];
	if (o)
		co_object_lines(o, in, n);
	for (size_t i = 0; o && i < n; i++) {
		const char *base = in[i].file ? strrchr(in[i].file, '/') : NULL;

		base = base ? base + 1 : in[i].file;
		if (base && in[i].line)
			snprintf(out[i], 96, "%.80s:%u", base, in[i].line);
	}
	pthread_mutex_unlock(&lock);
}
