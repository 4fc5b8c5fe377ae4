/* SPDX-License-Identifier: MIT */
/*
 * Seed 000's OpenMP section (arraysum1-4, 8-10) as one C program, built by
 * Debian's clang-15 for gfx90a in three forms: omp_arraysum (default mode),
 * omp_arraysum_usm (-DARRAYSUM_USM: `requires unified_shared_memory`) and
 * omp_arraysum_old (default mode, clang 15's old offload driver, whose device
 * image hides in .rodata).  kernels/variants.tsv holds what hipgrain must
 * report for each; the situations:
 *
 *   map          arraysum1/3: map(tofrom: a[:n]) map(to: b[:n]).  Default mode:
 *                a coarse device copy, nothing to say.  USM: the pages of a
 *                and b become coarse for good (map-makes-coarse, a note).
 *   nomap        arraysum2: USM, no map: the kernel uses malloc's fine pages
 *                directly, which needs XNACK (usm-without-xnack when off).
 *   sticky       arraysum4: init() maps a and b; the next region does not,
 *                and they are still coarse.
 *   atomic-fine  arraysum8: a hardware FP atomic add on `ret`, which nothing
 *                mapped: fine-grained system memory (fp-atomic-fine-grain).
 *   atomic-map   arraysum9: the same with map(tofrom: ret[:1]): coarse.
 *   atomic-safe  arraysum10: `omp atomic` without fast atomics: a CAS loop.
 *   atomic-data  arraysum9 with `target data map(tofrom: ret[:1])` around
 *                two regions that name ret without mapping it: the data
 *                region's map is what makes it coarse (or a device copy).
 *   atomic-pinned
 *                arraysum8 with ret from omp_alloc on an allocator with the
 *                pinned trait: memory lock, fine-grained host memory the GPU
 *                reaches even with XNACK off, so the atomic is dropped there
 *                too (fp-atomic-fine-grain where malloc's memory would fault).
 *   atomic-pinned-map
 *                the same pinned ret, mapped: a device copy (default mode)
 *                or coarse pages (USM), as in arraysum9.
 *
 * Upstream clang-15 rejects hint(AMD_fast_fp_atomics), so the fast atomic is
 * the builtin AMD's hint lowers to: flat_atomic_add_f64 in the gfx90a image.
 * Without a GPU the regions run on the host (the builtin is device-only),
 * and the program prints the same sums either way.  Buffers are page-aligned
 * so that only the seed's findings fire (malloc's are not: a note of its own).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ARRAYSUM_USM
#pragma omp requires unified_shared_memory
#endif

#define N 10000
#define PAGE 4096

static double *page_alloc(size_t n)
{
	size_t bytes = (n * sizeof(double) + PAGE - 1) / PAGE * PAGE;
	double *p = aligned_alloc(PAGE, bytes);

	if (!p) {
		perror("aligned_alloc");
		exit(1);
	}
	return p;
}

static void fill(double *a, double *b, int n)
{
	for (int i = 0; i < n; i++) {
		a[i] = 0.0;
		b[i] = 1.0;
	}
}

/* arraysum1 (default mode) and arraysum3 (USM). */
static double map_sum(double *a, double *b, int n)
{
#pragma omp target teams distribute parallel for map(tofrom: a[:n]) map(to: b[:n])
	for (int i = 0; i < n; i++)
		a[i] += b[i];
	return a[n - 1];
}

/* arraysum2: no map clause at all. */
static double nomap_sum(double *a, double *b, int n)
{
#pragma omp target teams distribute parallel for
	for (int i = 0; i < n; i++)
		a[i] += b[i];
	return a[n - 1];
}

/* arraysum4: the map in init() makes a and b coarse; the sum maps nothing. */
static void init(double *a, double *b, int n)
{
#pragma omp target map(from: a[:n], b[:n])
	for (int i = 0; i < n; i++)
		a[i] = b[i] = 1.0;
}

static double add_fast(double *ret, double v)
{
#ifdef __AMDGCN__
	__builtin_amdgcn_flat_atomic_fadd_f64(ret, v);
#else
#pragma omp atomic
	*ret += v;
#endif
	return v;
}

/* arraysum8: ret is fine-grained system memory, nothing mapped it. */
static double atomic_fine(double *ret, double *b, int n)
{
#pragma omp target teams distribute parallel for
	for (int i = 0; i < n; i++)
		add_fast(ret, b[i]);
	return *ret;
}

/* arraysum9: the map makes ret coarse (USM) or a device copy (default). */
static double atomic_map(double *ret, double *b, int n)
{
#pragma omp target teams distribute parallel for map(to: b[:n]) map(tofrom: ret[:1])
	for (int i = 0; i < n; i++)
		add_fast(ret, b[i]);
	return *ret;
}

/* arraysum10: the safe atomic, a compare-and-swap loop. */
static double atomic_safe(double *ret, double *b, int n)
{
#pragma omp target teams distribute parallel for
	for (int i = 0; i < n; i++) {
#pragma omp atomic
		*ret += b[i];
	}
	return *ret;
}

/* arraysum9 through a data region: the regions find ret already mapped. */
static double atomic_data(double *ret, double *b, int n)
{
#pragma omp target data map(tofrom: ret[:1]) map(to: b[:n])
	{
#pragma omp target teams distribute parallel for
		for (int i = 0; i < n / 2; i++)
			add_fast(ret, b[i]);
#pragma omp target teams distribute parallel for
		for (int i = n / 2; i < n; i++)
			add_fast(ret, b[i]);
	}
	return *ret;
}

/* Seed 000's "allocator with pinned trait set". */
static double *pinned_alloc(size_t n)
{
	omp_alloctrait_t pin[] = {{omp_atk_pinned, omp_atv_true}};
	omp_allocator_handle_t al =
	    omp_init_allocator(omp_default_mem_space, 1, pin);
	double *p = omp_alloc(n * sizeof(double), al);

	if (!p) {
		fprintf(stderr, "omp_alloc with the pinned trait failed\n");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	double *a = page_alloc(N), *b = page_alloc(N), *ret = page_alloc(1);
	double sum;

	fill(a, b, N);
	*ret = 0.0;
	if (!strcmp(what, "map"))
		sum = map_sum(a, b, N);
	else if (!strcmp(what, "nomap"))
		sum = nomap_sum(a, b, N);
	else if (!strcmp(what, "sticky")) {
		init(a, b, N);
		sum = nomap_sum(a, b, N);
	} else if (!strcmp(what, "atomic-fine"))
		sum = atomic_fine(ret, b, N);
	else if (!strcmp(what, "atomic-map"))
		sum = atomic_map(ret, b, N);
	else if (!strcmp(what, "atomic-safe"))
		sum = atomic_safe(ret, b, N);
	else if (!strcmp(what, "atomic-data"))
		sum = atomic_data(ret, b, N);
	else if (!strncmp(what, "atomic-pinned", 13) &&
		 (!what[13] || !strcmp(what + 13, "-map"))) {
		double *pr = pinned_alloc(1);

		*pr = 0.0;
		sum = what[13] ? atomic_map(pr, b, N) : atomic_fine(pr, b, N);
		omp_free(pr, omp_null_allocator);
	} else {
		fprintf(stderr, "usage: %s map|nomap|sticky|atomic-fine|"
				"atomic-map|atomic-safe|atomic-data|"
				"atomic-pinned|atomic-pinned-map\n", argv[0]);
		return 2;
	}
	printf("%s: %.1f\n", what, sum);
	free(a);
	free(b);
	free(ret);
	return 0;
}
