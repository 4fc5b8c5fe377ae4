/* SPDX-License-Identifier: MIT */
/*
 * The API the preload uses, on real compiled kernels: wrapper and image
 * opening, target selection, kernel lookup and argument layout, the profile
 * cache, and the rule table.   co_api_test BUNDLE BARE_CO TMPDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "co.h"
#include "co_rules.h"

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		printf("%s  ", (cond) ? "ok  " : "FAIL");                      \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
		failures += !(cond);                                           \
	} while (0)

static void *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	void *d = malloc(*n);
	if (d && fread(d, 1, *n, f) != *n)
		*n = 0;
	fclose(f);
	return d;
}

static void test_kernel(const struct co_profiles *p)
{
	const struct co_kernel *k = co_profiles_find(p, "_Z11dadd_unsafePdPKdi");
	CHECK(k != NULL, "kernel found by its device function name");
	if (!k)
		return;
	CHECK(co_profiles_find(p, "_Z11dadd_unsafePdPKdi.kd") == k, "... and by its .kd symbol");
	CHECK(!strcmp(k->symbol, "_Z11dadd_unsafePdPKdi.kd"), "symbol is %s", k->symbol);
	CHECK(k->nargs >= 3 && k->args[0].offset == 0 && k->args[0].size == 8 &&
	      k->args[0].value_kind == HG_VK_GLOBAL_BUFFER &&
	      k->args[0].address_space == HG_AS_GLOBAL,
	      "first argument: global pointer at offset 0");
	CHECK(k->nargs >= 3 && k->args[2].offset == 16 && k->args[2].size == 4 &&
	      k->args[2].value_kind == HG_VK_BY_VALUE, "third argument: int by value at 16");
	CHECK(k->kernarg_size >= 20, "kernarg size %u covers the arguments", k->kernarg_size);
	CHECK(k->code_size > 0, "code range from the symbol table (%llu bytes)",
	      (unsigned long long)k->code_size);
	CHECK(k->atomics.analysed && (k->atomics.fp_ops & HG_AOP_FADD) &&
	      k->atomics.fp_count >= 1 && k->atomics.fp_first >= k->code_addr &&
	      /* the form is the compiler's: hipcc 5.2 flat_, hipcc 7 global_ */
	      (!strcmp(k->atomics.fp_mnemonics, "flat_atomic_add_f64") ||
	       !strcmp(k->atomics.fp_mnemonics, "global_atomic_add_f64")),
	      "atomic profile: %u FP (%s)", k->atomics.fp_count, k->atomics.fp_mnemonics);
	CHECK(co_profiles_find(p, "_Z9no_such_kernelv") == NULL, "unknown kernel is NULL");
}

static void test_cache(const struct co_profiles *p, const char *dir)
{
	struct co_error err;
	CHECK(co_cache_store(dir, p, &err) == 0, "cache store");
	struct co_profiles *c = co_cache_load(dir, p->hash, &err);
	CHECK(c != NULL, "cache load");
	if (!c)
		return;
	bool same = c->nkernels == p->nkernels && !strcmp(c->target, p->target);
	for (uint32_t i = 0; same && i < c->nkernels; i++) {
		const struct co_kernel *a = &c->kernels[i], *b = &p->kernels[i];
		same = !strcmp(a->name, b->name) && a->nargs == b->nargs &&
		       a->kernarg_size == b->kernarg_size &&
		       !memcmp(&a->atomics, &b->atomics, sizeof a->atomics) &&
		       !memcmp(a->args, b->args, a->nargs * sizeof *a->args);
	}
	CHECK(same, "cached profiles equal the computed ones");
	co_profiles_free(c);
	CHECK(co_cache_load(dir, p->hash ^ 1, &err) == NULL &&
	      strstr(err.why, "not cached"), "absent entry: not cached");
	char path[4200];
	snprintf(path, sizeof path, "%s/%016llx.hgp", dir, (unsigned long long)p->hash);
	size_t n;
	/* A whole file that another build wrote (the facts id after the magic
	 * and the format differs; its own checksum is right) is not read:
	 * that build's dataflow may have found other facts. */
	unsigned char *d = slurp(path, &n);
	if (d && n > 24) {
		d[8] ^= 1;
		uint64_t h = co_hash(d, n - 8);
		memcpy(d + n - 8, &h, 8);
		FILE *f = fopen(path, "wb");
		fwrite(d, 1, n, f);
		fclose(f);
		d[8] ^= 1;
	}
	c = co_cache_load(dir, p->hash, &err);
	CHECK(c == NULL && strstr(err.why, "another hipgrain build"),
	      "a profile of another build is not read: %s", c ? "read" : err.why);
	co_profiles_free(c);
	CHECK(co_cache_store(dir, p, &err) == 0, "cache store again");
	free(d);
	/* a flipped byte must be refused, not believed */
	d = slurp(path, &n);
	if (d && n > 40) {
		d[40] ^= 0x55;
		FILE *f = fopen(path, "wb");
		fwrite(d, 1, n, f);
		fclose(f);
	}
	free(d);
	c = co_cache_load(dir, p->hash, &err);
	CHECK(c == NULL && strstr(err.why, "corrupt"), "corrupted cache file refused: %s", err.why);
	co_profiles_free(c);
	unlink(path);
}

