/* SPDX-License-Identifier: MIT */
/*
 * CPU caches for a host whose kernel shows none: the tree supplies each
 * CPU's cache/ directory with the files ROCm's thunk reads, only when the
 * host has none, and the shim's names lead there from both the CPU's and
 * a NUMA node's path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "vg_cpucache.h"

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return f ? buf : NULL;
}

static void mk(const char *base, const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	mkdir(p, 0755);
}

static void host_without(const char *tmp)
{
	char tree[512], host[512], p[640];
	snprintf(tree, sizeof(tree), "%s/tree", tmp);
	snprintf(host, sizeof(host), "%s/host", tmp);
	mkdir(tree, 0755);
	mkdir(host, 0755);
	mk(host, "cpu0");
	ok(vg_cpucache_make(tree, host) == 0, "a host without cacheinfo: made");
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	const char *files[] = { "level", "type", "size", "coherency_line_size",
				"ways_of_associativity", "physical_line_partition",
				"shared_cpu_map", "shared_cpu_list" };
	int all = 1;
	for (long c = 0; c < ncpus; c++)
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(p, sizeof(p), "%s/cpu_cache/cpu%ld/index0/%s", tree, c, files[i]);
			all &= slurp(p) && *slurp(p);
		}
	ok(all, "every CPU's first cache has each file the thunk reads");
	snprintf(p, sizeof(p), "%s/cpu_cache/cpu0/index0/level", tree);
	ok(slurp(p) && !strcmp(slurp(p), "1\n"), "index0 is a first-level cache");
	snprintf(p, sizeof(p), "%s/cpu_cache/cpu%ld/index0/shared_cpu_list", tree, ncpus - 1);
	char want[32];
	snprintf(want, sizeof(want), "%ld\n", ncpus - 1);
	ok(slurp(p) && !strcmp(slurp(p), want), "a first-level cache is its CPU's own");
	snprintf(p, sizeof(p), "%s/cpu_cache/cpu0/index0/size", tree);
	char *s = slurp(p);
	ok(s && strtol(s, NULL, 10) > 0 && strchr(s, 'K'), "its size in K: %s", s ? s : "none");

	const char *got = vg_cpucache_path(tree, "/sys/devices/system/cpu/cpu0/cache/index0/level", p, sizeof(p));
	char exp[640];
	snprintf(exp, sizeof(exp), "%s/cpu_cache/cpu0/index0/level", tree);
	ok(got && !strcmp(got, exp), "a CPU's cache file is the tree's: %s", got ? got : "none");
	got = vg_cpucache_path(tree, "/sys/devices/system/node/node0/cpu0/cache", p, sizeof(p));
	snprintf(exp, sizeof(exp), "%s/cpu_cache/cpu0", tree);
	ok(got && !strcmp(got, exp), "a NUMA node's CPU's cache/ is the tree's");
	const char *others[] = { "/sys/devices/system/cpu/cpu0/topology/core_id",
				 "/sys/devices/system/cpu/cpu0/cachex",
				 "/sys/devices/system/cpu/cpufreq",
				 "/sys/devices/system/node/node0/cpulist",
				 "/sys/devices/system/node/node0/cpu/cache" };
	int none = 1;
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		none &= vg_cpucache_path(tree, others[i], p, sizeof(p)) == NULL;
	ok(none, "no other path of a CPU or node is renamed");
}

static void host_with(const char *tmp)
{
	char tree[512], host[512], p[640];
	snprintf(tree, sizeof(tree), "%s/tree2", tmp);
	snprintf(host, sizeof(host), "%s/host2", tmp);
	mkdir(tree, 0755);
	mkdir(host, 0755);
	mk(host, "cpu0");
	mk(host, "cpu0/cache");
	mk(host, "cpu0/cache/index0");
	ok(vg_cpucache_make(tree, host) == 0, "a host with cacheinfo: nothing to do");
	snprintf(p, sizeof(p), "%s/cpu_cache", tree);
	ok(access(p, F_OK) != 0, "the tree has no caches of its own");
	ok(vg_cpucache_path(tree, "/sys/devices/system/cpu/cpu0/cache/index0/level", p, sizeof(p)) == NULL,
	   "the host's own cache files stay the host's");
}

int main(void)
{
	char tmp[] = "/tmp/hg-cpucache-XXXXXX";
	if (!mkdtemp(tmp))
		return 1;
	host_without(tmp);
	host_with(tmp);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		return 1;
	return done();
}
