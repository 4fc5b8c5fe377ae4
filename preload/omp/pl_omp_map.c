/* SPDX-License-Identifier: MIT */
/*
 * What OpenMP maps do to memory (seed 000, "OpenMP Allocation Mechanism"):
 *
 * - default mode: a map allocates a device copy (coarse device memory) the
 *   first time a range is mapped, and frees it when its reference count
 *   drops to zero; the region's kernel receives the copy's address.  The
 *   copy is modelled by an address range reserved (never touched) here, so
 *   it is a GPU range of its own in the registry, with its own id.
 * - unified_shared_memory: no copy; an explicit map switches the pages of
 *   the host range to coarse grain for good ("coarse grain is sticky").
 *   Implicit maps (a variable the region merely names, a reduction) leave
 *   them alone: seed 000's arraysum8, whose `ret` stays fine.
 *
 * A target region then launches with each TARGET_PARAM argument resolved:
 * the device copy's address where one is present, the host's otherwise.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>

#include "hg_events.h"
#include "pl_launch.h"
#include "pl_omp.h"
#include "reg.h"
#include "hg_spin.h"

#define MAX_PRESENT 4096
#define MAX_ARGS    256

struct present {
	uintptr_t host;
	size_t size;
	uintptr_t dev;
	uint64_t refs;
	bool copy; /* a device copy we reserved (else an associated pointer) */
};

static atomic_int usm;
static hg_spin_t lock = HG_SPIN_INIT;
static struct present table[MAX_PRESENT];
static size_t npresent;

void pl_omp_usm(int on)
{
	atomic_store(&usm, on);
}

/* Under the lock. */
static struct present *find(uintptr_t p)
{
	for (size_t i = 0; i < npresent; i++)
		if (p >= table[i].host &&
		    (p < table[i].host + table[i].size ||
		     (p == table[i].host && !table[i].size)))
			return &table[i];
	return NULL;
}

static bool add(struct present e)
{
	bool ok;

	hg_spin_lock(&lock);
	ok = npresent < MAX_PRESENT;
	if (ok)
		table[npresent++] = e;
	hg_spin_unlock(&lock);
	return ok;
}

static void drop_copy(uintptr_t dev, size_t size)
{
	struct reg_hip_free st;

	reg_track_hip_free_begin((void *)dev, &st);
	reg_track_hip_free_end(HG_API_OMP_MAP_END, 0, (void *)dev, &st,
			       (uintptr_t)__builtin_return_address(0));
	munmap((void *)dev, size);
}

/*
 * The first explicit map of a range under unified_shared_memory switches
 * it, once: the range is remembered (as its own "copy", so arguments keep
 * their host addresses).  Not judged by the range's current granularity:
 * a runtime that sets it coarse itself (hsa_amd_svm_attributes_set, seen
 * by pl_hsa.c inside the same call) does so because of this map.
 */
static void make_coarse(uintptr_t p, size_t size)
{
	struct present *e;

	hg_spin_lock(&lock);
	e = find(p);
	hg_spin_unlock(&lock);
	if (e || !add((struct present){p, size, p, 1, false}))
		return; /* mapped before: sticky, nothing changes */
	reg_track_granularity((const void *)p, size, HG_GRAN_COARSE,
			      HG_GRAN_SRC_OMP_MAP);
}

static bool maps_memory(int64_t type, int64_t size)
{
	return size > 0 && !(type & (PL_OMP_PRIVATE | PL_OMP_LITERAL));
}

