/* SPDX-License-Identifier: MIT */
/* Granularity along an allocation as a short list of change points. */
#include "an_gran.h"

#include <stdio.h>
#include <string.h>

#include "an_names.h"
#include "an_state.h"
#include "hg_events.h"

uint8_t an_gran_at(const struct an_alloc *a, uint64_t off)
{
	uint8_t g = a->gran;

	for (unsigned i = 0; i < a->npieces && a->piece[i].off <= off; i++)
		g = a->piece[i].gran;
	return g;
}

/* Drops points that repeat the granularity before them. */
static void an_gran_coalesce(struct an_alloc *a)
{
	unsigned n = 0;

	for (unsigned i = 0; i < a->npieces; i++)
		if (!n || a->piece[n - 1].gran != a->piece[i].gran)
			a->piece[n++] = a->piece[i];
	a->npieces = (uint8_t)n;
	a->gran = n == 1 ? a->piece[0].gran : HG_GRAN_MIXED;
	if (n == 1)
		a->npieces = 0;
}

void an_gran_set(struct an_alloc *a, uint64_t lo, uint64_t hi, uint8_t gran)
{
	struct an_gran_piece p[AN_GRAN_PIECES + 2];
	uint8_t after = an_gran_at(a, hi);
	unsigned n = 0;

	if (a->npieces == 0 && a->gran == HG_GRAN_MIXED) {
		return; /* split in ways beyond the list: only "mixed" is known
			 */
	}
	if (a->npieces == 0)
		a->piece[a->npieces++] = (struct an_gran_piece){0, a->gran};
	for (unsigned i = 0; i < a->npieces && a->piece[i].off < lo; i++)
		p[n++] = a->piece[i];
	p[n++] = (struct an_gran_piece){lo, gran};
	if (hi < a->size)
		p[n++] = (struct an_gran_piece){hi, after};
	for (unsigned i = 0; i < a->npieces; i++)
		if (a->piece[i].off > hi && n < AN_GRAN_PIECES + 2)
			p[n++] = a->piece[i];
	if (n > AN_GRAN_PIECES) {
		a->npieces = 0;
		a->gran = HG_GRAN_MIXED;
		return;
	}
	memcpy(a->piece, p, n * sizeof(p[0]));
	a->npieces = (uint8_t)n;
	an_gran_coalesce(a);
}

const char *an_gran_pieces(const struct an_alloc *a, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < a->npieces && o < cap; i++) {
		uint64_t end =
		    i + 1 < a->npieces ? a->piece[i + 1].off : a->size;
		int w = snprintf(buf + o, cap - o, "%s%s at [%llu, %llu)",
				 i ? ", " : "", an_gran_name(a->piece[i].gran),
				 (unsigned long long)a->piece[i].off,
				 (unsigned long long)end);

		if (w < 0)
			break;
		o += (size_t)w;
	}
	return buf;
}
