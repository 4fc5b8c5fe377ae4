/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the DWARF reader behind the atomics' source lines (co_dwarf.c,
 * co_dwarf_linetab.c, co_dwarf_lines.c) on its own, without the ELF around it:
 *
 *   9 x u32le   the lengths of .debug_info, _abbrev, _line, _line_str, _str,
 *               _str_offsets, _addr, _rnglists, _ranges (0: absent)
 *   bytes       those sections, back to back
 *   u64le...    the atomics' addresses (at most MAX_ADDRS)
 *
 * Each section gets its own allocation of its exact size, so that reading
 * one past its end is caught even where the next one follows in the input.
 * fz_dwarf_seed.py makes such inputs from real -g code objects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "co_dwarf.h"

#define MAX_ADDRS 64

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dwarf d = {0};
	uint8_t *own[S_N] = {0};
	struct co_insn insns[MAX_ADDRS];
	struct co_strpool *pool = NULL;
	size_t at = 4 * S_N, n = 0;

	if (size < at)
		return 0;
	for (int i = 0; i < S_N; i++) {
		size_t len = hg_load32(data + 4 * i);

		if (len > size - at)
			len = size - at;
		d.s[i].idx = -1;
		d.s[i].tried = true;
		if (len && (own[i] = malloc(len))) {
			memcpy(own[i], data + at, len);
			d.s[i].p = own[i];
			d.s[i].n = len;
		}
		at += len;
	}
	memset(insns, 0, sizeof insns);
	for (; n < MAX_ADDRS && size - at >= 8; n++, at += 8)
		insns[n].addr = hg_load64(data + at);
	co_dw_lines(&d, insns, n, &pool);
	/* A file comes with its line, and is a whole string (read to its end
	 * under ASan). */
	for (size_t i = 0; i < n; i++) {
		if ((insns[i].file != NULL) != (insns[i].line > 0))
			abort();
		if (insns[i].file)
			sink += strlen(insns[i].file);
	}
	co_pool_free(pool);
	for (int i = 0; i < S_N; i++)
		free(own[i]);
	return 0;
}
