/* SPDX-License-Identifier: MIT */
/*
 * Our decoder against comgr's, kernel by kernel: the same atomics (mnemonic
 * and address) or a non-zero exit naming the first difference.  Also prints
 * instructions/s of both, which bench/scan reuses.
 *   co_agree [--target ID] [--max N] FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "co.h"
#include "co_int.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct totals {
	unsigned long long insns[2], atomics, kernels, objects, dec_insns;
	double secs[2], dec_secs;
};

static void ignore(void *ctx, const struct co_insn *in)
{
	(void)ctx;
	(void)in;
}

/*
 * Our decoder alone over every kernel, the way the analysis runs it: the
 * analysis also traces each atomic's argument and reads DWARF lines, whose
 * time would hide the decoder's.
 */
static void decode_only(const struct co_entry *e, const struct co_profiles *p,
			struct totals *t)
{
	struct co_elf elf;
	struct co_shdr sh;
	struct co_target tg;
	const char *why;
	uint64_t bad;

	if (co_elf_open(&elf, e->data, e->size, &why, &bad) ||
	    co_target_parse(p->target, &tg))
		return;
	enum isa_family fam = co_isa_family(tg.proc);
	double t0 = now();
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const struct co_kernel *k = &p->kernels[i];
		const uint8_t *code = NULL;

		for (unsigned j = 1; j < elf.shnum && !code && k->code_size; j++)
			if (co_elf_shdr(&elf, j, &sh) == 0 && (sh.flags & 4) &&
			    sh.type != CO_SHT_NOBITS && k->code_addr >= sh.addr &&
			    k->code_addr - sh.addr < sh.size &&
			    k->code_size <= sh.size - (k->code_addr - sh.addr))
				code = elf.p + sh.offset + (k->code_addr - sh.addr);
		long n = code ? co_isa_scan(fam, code, k->code_size,
					    k->code_addr, ignore, NULL) : -1;
		if (n > 0)
			t->dec_insns += (unsigned long long)n;
	}
	t->dec_secs += now() - t0;
}

static int compare(const struct co_profiles *a, const struct co_profiles *b,
		   const char *where)
{
	for (uint32_t i = 0; i < a->nkernels; i++) {
		const struct co_kernel *x = &a->kernels[i], *y = &b->kernels[i];
		if (!x->atomics.analysed) {
			printf("FAIL %s: %s: own decoder gave up\n", where, x->name);
			return 1;
		}
		if (x->ninsns != y->ninsns) {
			printf("FAIL %s: %s: own %u atomics, comgr %u\n", where,
			       x->name, x->ninsns, y->ninsns);
			return 1;
		}
		for (uint32_t j = 0; j < x->ninsns; j++)
			if (x->insns[j].addr != y->insns[j].addr ||
			    strcmp(x->insns[j].mnemonic, y->insns[j].mnemonic)) {
				printf("FAIL %s: %s: own %s@0x%llx, comgr %s@0x%llx\n",
				       where, x->name, x->insns[j].mnemonic,
				       (unsigned long long)x->insns[j].addr,
				       y->insns[j].mnemonic,
				       (unsigned long long)y->insns[j].addr);
				return 1;
			}
	}
	return 0;
}

static int one(const struct co_entry *e, const char *path, struct totals *t)
{
	struct co_error err;
	char msg[1024];
	struct co_object *own = co_object_open(e->data, e->size, path, &err);
	struct co_object *ref = co_object_open(e->data, e->size, path, &err);
	int rc = 1;
	if (!own || !ref)
		goto out;
	double t0 = now();
	if (co_object_analyse(own, CO_DEC_OWN, &err))
		goto out;
	double t1 = now();
	if (co_object_analyse(ref, CO_DEC_COMGR, &err)) {
		if (strstr(err.why, "does not know")) {
			/* Debian's comgr (ROCm 5.2) predates gfx940: the
			 * llvm-objdump test covers those */
			printf("SKIP %s [%s]: %s\n", path, e->target, err.why);
			rc = 0;
			goto done;
		}
		goto out;
	}
	double t2 = now();
	const struct co_profiles *a = co_object_profiles(own), *b = co_object_profiles(ref);
	t->secs[0] += t1 - t0;
	t->secs[1] += t2 - t1;
	t->insns[0] += a->decoded;
	t->insns[1] += b->decoded;
	decode_only(e, a, t);
	t->kernels += a->nkernels;
	t->objects++;
	for (uint32_t i = 0; i < a->nkernels; i++)
		t->atomics += a->kernels[i].ninsns;
	if (a->decoded != b->decoded) {
		printf("FAIL %s [%s]: own decoded %llu instructions, comgr %llu\n",
		       path, e->target, (unsigned long long)a->decoded,
		       (unsigned long long)b->decoded);
		goto done;
	}
	rc = compare(a, b, e->target);
	goto done;
out:
	printf("FAIL %s\n", co_error_str(&err, msg, sizeof msg));
done:
	co_object_free(own);
	co_object_free(ref);
	return rc;
}

int main(int argc, char **argv)
{
	const char *target = NULL;
	long max = -1;
	struct totals t = {0};
	int i = 1, rc = 0;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--target"))
			target = argv[i + 1];
		else if (!strcmp(argv[i], "--max"))
			max = atol(argv[i + 1]);
	}
	struct co_target want;
	if (target && co_target_parse(target, &want))
		return 64;
	for (; i < argc; i++) {
		struct co_error err;
		char msg[1024];
		struct co_set *set = co_set_from_file(argv[i], &err);
		if (!set) {
			printf("FAIL %s\n", co_error_str(&err, msg, sizeof msg));
			return 1;
		}
		for (size_t j = 0; j < co_set_count(set); j++) {
			const struct co_entry *e = co_set_entry(set, j);
			struct co_target ct;
			if (target && (co_target_parse(e->target, &ct) ||
				       co_target_match(&ct, &want) < 0))
				continue;
			if (max >= 0 && (long)t.objects >= max)
				break;
			rc |= one(e, argv[i], &t);
		}
		co_set_free(set);
	}
	printf("objects %llu kernels %llu atomics %llu\n", t.objects, t.kernels, t.atomics);
	printf("own   %llu insns %.4f s %.1f Minsn/s (decoder alone)\n",
	       t.dec_insns, t.dec_secs, t.dec_insns / (t.dec_secs + 1e-9) / 1e6);
	printf("own analysis %llu insns %.4f s %.1f Minsn/s (with arguments and lines)\n",
	       t.insns[0], t.secs[0], t.insns[0] / (t.secs[0] + 1e-9) / 1e6);
	printf("comgr %llu insns %.3f s %.3f Minsn/s\n", t.insns[1], t.secs[1],
	       t.insns[1] / (t.secs[1] + 1e-9) / 1e6);
	printf("ratio %.0fx\n", (t.secs[1] / (t.insns[1] + 1)) /
				  (t.dec_secs / (t.dec_insns + 1) + 1e-12));
	if (!t.objects) {
		printf("FAIL no code object compared\n");
		return 1;
	}
	return rc;
}
