/* SPDX-License-Identifier: MIT */
/*
 * Runs one work-group of 64 work-items of a bare code blob on the
 * interpreter, with a memory of its own, and prints what the kernel left
 * in its output page: the engine tested directly, no runtime, no driver.
 *
 * usage: vx-probe gfx90a CODE.bin WORDS [ITEMS]
 * ITEMS: the work-group's size (64 unless given), its waves sharing LDS.
 * VX_PROBE_LDS=KD,PACKET: the LDS bytes of the descriptor and the packet.
 * Memory: the descriptor at 0x100000 and its code 256 bytes on; the
 * kernel's arguments at 0x110000 (the output page's address, then the
 * address of a page of fine-grained host memory); the output page at
 * 0x120000 (coarse-grained device memory); the fine page at 0x130000;
 * at 0x140000 512 KiB of fine-grained system memory in no buffer object,
 * as pageable memory is, two 64 KiB blocks at its end named as a tracer
 * would name them.  Each holds zeros at start, the fine page the
 * float 1.0 per dword.
 * VX_PROBE_MACHINE=LINK,ATOMICOPS,APU: the facts AMD's atomics tables
 * read (pcie|xgmi, yes|no, yes|no); unknown ones unless given.
 * VX_PROBE_KIND=MEMORY,GRANULARITY: the fine page's kind instead, in the
 * tables' words (device|migratable-host|pinned-host, coarse|fine).
 * VX_PROBE_REPEAT=N: the dispatch N times, each with the output page's
 * address one dword past the one before, so that what one dispatch's wave
 * touched the next one's neighbouring wave touches; what is printed is
 * memory after the last and the last one's findings.
 * VX_PROBE_INIT=FILE: the fine page's first bytes instead of the 1.0s,
 * the rest zeros; after the output page's words, a line "fine" and as
 * many words of the fine page as the file held, as the kernel left them.
 * After the status, each region's traffic: "traffic REGION:LO-HI:READ/
 * WRITTEN", the kernel's arguments not counted; then each race between
 * waves, "race CLASSES:SPACE:LO-HI" (classes w, r, a for write, read and
 * atomic, the write first; space lds or global); then each stale read
 * the L2 model served, "stale LO-HI:COUNT"; then each store a dispatch
 * cut short left in the L2, "unwritten LO-HI:COUNT".
 * VX_PROBE_BUDGET=N: the dispatch's instruction budget (none unless
 * given), the end of a kernel that spins for ever.
 * VX_PROBE_GENERAL: every form through the interpreter's general frame;
 * VX_PROBE_BASELINE: the lane loops built for the architecture's baseline,
 * not the widest the host has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx.h"

#define BASE 0x100000ull
#define SIZE 0xc0000ull
#define KD (BASE)
#define KERNARG 0x110000ull
#define OUT 0x120000ull
#define FINE 0x130000ull
#define PAGEABLE 0x140000ull

static uint8_t mem[SIZE];
/* The fine page's kind (VX_PROBE_KIND), fine host memory unless given. */
static uint32_t fine_kind = VX_FINE | VX_HOST;

static int page(void *ctx, uint64_t va, int write, struct vx_page *out)
{
	(void)ctx;
	(void)write;
	if (va < BASE || va >= BASE + SIZE)
		return -1;
	out->host = mem + (va - BASE);
	out->kind = va >= PAGEABLE ? VX_FINE | VX_HOST : va >= FINE ? fine_kind : VX_VRAM;
	/* drops and traffic name it; pageable memory is in no buffer object */
	out->region = va >= PAGEABLE ? 0 : va >= FINE ? FINE : va >= OUT ? OUT : BASE;
	return 0;
}

/* Two blocks a tracer would know, in the pageable memory's last 128 KiB,
 * each starting 16 bytes into its first page as a malloc'd chunk does. */
static uint64_t block(void *ctx, uint64_t va)
{
	(void)ctx;
	for (uint64_t b = PAGEABLE + 0x60010; b < BASE + SIZE; b += 0x10000)
		if (va >= b && va < b + 0x10000 - 0x10)
			return b;
	return 0;
}