static void enter(uintptr_t p, int64_t size, int64_t type)
{
	struct present *e;
	void *copy;

	if (!maps_memory(type, size))
		return;
	if (atomic_load(&usm)) {
		if (!(type & PL_OMP_IMPLICIT))
			make_coarse(p, (size_t)size);
		return;
	}
	hg_spin_lock(&lock);
	e = find(p);
	if (e)
		e->refs++;
	hg_spin_unlock(&lock);
	if (e)
		return;
	copy = mmap(NULL, (size_t)size, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (copy == MAP_FAILED)
		return;
	reg_track_hip_alloc(HG_API_OMP_MAP, 0, copy, (size_t)size,
			    (uint32_t)(type & 0xffff), 0, 0);
	if (!add((struct present){p, (size_t)size, (uintptr_t)copy, 1, true}))
		drop_copy((uintptr_t)copy, (size_t)size);
}

static void leave(uintptr_t p, int64_t size, int64_t type)
{
	struct present *e, gone = {0};

	if (!maps_memory(type, size) || atomic_load(&usm))
		return;
	hg_spin_lock(&lock);
	e = find(p);
	if (e && e->copy) {
		e->refs =
		    (type & PL_OMP_DELETE) || e->refs <= 1 ? 0 : e->refs - 1;
		if (!e->refs) {
			gone = *e;
			*e = table[--npresent];
		}
	}
	hg_spin_unlock(&lock);
	if (gone.copy)
		drop_copy(gone.dev, gone.size);
}

/* What the kernel receives for a pointer argument. */
static uint64_t device_value(uintptr_t base, uintptr_t begin, int64_t size)
{
	struct present *e;
	uint64_t v = base;

	hg_spin_lock(&lock);
	e = find(size > 0 ? begin : base);
	if (e)
		v = e->dev + (base - e->host);
	hg_spin_unlock(&lock);
	return v;
}

static void each(const struct pl_omp_maps *m,
		 void (*fn)(uintptr_t, int64_t, int64_t))
{
	for (int32_t i = 0; m->ptrs && m->sizes && m->types && i < m->n; i++)
		fn((uintptr_t)m->ptrs[i], m->sizes[i], m->types[i]);
}

void pl_omp_data(uint8_t api, struct pl_omp_maps m)
{
	if (api == HG_API_OMP_TARGET_DATA_BEGIN)
		each(&m, enter);
	else if (api == HG_API_OMP_TARGET_DATA_END)
		each(&m, leave);
}

/* A directive's device as the program's GPU ordinal: the default
 * device's for OFFLOAD_DEVICE_DEFAULT (-1). */
static int omp_device(int64_t dev)
{
	static int (*fn)(void);

	if (dev >= 0)
		return dev > INT32_MAX ? -1 : (int)dev;
	if (!fn)
		fn = (int (*)(void))dlsym(RTLD_DEFAULT,
					  "omp_get_default_device");
	return fn ? fn() : 0;
}

void pl_omp_region(uint8_t api, int rc, int64_t dev, const void *handle,
		   int32_t teams, int32_t threads, struct pl_omp_maps m)
{
	uint64_t val[MAX_ARGS];
	void *argp[MAX_ARGS];
	size_t n = 0;
	dim3 grid = {teams > 0 ? (uint32_t)teams : 1, 1, 1};
	dim3 block = {threads > 0 ? (uint32_t)threads : 1, 1, 1};

	each(&m, enter);
	for (int32_t i = 0; m.base && m.types && i < m.n && n < MAX_ARGS; i++) {
		if (!(m.types[i] & PL_OMP_TARGET_PARAM))
			continue;
		val[n] = m.types[i] & PL_OMP_LITERAL
			     ? (uintptr_t)m.base[i]
			     : device_value((uintptr_t)m.base[i],
					    m.ptrs ? (uintptr_t)m.ptrs[i] : 0,
					    m.sizes ? m.sizes[i] : 0);
		argp[n] = &val[n];
		n++;
	}
	pl_rec_launch_n(api, rc, handle, grid, block, argp, n,
			omp_device(dev));
	each(&m, leave);
}

void pl_omp_associate(int rc, const void *host, const void *dev_ptr,
		      size_t size, size_t dev_off)
{
	reg_emit_call(HG_API_OMP_TARGET_ASSOCIATE_PTR, rc, (uintptr_t)host);
	if (rc == 0 && host && dev_ptr)
		add((struct present){(uintptr_t)host, size,
				     (uintptr_t)dev_ptr + dev_off, 1, false});
}

void pl_omp_disassociate(int rc, const void *host)
{
	struct present *e;

	reg_emit_call(HG_API_OMP_TARGET_DISASSOCIATE_PTR, rc, (uintptr_t)host);
	if (rc)
		return;
	hg_spin_lock(&lock);
	e = find((uintptr_t)host);
	if (e && !e->copy)
		*e = table[--npresent];
	hg_spin_unlock(&lock);
}
