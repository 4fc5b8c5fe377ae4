/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the instruction decoder and the interpreter (isa/, vgpu/exec/).
 * The input is a header of HEADER bytes, then code.  Every word of the
 * code is decoded on its own, as the scanner would at any address; then
 * the code runs as a kernel on a small memory: its descriptor (the
 * header's bits for the register setup and float mode), arguments that
 * point at a coarse-grained and a fine-grained page, and nothing else, so
 * that stray addresses fault.  Whatever the words, the engine must stop
 * within its step budget with a status it knows, and never read or write
 * outside what it was lent.
 *
 * Header: [0] the family (bits 0-1), named forms only (bit 6: words no
 * family form decodes to become s_nop, so that runs go deeper than the
 * first unknown word), link atomics (bit 7); [1] the work-group's shape, [2..3] rsrc2's low
 * half, [4..5] the code properties, [6..7] rsrc1's float mode bits,
 * [8..9] LDS bytes, [10..11] private bytes per lane.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vx.h"

#define HEADER 16
#define BASE 0x100000ull
#define KD BASE
#define CODE (BASE + 0x100)
#define CODE_MAX (0x8000 - 0x100)
#define KERNARG (BASE + 0x8000)
#define COARSE (BASE + 0x9000)
#define FINE (BASE + 0xa000)
#define SIZE 0xb000ull
#define STEPS 5000

static uint8_t mem[SIZE];

static int page(void *ctx, uint64_t va, int write, struct vx_page *out)
{
	(void)ctx;
	(void)write;
	if (va < BASE || va >= BASE + SIZE)
		return -1;
	out->host = mem + (va - BASE) / VX_PAGE * VX_PAGE;
	out->kind = va >= FINE ? VX_FINE | VX_HOST : VX_VRAM;
	out->region = va >= FINE ? FINE : va >= COARSE ? COARSE : BASE;
	return 0;
}

static void put(uint64_t va, const void *p, size_t n)
{
	memcpy(mem + (va - BASE), p, n);
}

static void put32(uint64_t va, uint32_t v)
{
	put(va, &v, 4);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* Each word decoded alone: a length that fits what was read, and a
 * name lookup that accepts whatever the fields hold. */
static void decode_all(const uint8_t *code, size_t n)
{
	static const enum isa_family fams[] = { ISA_GFX908, ISA_GFX90A, ISA_GFX940 };
	for (size_t i = 0; i + 4 <= n; i += 4) {
		struct isa_insn in;
		uint32_t w;
		memcpy(&w, code + i, 4);
		if (isa_decode(code + i, n - i, &in))
			continue;
		if ((in.len != 4 && in.len != 8) || in.len > n - i || in.len != isa_len(w) ||
		    in.fmt >= ISA_NFMT)
			abort();
		for (unsigned f = 0; f < 3; f++)
			(void)isa_name(fams[f], in.fmt, in.op);
		(void)isa_fmt_name(in.fmt);
	}
}

/* Replace what the family has no form for by s_nop, in place. */
static void named_only(uint8_t *code, size_t n, enum isa_family fam)
{
	for (size_t i = 0; i + 4 <= n;) {
		struct isa_insn in;
		if (!isa_decode(code + i, n - i, &in) && isa_name(fam, in.fmt, in.op)) {
			i += in.len;
			continue;
		}
		static const uint8_t nop[4] = { 0x00, 0x00, 0x80, 0xbf };
		memcpy(code + i, nop, 4);
		i += 4;
	}
}

static void layout(const uint8_t *h, const uint8_t *code, size_t n)
{
	memset(mem, 0, sizeof(mem));
	put32(KD + 0, get16(h + 8));		/* LDS bytes */
	put32(KD + 4, get16(h + 10));		/* private bytes */
	put32(KD + 8, 16);			/* kernarg bytes */
	uint64_t entry = CODE - KD;
	put(KD + 16, &entry, 8);
	put32(KD + 48, (uint32_t)get16(h + 6) << 12);	/* round, denormals, dx10, ieee */
	put32(KD + 52, get16(h + 2));
	uint16_t props = get16(h + 4);
	put(KD + 56, &props, 2);
	put(CODE, code, n);
	uint64_t args[2] = { COARSE, FINE };
	put(KERNARG, args, sizeof(args));
	for (uint64_t a = COARSE; a < BASE + SIZE; a += 4)
		put32(a, (uint32_t)a * 2654435761u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < HEADER + 4)
		return 0;
	const uint8_t *code = data + HEADER;
	size_t n = size - HEADER;
	if (n > CODE_MAX)
		n = CODE_MAX;
	decode_all(code, n);
	static const enum isa_family fams[] = { ISA_GFX908, ISA_GFX90A, ISA_GFX940 };
	static const uint16_t shapes[][3] = { { 64, 1, 1 }, { 128, 1, 1 }, { 8, 4, 2 },
					      { 1, 1, 1 }, { 96, 1, 1 }, { 16, 16, 1 } };
	const uint16_t *wg = shapes[data[1] % 6];
	layout(data, code, n);
	if (data[0] & 0x40)
		named_only(mem + (CODE - BASE), n, fams[(data[0] & 3) % 3]);
	struct vx_device dev = { .fam = fams[(data[0] & 3) % 3], .page = page,
				 .shared_base = 1ull << 48, .private_base = 2ull << 48,
				 .facts = { .cpu_link = (enum isa_link)(data[0] >> 6) % 3 } };
	struct vx_launch l = { .kd_va = KD, .kernarg_va = KERNARG, .packet_va = COARSE,
			       .queue_va = COARSE, .grid = { wg[0] * 2u, wg[1], wg[2] },
			       .wg = { wg[0], wg[1], wg[2] }, .max_insns = STEPS };
	struct vx_result r;
	enum vx_status st = vx_run(&dev, &l, &r);
	if (st != r.status || st > VX_LIMIT || r.ndrops > VX_DROPS ||
	    memchr(r.what, '\0', sizeof(r.what)) == NULL)
		abort();
	/* the budget is checked after every instruction */
	if (r.insns > STEPS)
		abort();
	return 0;
}
