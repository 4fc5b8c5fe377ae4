/* SPDX-License-Identifier: MIT */
#include "dec_pack.h"

#include <stdio.h>
#include <string.h>

static const struct hg_shape *dec_shape(enum dec_kind kind,
					enum dec_form form)
{
	static const struct hg_shape *const bytes[DEC_KINDS] = {
		&hg_shape_alloc, &hg_shape_free, &hg_shape_launch,
		&hg_shape_memcpy, &hg_shape_memset};

	if (form == DEC_FORM_REF)
		return &hg_shape_launch6;
	if (form == DEC_FORM_PACK)
		return hg_shape_v5(bytes[kind]);
	return form == DEC_FORM_BYTES ? bytes[kind] : NULL;
}

_Static_assert(DEC_WINDOW >= HG_UNPACK_WORD_MAX,
	       "the window holds the most bytes of a word");

/* The window moved on to the bytes not yet unpacked, and as many more as
 * it holds.  Inlined: at the open, with nothing to move, it is the copy. */
static inline __attribute__((always_inline)) void
dec_fill(struct dec_words *it)
{
	static const uint64_t zero;
	struct hg_unpacker *u = &it->u;
	uint64_t keep = u->len - u->pos, n = it->src.len - it->i;

	if (n > DEC_WINDOW - keep)
		n = DEC_WINDOW - keep;
	if (keep)
		memmove(it->win, it->win + u->pos, keep);
	if (it->src.bytes)
		it->src.bytes(it->src.ctx, it->i, n, it->win + keep);
	else
		for (uint64_t k = 0; k < n; k++)
			it->win[keep + k] =
				(uint8_t)it->src.elem(it->src.ctx, it->i + k);
	it->i += n;
	u->pos = 0;
	u->len = keep + n;
	memcpy(it->win + u->len, &zero, sizeof(zero));
}

/* The fields one by one: the window and values need no zeroing. */
static void dec_words_open(struct dec_words *it, const struct dec_src *src,
			   enum dec_kind kind, enum dec_form form)
{
	int n;

	it->src = *src;
	it->shape = dec_shape(kind, form);
	it->u = (struct hg_unpacker)HG_UNPACK_INIT(0);
	it->i = 0;
	it->whole = false;
	if (!it->shape)
		return;
	dec_fill(it);
	if (it->i < it->src.len)
		return;
	n = hg_unpack_all(it->win, it->u.len, it->vals);
	it->whole = n >= 0;
	it->nv = (unsigned)n;
	it->at = 0;
}

/* The next word of bytes read a word at a time.  With a word's most bytes
 * in the window, or the source's last, its end is never mistaken for the
 * bytes'. */
static bool dec_word(struct dec_words *it, uint64_t *w)
{
	if (it->u.len - it->u.pos < HG_UNPACK_WORD_MAX && it->i < it->src.len)
		dec_fill(it);
	return hg_unpack_word(it->shape, &it->u, it->win, w);
}

/* n words into w, from the bytes or the elements; returns how many were
 * read whole. */
static unsigned dec_take(struct dec_words *it, uint64_t *w, unsigned n)
{
	unsigned k = 0;

	if (it->shape) {
		while (k < n && dec_word(it, &w[k]))
			k++;
	} else {
		for (; k < n && it->i < it->src.len; k++)
			w[k] = it->src.elem(it->src.ctx, it->i++);
	}
	return k;
}

/* Whether the words ended cleanly: no byte left but a final tag's
 * unused half. */
static bool dec_words_done(const struct dec_words *it)
{
	/* bytes that end cleanly end with their last value */
	if (it->whole)
		return it->at >= it->nv;
	if (it->i < it->src.len)
		return false;
	return !it->shape ||
	       (it->u.pos >= it->u.len &&
		(it->u.pending == 0x10 || it->u.pending == HG_PACK_NONE));
}

/* The head's words into w (s: the shape of the form, for its count and
 * cuts; a constant where this is inlined); the error when fewer came.
 * Where the values fall short, the bytes are read from the start a word
 * at a time (that reader has not moved), which says where and how they
 * stop. */