static void put32(uint64_t va, uint32_t v)
{
	memcpy(mem + (va - BASE), &v, 4);
}

static void put64(uint64_t va, uint64_t v)
{
	memcpy(mem + (va - BASE), &v, 8);
}

static int word_of(const char *s, size_t n, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(s, words[i], n))
			return i;
	return -1;
}

/* VX_PROBE_MACHINE: "LINK,ATOMICOPS,APU"; 0, or -1 for a bad one. */
static int machine(struct isa_atab_facts *f)
{
	static const char *const link[] = { "pcie", "xgmi", NULL };
	static const char *const yn[] = { "yes", "no", NULL };
	const char *s = getenv("VX_PROBE_MACHINE");
	if (!s)
		return 0;
	int v[3];
	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(s, ",");
		v[i] = word_of(s, n, i ? yn : link);
		if (v[i] < 0 || (i < 2 ? s[n] != ',' : s[n] != '\0'))
			return -1;
		s += n + 1;
	}
	f->cpu_link = v[0] ? ISA_LINK_XGMI : ISA_LINK_PCIE;
	f->pcie_atomics = v[1] ? ISA_FACT_NO : ISA_FACT_YES;
	f->apu = v[2] ? ISA_FACT_NO : ISA_FACT_YES;
	return 0;
}

/* VX_PROBE_KIND: "MEMORY,GRANULARITY"; 0, or -1 for a bad one.  The
 * driver's bits cannot tell migratable from pinned host memory: both are
 * system memory over the link. */
static int kind(void)
{
	static const char *const where[] = { "device", "migratable-host", "pinned-host", NULL };
	static const char *const gran[] = { "coarse", "fine", NULL };
	const char *s = getenv("VX_PROBE_KIND");
	if (!s)
		return 0;
	size_t n = strcspn(s, ",");
	int w = word_of(s, n, where), g = s[n] ? word_of(s + n + 1, strlen(s + n + 1), gran) : -1;
	if (w < 0 || g < 0)
		return -1;
	fine_kind = (w ? VX_HOST : VX_VRAM) | (g ? VX_FINE : 0);
	return 0;
}

/* VX_PROBE_INIT: the fine page's first bytes; how many, or -1. */
static long init_fine(void)
{
	const char *path = getenv("VX_PROBE_INIT");
	if (!path)
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t n = fread(mem + (FINE - BASE), 1, PAGEABLE - FINE, f);
	fclose(f);
	return (long)n;
}

