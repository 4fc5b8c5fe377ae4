/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the AMDHSA metadata reader (msgpack): the input is wrapped into a
 * minimal valid AMDGPU ELF as its NT_AMDGPU_METADATA note, so every byte the
 * fuzzer changes lands in the metadata parser.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "co.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	size_t note = 12 + 8 + ((size + 3) & ~(size_t)3);
	size_t shoff = 64 + note, total = shoff + 3 * 64;
	uint8_t *elf = calloc(1, total + 16);
	if (!elf)
		return 0;
	memcpy(elf, "\177ELF\2\1\1", 7);
	put16(elf + 16, 3);         /* ET_DYN */
	put16(elf + 18, 224);       /* EM_AMDGPU */
	put64(elf + 40, shoff);
	put32(elf + 48, 0x3f | 0x200); /* gfx90a, xnack- */
	put16(elf + 58, 64);
	put16(elf + 60, 3);
	put16(elf + 62, 2);
	uint8_t *n = elf + 64;
	put32(n, 7);
	put32(n + 4, (uint32_t)size);
	put32(n + 8, 32);
	memcpy(n + 12, "AMDGPU", 7);
	memcpy(n + 20, data, size);
	uint8_t *sh = elf + shoff + 64; /* section 1: the note */
	put32(sh + 4, 7);
	put64(sh + 24, 64);
	put64(sh + 32, note);
	sh += 64;                       /* section 2: names (empty) */
	put32(sh + 4, 3);
	put64(sh + 24, total);
	put64(sh + 32, 1);
	struct co_error err;
	struct co_object *o = co_object_open(elf, total + 1, "fuzz", &err);
	if (o) {
		const struct co_profiles *p = co_object_profiles(o);
		for (uint32_t i = 0; i < p->nkernels; i++)
			co_profiles_find(p, p->kernels[i].name);
	}
	co_object_free(o);
	free(elf);
	return 0;
}