static void test_rules(void)
{
	struct co_rule_result r;
	CHECK(co_rule_lookup("gfx90a:xnack-", NULL, HG_AOP_FADD, HG_MEM_DEVICE_FINE, HG_GRAN_FINE, &r) ==
	      CO_EFFECT_NOP && r.rule && r.rule->source, "gfx90a FP add on fine memory: NOP");
	CHECK(co_rule_lookup("gfx90a", NULL, HG_AOP_FADD, HG_MEM_DEVICE, HG_GRAN_COARSE, NULL) ==
	      CO_EFFECT_OK, "gfx90a FP add on coarse memory: ok");
	CHECK(co_rule_lookup("gfx908", NULL, HG_AOP_MIN, HG_MEM_HOST_PINNED, HG_GRAN_FINE, NULL) ==
	      CO_EFFECT_NOP, "gfx908 integer min on fine host memory: NOP");
	CHECK(co_rule_lookup("gfx908", NULL, HG_AOP_ADD, HG_MEM_HOST_PINNED, HG_GRAN_FINE, NULL) ==
	      CO_EFFECT_OK, "gfx908 integer add on fine host memory: ok");
	CHECK(co_rule_lookup("gfx942", NULL, HG_AOP_FADD, HG_MEM_DEVICE_FINE, HG_GRAN_FINE, NULL) ==
	      CO_EFFECT_OK, "gfx942 FP add on fine device memory: ok");
	CHECK(co_rule_lookup("gfx942", NULL, HG_AOP_FADD, HG_MEM_HOST_PINNED, HG_GRAN_FINE, NULL) ==
	      CO_EFFECT_DOWNGRADED, "gfx942 FP add on fine host memory: downgraded");
	CHECK(co_rule_lookup("gfx90a", NULL, HG_AOP_FADD, HG_MEM_MANAGED, HG_GRAN_MIXED, NULL) ==
	      CO_EFFECT_NOP, "mixed granularity counts as fine");
	/* AMD's table: sub is no PCIe AtomicOp, add is */
	CHECK(co_rule_lookup("gfx90a", NULL, HG_AOP_SUB | HG_AOP_ADD, HG_MEM_HOST_PINNED,
			     HG_GRAN_FINE, &r) == CO_EFFECT_NOP && r.ops == HG_AOP_SUB &&
	      !strcmp(r.column, "MI200-PCIe") && r.assumed[0],
	      "gfx90a sub on fine host memory: NOP on MI200 PCIe, the link assumed");
	struct isa_atab_facts xgmi = {ISA_LINK_XGMI, ISA_FACT_YES, ISA_FACT_NO};
	CHECK(co_rule_lookup("gfx90a", &xgmi, HG_AOP_SUB, HG_MEM_HOST_PINNED, HG_GRAN_FINE,
			     &r) == CO_EFFECT_OK && !strcmp(r.column, "MI200-A+A"),
	      "gfx90a sub on fine host memory over xGMI: ok");
	struct isa_atab_facts bare = {ISA_LINK_PCIE, ISA_FACT_NO, ISA_FACT_NO};
	CHECK(co_rule_lookup("gfx908", &bare, HG_AOP_ADD, HG_MEM_HOST_PINNED, HG_GRAN_FINE,
			     &r) == CO_EFFECT_NOP && r.rule && strstr(r.rule->reason, "AtomicOps"),
	      "gfx908 add on fine host memory without PCIe AtomicOps: NOP");
	struct isa_atab_facts apu = {ISA_LINK_XGMI, ISA_FACT_YES, ISA_FACT_YES};
	CHECK(co_rule_lookup("gfx942", &apu, HG_AOP_FADD, HG_MEM_HOST_PINNED, HG_GRAN_FINE,
			     NULL) == CO_EFFECT_OK, "MI300A FP add on fine host memory: ok");
}

static void test_targets(void)
{
	struct co_target c, d;
	co_target_parse("gfx90a:xnack+", &c);
	co_target_parse("gfx90a:sramecc+:xnack-", &d);
	CHECK(co_target_match(&c, &d) < 0, "xnack+ code does not load on an xnack- device");
	co_target_parse("gfx90a", &c);
	CHECK(co_target_match(&c, &d) == 0, "xnack any loads on an xnack- device");
	co_target_parse("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", &c);
	CHECK(co_target_match(&c, &d) > 0, "xnack- is preferred (triple prefix accepted)");
	CHECK(co_target_parse("gfx90a:bogus", &c) < 0, "malformed feature refused");
}

/* The lines at risk in the source's order, whatever order the compiler
 * laid the atomics out in (LLVM 21 puts histo_maxor's or before its max). */
