/* SPDX-License-Identifier: MIT */
/*
 * The first-word readers (isa_fmt_of, isa_op_of, isa_seek) against the
 * decoder: the scanner skips most instructions by them and decodes only
 * the rest, so where they disagree with isa_decode it would miss or
 * misname an atomic.  Random words from a fixed seed, and every opcode
 * field of every format's first word.
 */
#include <stdio.h>
#include <string.h>

#include "isa.h"

static unsigned long long state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)state;
}

static int check_word(uint32_t w0, uint32_t w1)
{
	uint32_t b[2] = { w0, w1 };
	struct isa_insn in;

	if (isa_decode((const uint8_t *)b, sizeof(b), &in))
		return 0;
	if (isa_fmt_of(w0) == in.fmt && isa_op_of(w0) == in.op)
		return 0;
	printf("not ok - %08x %08x: decoder %s 0x%x, first word %s 0x%x\n",
	       w0, w1, isa_fmt_name(in.fmt), in.op, isa_fmt_name(isa_fmt_of(w0)),
	       isa_op_of(w0));
	return 1;
}

/* A stream of instructions, walked by the decoder and by isa_seek for one
 * format: the same positions and the same count before each. */
static int check_seek(unsigned fmt)
{
	uint8_t code[4096];
	size_t n = 0, pos = 0;
	unsigned long count = 0, want = 0;
	struct isa_insn in;
	int got;

	while (n + 8 <= sizeof(code)) {
		uint32_t b[2] = { rnd(), rnd() };
		memcpy(code + n, b, 8);
		if (isa_decode(code + n, 8, &in) == 0)
			n += in.len;
	}
	for (size_t at = 0; at < n; at += in.len, want++) {
		isa_decode(code + at, n - at, &in);
		if (in.fmt != fmt)
			continue;
		got = isa_seek(code, n, &pos, 1u << fmt, &count);
		if (got != (int)fmt || pos != at || count != want) {
			printf("not ok - seek %s: at %zu after %lu, decoder at %zu after %lu\n",
			       isa_fmt_name(fmt), pos, count, at, want);
			return 1;
		}
		pos += in.len;
		count++;
	}
	got = isa_seek(code, n, &pos, 1u << fmt, &count);
	if (got != ISA_NFMT || pos != n || count != want) {
		printf("not ok - seek %s: end %d at %zu after %lu, decoder %zu after %lu\n",
		       isa_fmt_name(fmt), got, pos, count, n, want);
		return 1;
	}
	return 0;
}

int main(void)
{
	int bad = 0;

	printf("1..3\n");
	for (int i = 0; i < 2000000 && !bad; i++)
		bad |= check_word(rnd(), rnd());
	printf("%sok 1 - format and opcode of random words as decoded\n", bad ? "not " : "");
	int bad2 = 0;
	for (uint32_t top = 0; top < 64 && !bad2; top++)
		for (uint32_t mid = 0; mid < 1u << 12 && !bad2; mid++)
			bad2 |= check_word(top << 26 | mid << 14 | (rnd() & 0x3fff), rnd());
	printf("%sok 2 - every opcode field of every format\n", bad2 ? "not " : "");
	int bad3 = 0;
	for (unsigned f = 0; f < ISA_NFMT; f++)
		bad3 |= check_seek(f);
	printf("%sok 3 - isa_seek stops where the decoder finds each format\n", bad3 ? "not " : "");
	return bad || bad2 || bad3;
}
