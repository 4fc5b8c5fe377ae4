/* SPDX-License-Identifier: MIT */
/*
 * CPU caches for a host without cacheinfo in sysfs.  The sizes, ways and
 * line sizes are the processor's own (glibc reads them from CPUID); which
 * CPUs share a cache is not, so the first two levels are taken as each
 * CPU's own and the last as shared by all, as on the x86 servers ROCm
 * runs on.  doc/testing.md lists this among the deliberate differences.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "vg_cpucache.h"
#include "vg_sysfs_io.h"

struct level {
	int sc_size, sc_ways, sc_line; /* sysconf names */
	unsigned level;
	const char *type;
	int shared; /* by every CPU */
};

static const struct level levels[] = {
	{ _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_ASSOC, _SC_LEVEL1_DCACHE_LINESIZE, 1, "Data", 0 },
	{ _SC_LEVEL1_ICACHE_SIZE, _SC_LEVEL1_ICACHE_ASSOC, _SC_LEVEL1_ICACHE_LINESIZE, 1, "Instruction", 0 },
	{ _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_ASSOC, _SC_LEVEL2_CACHE_LINESIZE, 2, "Unified", 0 },
	{ _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_ASSOC, _SC_LEVEL3_CACHE_LINESIZE, 3, "Unified", 1 },
};

/* A value sysconf does not know (0 or -1) is written as cacheinfo writes
 * an unknown one, 0. */
static long known(int name)
{
	long v = sysconf(name);
	return v > 0 ? v : 0;
}

/* shared_cpu_map as the kernel prints a cpumask: 32-bit hex words, the
 * highest first, comma-separated. */
static void cpumask(char *out, size_t cap, long first, long last, long ncpus)
{
	size_t used = 0;
	for (long w = (ncpus - 1) / 32; w >= 0 && used < cap; w--) {
		unsigned word = 0;
		for (long b = 0; b < 32; b++)
			if (w * 32 + b >= first && w * 32 + b <= last)
				word |= 1u << b;
		used += (size_t)snprintf(out + used, cap - used, "%08x%s", word,
					 w ? "," : "");
	}
}

static int one_index(const char *root, long cpu, long ncpus, unsigned k,
		     const struct level *l)
{
	char d[96], f[128], map[160], list[48];
	long size = known(l->sc_size), line = known(l->sc_line);
	long ways = known(l->sc_ways);
	long first = l->shared ? 0 : cpu, last = l->shared ? ncpus - 1 : cpu;
	snprintf(d, sizeof(d), VG_CPUCACHE_DIR "/cpu%ld/index%u", cpu, k);
	int rc = vg_sysfs_dir_in(root, d);
	cpumask(map, sizeof(map), first, last, ncpus);
	if (first == last)
		snprintf(list, sizeof(list), "%ld", first);
	else
		snprintf(list, sizeof(list), "%ld-%ld", first, last);
#define PUT(name, ...)                                                         \
	(snprintf(f, sizeof(f), "%s/" name, d), vg_sysfs_put(root, f, __VA_ARGS__))
	rc |= PUT("level", "%u\n", l->level);
	rc |= PUT("type", "%s\n", l->type);
	rc |= PUT("size", "%ldK\n", size >> 10);
	rc |= PUT("coherency_line_size", "%ld\n", line);
	rc |= PUT("ways_of_associativity", "%ld\n", ways);
	rc |= PUT("number_of_sets", "%ld\n",
		  line && ways ? size / (line * ways) : 0);
	rc |= PUT("physical_line_partition", "1\n");
	rc |= PUT("shared_cpu_map", "%s\n", map);
	rc |= PUT("shared_cpu_list", "%s\n", list);
	rc |= PUT("id", "%ld\n", l->shared ? 0 : cpu);
#undef PUT
	return rc;
}

static int one_cpu(const char *root, long cpu, long ncpus)
{
	char d[64];
	snprintf(d, sizeof(d), VG_CPUCACHE_DIR "/cpu%ld", cpu);
	int rc = vg_sysfs_dir_in(root, d);
	unsigned k = 0;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (known(levels[i].sc_size))
			rc |= one_index(root, cpu, ncpus, k++, &levels[i]);
	return rc;
}

int vg_cpucache_make(const char *root, const char *cpu_dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/cpu0/cache/index0", cpu_dir);
	if (!access(path, R_OK))
		return 0;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus < 1)
		ncpus = 1;
	int rc = vg_sysfs_dir_in(root, VG_CPUCACHE_DIR);
	for (long cpu = 0; cpu < ncpus; cpu++)
		rc |= one_cpu(root, cpu, ncpus);
	return rc;
}

/* "/cpu<N>/cache" then the end or a '/': where N's digits end, or NULL. */
static const char *cpu_cache_tail(const char *s, const char **num, size_t *len)
{
	if (strncmp(s, "/cpu", 4))
		return NULL;
	const char *d = s + 4, *e = d;
	while (*e >= '0' && *e <= '9')
		e++;
	if (e == d || strncmp(e, "/cache", 6) || (e[6] != '/' && e[6] != '\0'))
		return NULL;
	*num = d;
	*len = (size_t)(e - d);
	return e + 6;
}

const char *vg_cpucache_path(const char *tree, const char *path, char *buf,
			     size_t cap)
{
	static const char cpus[] = "/sys/devices/system/cpu";
	static const char nodes[] = "/sys/devices/system/node/node";
	const char *rest = NULL, *num = NULL;
	size_t len = 0;
	if (!strncmp(path, cpus, sizeof(cpus) - 1)) {
		rest = cpu_cache_tail(path + sizeof(cpus) - 1, &num, &len);
	} else if (!strncmp(path, nodes, sizeof(nodes) - 1)) {
		const char *p = path + sizeof(nodes) - 1;
		while (*p >= '0' && *p <= '9')
			p++;
		rest = p > path + sizeof(nodes) - 1 ? cpu_cache_tail(p, &num, &len) : NULL;
	}
	if (!rest)
		return NULL;
	snprintf(buf, cap, "%s/" VG_CPUCACHE_DIR, tree);
	if (access(buf, R_OK))
		return NULL;
	snprintf(buf, cap, "%s/" VG_CPUCACHE_DIR "/cpu%.*s%s", tree, (int)len, num, rest);
	return buf;
}