static inline __attribute__((always_inline)) int
dec_read(struct dec_words *it, const struct hg_shape *s, uint64_t *w,
	 unsigned *nwords)
{
	unsigned n = s->nhead, k = n;

	if (!it->whole ||
	    !hg_values_words(s->head, n, it->vals, it->nv, &it->at, w)) {
		it->whole = false;
		k = dec_take(it, w, n);
	}
	if (nwords)
		*nwords = k;
	if (k == n)
		return DEC_OK;
	return dec_words_done(it) ? DEC_E_SHORT : DEC_E_DAMAGED;
}

/* The fixed words of an alloc, a free, a memcpy or a memset (of shape s
 * in every form that has one). */
static inline __attribute__((always_inline)) int
dec_record(const struct dec_src *src, enum dec_form form, enum dec_kind kind,
	   const struct hg_shape *s, uint64_t *w, unsigned *nwords)
{
	struct dec_words it;

	dec_words_open(&it, src, kind, form);
	return dec_read(&it, s, w, nwords);
}

int dec_alloc_unpack(const struct dec_src *s, enum dec_form form,
		     struct dec_alloc *a, unsigned *nwords)
{
	uint64_t w[HG_ALLOC_WORDS] = {0};
	int rc = dec_record(s, form, DEC_ALLOC, &hg_shape_alloc, w, nwords);

	*a = (struct dec_alloc){0};
	if (rc)
		return rc;
	*a = (struct dec_alloc){
		.id = w[HG_AW_ID], .addr = w[HG_AW_ADDR],
		.size = w[HG_AW_SIZE], .extra = w[HG_AW_EXTRA],
		.callsite = w[HG_AW_CALLSITE],
		.flags = (uint32_t)w[HG_AW_FLAGS_RC],
		.rc = (int32_t)(uint32_t)(w[HG_AW_FLAGS_RC] >> 32),
		.device = (int32_t)(uint32_t)w[HG_AW_CODES],
		.api = (uint8_t)(w[HG_AW_CODES] >> 32),
		.mem = (uint8_t)(w[HG_AW_CODES] >> 40),
		.gran = (uint8_t)(w[HG_AW_CODES] >> 48),
		.lazy = (uint8_t)(w[HG_AW_CODES] >> 56),
	};
	return DEC_OK;
}

int dec_free_unpack(const struct dec_src *s, enum dec_form form,
		    struct dec_free *f, unsigned *nwords)
{
	uint64_t w[HG_FREE_WORDS] = {0};
	int rc = dec_record(s, form, DEC_FREE, &hg_shape_free, w, nwords);

	*f = (struct dec_free){0};
	if (rc)
		return rc;
	*f = (struct dec_free){
		.id = w[HG_FW_ID], .addr = w[HG_FW_ADDR],
		.size = w[HG_FW_SIZE], .callsite = w[HG_FW_CALLSITE],
		.rc = (int32_t)(uint32_t)w[HG_FW_CODES],
		.api = (uint8_t)(w[HG_FW_CODES] >> 32),
		.alloc_api = (uint8_t)(w[HG_FW_CODES] >> 40),
		/* a known block's free leaves both to its alloc
		 * (hg_pack_v5_free) */
		.elided = form == DEC_FORM_PACK && w[HG_FW_ID],
	};
	return DEC_OK;
}

int dec_memcpy_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_memcpy *m, unsigned *nwords)
{
	uint64_t w[HG_MEMCPY_WORDS] = {0};
	int rc = dec_record(s, form, DEC_MEMCPY, &hg_shape_memcpy, w, nwords);

	*m = (struct dec_memcpy){0};
	if (rc)
		return rc;
	*m = (struct dec_memcpy){
		.dst = w[HG_MW_DST], .src = w[HG_MW_SRC],
		.size = w[HG_MW_SIZE], .dst_id = w[HG_MW_DST_ID],
		.src_id = w[HG_MW_SRC_ID], .stream = w[HG_MW_STREAM],
		.callsite = w[HG_MW_CALLSITE],
		.kind = (int32_t)(uint32_t)w[HG_MW_KIND_RC],
		.rc = (int32_t)(uint32_t)(w[HG_MW_KIND_RC] >> 32),
		.api = (uint8_t)w[HG_MW_CODES],
		.dst_mem = (uint8_t)(w[HG_MW_CODES] >> 8),
		.src_mem = (uint8_t)(w[HG_MW_CODES] >> 16),
		.async = (uint8_t)(w[HG_MW_CODES] >> 24),
	};
	return DEC_OK;
}

