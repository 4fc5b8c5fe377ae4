/* SPDX-License-Identifier: MIT */
#include "reg.h"

#include <stdbool.h>
#include <string.h>

#include "hg_lmap.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

static struct hg_lmap modules = HG_LMAP_INIT;
static struct hg_lmap kernels = HG_LMAP_INIT;

static char *dup(const char *s)
{
	size_t n = s ? strlen(s) + 1 : 0;
	char *d = n ? __libc_malloc(n) : NULL;

	if (d)
		memcpy(d, s, n);
	return d;
}

struct reg_module *reg_module_add(uint64_t handle, const void *image,
				  const char *path, uint8_t api)
{
	struct reg_module *m = __libc_calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->handle = handle;
	m->image = image;
	m->path = dup(path);
	m->api = api;
	if (!hg_lmap_put(&modules, handle, m)) {
		__libc_free(m->path);
		__libc_free(m);
		return NULL;
	}
	return m;
}

struct reg_module *reg_module_get(uint64_t handle)
{
	return hg_lmap_get(&modules, handle);
}

static bool of_module(void *v, void *arg)
{
	return ((struct reg_kernel *)v)->module == *(uint64_t *)arg;
}

static bool is_module(void *v, void *arg)
{
	return ((struct reg_module *)v)->handle == *(uint64_t *)arg;
}

static void drop_kernel(void *v)
{
	__libc_free(((struct reg_kernel *)v)->name);
	__libc_free(v);
}

static void drop_module(void *v)
{
	__libc_free(((struct reg_module *)v)->path);
	__libc_free(v);
}

/* The module's code is about to be unmapped; so are its kernels. */
void reg_module_forget(uint64_t handle)
{
	hg_lmap_remove_if(&kernels, of_module, &handle, drop_kernel);
	hg_lmap_remove_if(&modules, is_module, &handle, drop_module);
}

struct reg_kernel *reg_kernel_add(uint64_t handle, uint64_t module,
				  const char *name)
{
	struct reg_kernel *k = __libc_calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->handle = handle;
	k->module = module;
	k->name = dup(name);
	if (!hg_lmap_put(&kernels, handle, k)) {
		drop_kernel(k);
		return NULL;
	}
	return k;
}

struct reg_kernel *reg_kernel_get(uint64_t handle)
{
	return hg_lmap_get(&kernels, handle);
}

size_t reg_kernel_all(struct reg_kernel **out, size_t max)
{
	return hg_lmap_values(&kernels, (void **)out, max);
}
