/* SPDX-License-Identifier: MIT */
#include "gen.h"

#include <string.h>

static uint64_t rng_state = 1;

/* xorshift64*: the same numbers under every libc. */
uint64_t gen_rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

void gen_seed(uint64_t seed)
{
	rng_state = seed ? seed : 1; /* xorshift stays at 0 once there */
}

/* The fields each kind carries, by this test's own reading of the formats
 * (kinds 12 and 13 are the process events). */
static const char *const carried[] = {
	[1] = "pid text",
	[2] = "mask count",
	[3] = "seq text",
	[4] = "seq text",
	[5] = "ns pid addr size from to prefetch_loc preferred_loc trigger",
	[6] = "ns pid addr size from to trigger error",
	[7] = "ns pid addr node rw",
	[8] = "ns pid addr node rw",
	[9] = "ns pid node trigger",
	[10] = "ns pid node rw",
	[11] = "ns pid addr size node trigger",
	[12] = "pid text",
	[13] = "pid text",
};

static const char *const rws[] = {[7] = "RW", [8] = "MU", [10] = "R"};

/* Is field one of the words of the kind's list? */
static int has(int kind, const char *field)
{
	const char *all = carried[kind];
	size_t n = strlen(field);

	for (const char *s = all; (s = strstr(s, field)); s++)
		if ((s == all || s[-1] == ' ') && (!s[n] || s[n] == ' '))
			return 1;
	return 0;
}

static void random_text(char *out)
{
	size_t n = gen_rng() % KD_SMI_TEXT_MAX;

	for (size_t i = 0; i < n; i++)
		out[i] = (char)(' ' + gen_rng() % 95); /* printable, no newline */
	out[n] = '\0';
}

static char random_rw(int kind)
{
	const char *set = rws[kind];
	size_t n = strlen(set) + (kind == 10); /* a restore may have none */
	size_t i = gen_rng() % n;

	return i < strlen(set) ? set[i] : 0;
}

void gen_event(struct kd_smi_event *ev)
{
	const uint64_t page_mask = ~((1ULL << KD_SMI_PAGE_SHIFT) - 1);
	int k = 1 + (int)(gen_rng() % 13);

	memset(ev, 0, sizeof(*ev));
	ev->kind = k;
	ev->ns = has(k, "ns") ? gen_rng() >> 1 : 0;
	ev->pid = has(k, "pid") ? (int32_t)(gen_rng() >> 33) : 0;
	ev->addr = has(k, "addr") ? gen_rng() & page_mask : 0;
	/* sizes of every magnitude, not only huge ones */
	ev->size = has(k, "size") ? (gen_rng() >> (gen_rng() % 64)) & page_mask
				  : 0;
	ev->from = has(k, "from") ? (uint32_t)gen_rng() : 0;
	ev->to = has(k, "to") ? (uint32_t)gen_rng() : 0;
	ev->node = has(k, "node") ? (uint32_t)gen_rng() : 0;
	ev->prefetch_loc = has(k, "prefetch_loc") ? (uint32_t)gen_rng() : 0;
	ev->preferred_loc = has(k, "preferred_loc") ? (uint32_t)gen_rng() : 0;
	ev->trigger = has(k, "trigger") ? (int32_t)gen_rng() : 0;
	ev->error = has(k, "error") ? -(int32_t)(gen_rng() % 200) : 0;
	ev->rw = has(k, "rw") ? random_rw(k) : 0;
	ev->seq = has(k, "seq") ? (uint32_t)gen_rng() : 0;
	ev->mask = has(k, "mask") ? gen_rng() : 0;
	ev->count = has(k, "count") ? gen_rng() : 0;
	if (has(k, "text"))
		random_text(ev->text);
}