int dec_memset_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_memset *m, unsigned *nwords)
{
	uint64_t w[HG_MEMSET_WORDS] = {0};
	int rc = dec_record(s, form, DEC_MEMSET, &hg_shape_memset, w, nwords);

	*m = (struct dec_memset){0};
	if (rc)
		return rc;
	*m = (struct dec_memset){
		.dst = w[HG_SW_DST], .size = w[HG_SW_SIZE],
		.dst_id = w[HG_SW_DST_ID], .stream = w[HG_SW_STREAM],
		.callsite = w[HG_SW_CALLSITE],
		.value = (int32_t)(uint32_t)w[HG_SW_VALUE_RC],
		.rc = (int32_t)(uint32_t)(w[HG_SW_VALUE_RC] >> 32),
		.api = (uint8_t)w[HG_SW_CODES],
		.dst_mem = (uint8_t)(w[HG_SW_CODES] >> 8),
	};
	return DEC_OK;
}

static void dec_launch_head(const uint64_t *w, struct dec_launch *l)
{
	*l = (struct dec_launch){
		.handle = w[HG_LW_HANDLE], .stream = w[HG_LW_STREAM],
		.grid = {(uint32_t)w[HG_LW_GRID_XY],
			 (uint32_t)(w[HG_LW_GRID_XY] >> 32),
			 (uint32_t)w[HG_LW_GRID_Z_BLOCK_X]},
		.block = {(uint32_t)(w[HG_LW_GRID_Z_BLOCK_X] >> 32),
			  (uint32_t)w[HG_LW_BLOCK_YZ],
			  (uint32_t)(w[HG_LW_BLOCK_YZ] >> 32)},
		.shmem = (uint32_t)w[HG_LW_SHMEM_RC],
		.rc = (int32_t)(uint32_t)(w[HG_LW_SHMEM_RC] >> 32),
		.repeat = (uint32_t)w[HG_LW_REPEAT_API],
		.api = (uint8_t)(w[HG_LW_REPEAT_API] >> 32),
	};
}

/* All but the words and the sequences, which their openers set: the
 * window needs no zeroing. */
static void dec_args_start(struct dec_args *it, enum dec_form form)
{
	it->form = form;
	it->w.whole = false; /* until the words are opened on bytes */
	it->i = 0;
	it->n = UINT64_MAX;
	it->next = 0;
	it->damaged = false;
}

int dec_launch_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_launch *l, struct dec_args *args,
		      unsigned *nwords)
{
	uint64_t w[HG_LAUNCH_HEAD] = {0};
	int rc;

	dec_args_start(args, form);
	dec_words_open(&args->w, s, DEC_LAUNCH, form);
	rc = form == DEC_FORM_REF    ? dec_read(&args->w, &hg_shape_launch6, w, nwords)
	     : form == DEC_FORM_PACK ? dec_read(&args->w, &hg_shape_launch5, w, nwords)
				     : dec_read(&args->w, &hg_shape_launch, w, nwords);
	*l = (struct dec_launch){0};
	if (rc) {
		args->n = 0; /* no argument without its head */
		args->damaged = true;
		return rc;
	}
	if (form == DEC_FORM_REF) {
		l->head_id = w[0];
		if (!w[0])
			args->n = 0; /* 0 is no head's number */
		l->repeat = (uint32_t)(w[1] + 1);
		return DEC_OK;
	}
	if (form == DEC_FORM_PACK)
		hg_unpack_v5_launch_head(w);
	dec_launch_head(w, l);
	return DEC_OK;
}

void dec_args_open_words(struct dec_args *it, const struct dec_src *s)
{
	dec_args_start(it, DEC_FORM_ARGS);
	dec_words_open(&it->w, s, DEC_LAUNCH, DEC_FORM_WORDS);
}

void dec_args_open_seqs(struct dec_args *it, const struct dec_src seq[6])
{
	dec_args_start(it, DEC_FORM_SEQS);
	for (int i = 0; i < 6; i++) {
		it->seq[i] = seq[i];
		if (seq[i].len < it->n)
			it->n = seq[i].len;
	}
}

static bool dec_arg_seqs(struct dec_args *it, struct dec_arg *a)
{
	uint64_t v[6];

	if (it->i >= it->n)
		return false;
	for (int k = 0; k < 6; k++)
		v[k] = it->seq[k].elem(it->seq[k].ctx, it->i);
	it->i++;
	*a = (struct dec_arg){.index = (uint16_t)v[0], .value = v[1],
			      .id = v[2], .offset = v[3],
			      .mem = (uint8_t)v[4], .gran = (uint8_t)v[5]};
	return true;
}