static void print_words(uint64_t va, unsigned words)
{
	for (unsigned i = 0; i < words; i++) {
		uint32_t v;
		memcpy(&v, mem + (va - BASE) + 4 * i, 4);
		printf("%08x%c", v, i % 8 == 7 ? '\n' : ' ');
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: vx-probe ARCH CODE.bin WORDS [ITEMS]\n");
		return 64;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	size_t n = fread(mem + 0x100, 1, 0x10000 - 0x100, f);
	fclose(f);
	/* LDS bytes: all a group may have, unless VX_PROBE_LDS says the
	 * descriptor's and the packet's figures ("KD,PACKET"), as a runtime
	 * writes them: the packet's includes the descriptor's. */
	unsigned long lds_kd = 0x10000, lds_packet = 0;
	const char *lds = getenv("VX_PROBE_LDS");
	if (lds && sscanf(lds, "%lu,%lu", &lds_kd, &lds_packet) != 2) {
		fprintf(stderr, "vx-probe: VX_PROBE_LDS is KD,PACKET\n");
		return 64;
	}
	put32(KD + 0, (uint32_t)lds_kd);
	put64(KD + 16, 0x100);			/* the code, after the descriptor */
	put32(KD + 4, 256);			/* private bytes per lane */
	put32(KD + 8, 16);			/* kernarg bytes: the two addresses */
	put32(KD + 44, 0);
	put32(KD + 48, 0x3u << 16 | 0x3u << 18);/* keep denormals */
	put32(KD + 52, 2u << 1 | 1u << 7);	/* two user SGPRs, work-group id x */
	mem[56] = 1u << 3;			/* the kernarg pointer in s[0:1] */
	put64(KERNARG, OUT);
	put64(KERNARG + 8, FINE);
	long init = init_fine();
	if (init < 0)
		return 1;
	for (uint64_t a = FINE; a < PAGEABLE && !getenv("VX_PROBE_INIT"); a += 4)
		put32(a, 0x3f800000u);
	struct vx_device dev = { .fam = isa_family_of(argv[1]), .page = page, .block = block,
				 .shared_base = 1ull << 48, .private_base = 2ull << 48,
				 .general_only = getenv("VX_PROBE_GENERAL") != NULL,
				 .baseline_loops = getenv("VX_PROBE_BASELINE") != NULL,
				 .races = 1 };
	uint16_t items = argc == 5 ? (uint16_t)strtoul(argv[4], NULL, 0) : 64;
	struct vx_launch l = { .kd_va = KD, .kernarg_va = KERNARG,
			       .grid = { items, 1, 1 }, .wg = { items, 1, 1 },
			       .group_segment_size = (uint32_t)lds_packet };
	const char *budget = getenv("VX_PROBE_BUDGET");
	l.budget = budget ? strtoull(budget, NULL, 0) : 0;
	struct vx_result r;
	if (machine(&dev.facts) < 0 || kind() < 0) {
		fprintf(stderr, "vx-probe: VX_PROBE_MACHINE is LINK,ATOMICOPS,APU "
			"(pcie|xgmi,yes|no,yes|no), VX_PROBE_KIND is MEMORY,GRANULARITY\n");
		return 64;
	}
	if (!n || dev.fam == ISA_UNKNOWN) {
		fprintf(stderr, "vx-probe: no code, or unknown arch %s\n", argv[1]);
		return 1;
	}
	const char *repeat = getenv("VX_PROBE_REPEAT");
	unsigned runs = repeat ? (unsigned)strtoul(repeat, NULL, 0) : 1;
	for (unsigned k = 0; k < (runs ? runs : 1); k++) {
		put64(KERNARG, OUT + 4 * k);
		vx_run(&dev, &l, &r);
	}
	printf("status %d drops %u", r.status, r.ndrops);
	if (r.ndrops)
		printf(" dropped %llu", (unsigned long long)r.drops[0].count);
	if (r.status == VX_UNKNOWN)
		printf(" lacks %s", r.what);
	if (r.status == VX_TOO_LARGE)
		printf(" too large: %s", r.what);
	for (unsigned i = 0; i < r.ntraffic; i++)
		printf(" traffic %llx:%llx-%llx:%llu/%llu",
		       (unsigned long long)r.traffic[i].region, (unsigned long long)r.traffic[i].lo,
		       (unsigned long long)r.traffic[i].hi, (unsigned long long)r.traffic[i].read,
		       (unsigned long long)r.traffic[i].written);
	for (unsigned i = 0; i < r.nstales; i++)
		printf(" stale %llx-%llx:%llu", (unsigned long long)r.stales[i].lo,
		       (unsigned long long)r.stales[i].hi, (unsigned long long)r.stales[i].count);
	for (unsigned i = 0; i < r.nunwritten; i++)
		printf(" unwritten %llx-%llx:%llu", (unsigned long long)r.unwritten[i].lo,
		       (unsigned long long)r.unwritten[i].hi,
		       (unsigned long long)r.unwritten[i].count);
	for (unsigned i = 0; i < r.nraces; i++)
		printf(" race %c-%c:%s:%llx-%llx", "rwa"[r.races[i].cls[0]],
		       "rwa"[r.races[i].cls[1]],
		       r.races[i].lds ? "lds" : "global", (unsigned long long)r.races[i].lo,
		       (unsigned long long)r.races[i].hi);
	putchar('\n');
	unsigned words = (unsigned)strtoul(argv[3], NULL, 0);
	print_words(OUT, words < (FINE - OUT) / 4 ? words : (FINE - OUT) / 4);
	if (getenv("VX_PROBE_INIT")) {
		puts("fine");
		print_words(FINE, (unsigned)(init / 4));
	}
	return 0;
}