static void test_lines_order(void)
{
	char out[256];
	const unsigned all = CO_SITE_UNMARKED | CO_SITE_AGENT | CO_SITE_SYSTEM;
	size_t n = co_sites_lines("1+or@h.hip:86;1+max@h.hip:85;1+and@h.hip:100;"
				  "1+xor@a.hip:900;1+min@h.hip:85;0+add@h.hip:1",
				  1, ~0u, all, out, sizeof(out));

	CHECK(n == 5 && !strcmp(out, "xor@a.hip:900;max@h.hip:85;min@h.hip:85;"
				     "or@h.hip:86;and@h.hip:100"),
	      "atomic lines by file, then line as a number, one line in the code's order: %s",
	      out);
}

/* A sys_sites list reads as the atomics' lists do: by argument and system
 * scope, each line with its kind; "?" reaches every argument. */
static void test_sync_sites(void)
{
	const char *s = "0+load^s@f.hip:8;0+acquire^s@f.hip:8;1+release^s@f.hip:16";
	char out[128], at[64];
	uint32_t ops = 0;
	size_t n = co_sites_lines(s, 0, ~0u, CO_SITE_SYSTEM, out, sizeof(out));

	CHECK(n == 2 && !strcmp(out, "load@f.hip:8;acquire@f.hip:8"),
	      "a sync's lines name its kind: %s", out);
	CHECK(co_sites_reach(s, 1, ~0u, CO_SITE_SYSTEM, &ops, at, sizeof(at)) &&
	      !strcmp(at, "f.hip:16"), "a release reaches its argument at %s", at);
	CHECK(!co_sites_reach(s, 2, ~0u, CO_SITE_SYSTEM, &ops, at, sizeof(at)),
	      "no sync reaches an argument it is not tied to");
	CHECK(co_sites_reach("1+release^s@f.hip:16;?+acquire^s", 2, ~0u,
			     CO_SITE_SYSTEM, &ops, at, sizeof(at)),
	      "an unknown fence reaches every argument");
	CHECK(!strcmp(co_sync_name(CO_SYNC_ACQUIRE), "acquire") &&
	      !*co_sync_name(CO_SYNC_NONE) && !*co_sync_name(99),
	      "sync kinds by name");
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 64;
	size_t n = 0, m = 0;
	test_lines_order();
	test_sync_sites();
	void *bundle = slurp(argv[1], &n), *bare = slurp(argv[2], &m);
	struct co_error err;
	char msg[1024];
	struct { uint32_t magic, version; const void *binary, *dummy; } w = {
		0x48495046u, 1, bundle, NULL};
	struct co_set *set = co_set_from_wrapper(&w, &err);
	CHECK(set && co_set_count(set) == 3, "wrapper: 3 code objects (%s)",
	      set ? "" : co_error_str(&err, msg, sizeof msg));
	if (!set)
		return 1;
	long i = co_set_select(set, "gfx90a:sramecc+:xnack-");
	CHECK(i >= 0 && !strcmp(co_set_entry(set, i)->target, "gfx90a"),
	      "device gfx90a:sramecc+:xnack- picks the gfx90a code object");
	CHECK(co_set_select(set, "gfx1030") < 0, "no code object for gfx1030");
	w.magic = 0;
	CHECK(co_set_from_wrapper(&w, &err) == NULL && strstr(err.why, "HIPF"),
	      "bad wrapper magic refused");

	const struct co_entry *e = co_set_entry(set, i);
	struct co_object *o = co_object_open(e->data, e->size, "wrapper", &err);
	CHECK(o && co_object_analyse(o, CO_DEC_AUTO, &err) == 0, "open and analyse");
	if (o) {
		test_kernel(co_object_profiles(o));
		test_cache(co_object_profiles(o), argv[3]);
	}

	/* MI300's code: atomicAdd_system's sc1 is synchronization at system
	 * scope, kept by the cache like every other fact. */
	for (size_t j = 0; j < co_set_count(set); j++) {
		const struct co_entry *m3 = co_set_entry(set, j);
		struct co_object *mo;
		const struct co_kernel *fk;

		if (strncmp(m3->target, "gfx94", 5))
			continue;
		mo = co_object_open(m3->data, m3->size, "wrapper", &err);
		CHECK(mo && co_object_analyse(mo, CO_DEC_AUTO, &err) == 0,
		      "open and analyse %s", m3->target);
		fk = mo ? co_profiles_find(co_object_profiles(mo),
					   "_Z11fadd_systemPfPKfi") : NULL;
		CHECK(fk && fk->atomics.sys_count == 1 &&
		      !strncmp(fk->atomics.sys_sites, "0+atomic^s@atomics.hip:", 23),
		      "%s: atomicAdd_system synchronizes at system scope (%s)",
		      m3->target, fk ? fk->atomics.sys_sites : "no kernel");
		if (mo)
			test_cache(co_object_profiles(mo), argv[3]);
		co_object_free(mo);
	}

	struct co_set *img = co_set_from_image(bare, 0, &err);
	CHECK(img && co_set_count(img) == 1 && co_set_entry(img, 0)->size == m,
	      "bare ELF image without size: extent derived from its headers");
	co_set_free(img);
	img = co_set_from_image(bundle, 0, &err);
	CHECK(img && co_set_count(img) == 3, "bundle image without size");
	co_set_free(img);

	test_rules();
	test_targets();
	co_object_free(o);
	co_set_free(set);
	free(bundle);
	free(bare);
	return failures != 0;
}