static void dec_arg_codes(struct dec_arg *a, uint64_t codes)
{
	a->index = (uint16_t)codes;
	a->mem = (uint8_t)(codes >> 16);
	a->gran = (uint8_t)(codes >> 24);
}

/* An argument's words from the values, its form's shape a constant in
 * each call. */
static inline __attribute__((always_inline)) bool
dec_arg_values(struct dec_words *it, enum dec_form form, uint64_t *w)
{
	if (form == DEC_FORM_REF)
		return hg_values_words(hg_shape_launch6.rep, HG_LAUNCH_BYTE_WORDS,
				       it->vals, it->nv, &it->at, w);
	if (form == DEC_FORM_PACK)
		return hg_values_words(hg_shape_launch5.rep, HG_LAUNCH_BYTE_WORDS,
				       it->vals, it->nv, &it->at, w);
	return hg_values_words(hg_shape_launch.rep, HG_LAUNCH_BYTE_WORDS,
			       it->vals, it->nv, &it->at, w);
}

/* An argument of the byte forms (HG_LB_*). */
static inline __attribute__((always_inline)) void
dec_arg_bytes(struct dec_args *it, const uint64_t *w, struct dec_arg *a)
{
	*a = (struct dec_arg){.id = w[HG_LB_ID], .elided = w[HG_LB_ID] != 0};
	if (a->id)
		a->offset = w[HG_LB_WHERE];
	else
		a->value = w[HG_LB_WHERE];
	dec_arg_codes(a, it->form >= DEC_FORM_PACK
				 ? hg_unpack_v5_codes(w[HG_LB_CODES], &it->next)
				 : w[HG_LB_CODES]);
}

/* A partial argument is left out, and ends them. */
static bool dec_args_stop(struct dec_args *it)
{
	it->damaged = true;
	it->n = 0;
	return false;
}

/* The next argument of the words read one at a time, or of the elements
 * (kept out of dec_args_next, whose values path needs no frame). */
static __attribute__((noinline)) bool dec_args_read(struct dec_args *it,
						    struct dec_arg *a)
{
	unsigned n = it->form >= DEC_FORM_BYTES ? HG_LAUNCH_BYTE_WORDS
						: HG_LAUNCH_WORDS;
	uint64_t w[HG_LAUNCH_WORDS];

	if (it->form == DEC_FORM_SEQS)
		return dec_arg_seqs(it, a);
	if (!it->n || dec_words_done(&it->w))
		return false;
	if (dec_take(&it->w, w, n) < n)
		return dec_args_stop(it);
	if (n == HG_LAUNCH_BYTE_WORDS) {
		dec_arg_bytes(it, w, a);
		return true;
	}
	*a = (struct dec_arg){.value = w[0], .id = w[1], .offset = w[2]};
	dec_arg_codes(a, w[3]);
	return true;
}

bool dec_args_next(struct dec_args *it, struct dec_arg *a)
{
	uint64_t w[HG_LAUNCH_BYTE_WORDS];

	if (!it->w.whole)
		return dec_args_read(it, a);
	if (!it->n || dec_words_done(&it->w))
		return false;
	if (!dec_arg_values(&it->w, it->form, w))
		return dec_args_stop(it);
	dec_arg_bytes(it, w, a);
	return true;
}

void dec_err_text(int err, enum dec_kind kind, unsigned nwords, char *buf,
		  unsigned cap)
{
	static const char *const what[DEC_KINDS] = {"alloc", "free", "launch",
						    "memcpy", "memset"};

	if (err == DEC_E_SHORT)
		snprintf(buf, cap, "%s: its bytes end after %u words, short "
				   "of a whole %s", what[kind], nwords, what[kind]);
	else if (err == DEC_E_DAMAGED)
		snprintf(buf, cap, "%s: damaged bytes after %u words (a length "
				   "over 8, a value wider than its half, or "
				   "bytes missing)", what[kind], nwords);
	else if (err == DEC_E_TEXT)
		snprintf(buf, cap, "%s: its text is damaged at character "
				   "%u (a character out of its alphabet, a "
				   "group out of range, or a length no text "
				   "has)", what[kind], nwords);
	else
		snprintf(buf, cap, "%s: read", what[kind]);
}
