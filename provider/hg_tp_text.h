/* SPDX-License-Identifier: MIT */
/*
 * The text a packed event writes (hg_tp.h): its words (hg_tp_pack_*), as
 * the widened bytes of hg_pack.h, as hg_text.h's text.  The preload and
 * tracegen write an event through the same function, so that the trace a
 * test makes is the one a program would.
 */
#ifndef HG_TP_TEXT_H
#define HG_TP_TEXT_H

#include "hg_pack.h"
#include "hg_text.h"
#include "hg_tp_types.h"

/* The characters of an event of n words' text, with its NUL. */
#define HG_TP_TEXT_MAX(n) (HG_TEXT_LEN(HG_PACK_MAX(n)) + 1)

/* Words as text, by the event's own whole-record writer (inlined: the
 * writer is a constant at every call). */
static inline __attribute__((always_inline)) void
hg_tp_text_words(const uint64_t *w, size_t (*whole)(const uint64_t *, uint8_t *),
		 char *t)
{
	uint8_t b[HG_PACK_MAX(HG_SHAPE_HEAD)];

	hg_text_encode(b, whole(w, b), t);
}

static inline void hg_tp_text_alloc(const struct hg_tp_alloc *a,
				    char t[HG_TP_TEXT_MAX(HG_ALLOC_WORDS)])
{
	uint64_t w[HG_ALLOC_WORDS];

	hg_tp_pack_alloc(a, w);
	hg_tp_text_words(w, hg_pack_alloc_whole, t);
}

static inline void hg_tp_text_free(const struct hg_tp_free *f,
				   char t[HG_TP_TEXT_MAX(HG_FREE_WORDS)])
{
	uint64_t w[HG_FREE_WORDS];

	hg_tp_pack_free(f, w);
	hg_pack_v5_free(w);
	hg_tp_text_words(w, hg_pack_free_whole, t);
}

static inline void hg_tp_text_memcpy(const struct hg_tp_memcpy *m,
				     char t[HG_TP_TEXT_MAX(HG_MEMCPY_WORDS)])
{
	uint64_t w[HG_MEMCPY_WORDS];

	hg_tp_pack_memcpy(m, w);
	hg_tp_text_words(w, hg_pack_memcpy_whole, t);
}

static inline void hg_tp_text_memset(const struct hg_tp_memset *m,
				     char t[HG_TP_TEXT_MAX(HG_MEMSET_WORDS)])
{
	uint64_t w[HG_MEMSET_WORDS];

	hg_tp_pack_memset(m, w);
	hg_tp_text_words(w, hg_pack_memset_whole, t);
}

#endif /* HG_TP_TEXT_H */
