/* SPDX-License-Identifier: MIT */
#include "dec_pack.h"

#include <stdio.h>

uint64_t dec_buf_byte(const void *ctx, uint64_t i)
{
	return ((const uint8_t *)ctx)[i];
}

static uint8_t dec_src_byte(const void *ctx, uint64_t i)
{
	const struct dec_src *s = ctx;

	return (uint8_t)s->elem(s->ctx, i);
}

static const struct hg_shape *dec_shape(enum dec_kind kind,
					enum dec_form form)
{
	static const struct hg_shape *const bytes[DEC_KINDS] = {
		&hg_shape_alloc, &hg_shape_free, &hg_shape_launch};

	if (form == DEC_FORM_REF)
		return &hg_shape_launch6;
	if (form == DEC_FORM_PACK)
		return hg_shape_v5(bytes[kind]);
	return form == DEC_FORM_BYTES ? bytes[kind] : NULL;
}

void dec_words_open(struct dec_words *it, const struct dec_src *src,
		    enum dec_kind kind, enum dec_form form)
{
	*it = (struct dec_words){.src = *src, .shape = dec_shape(kind, form),
				 .u = HG_UNPACK_INIT(src->len)};
}

bool dec_words_next(struct dec_words *it, uint64_t *w)
{
	if (it->shape)
		return hg_unpack_word(it->shape, &it->u, dec_src_byte,
				      &it->src, w);
	if (it->i >= it->src.len)
		return false;
	*w = it->src.elem(it->src.ctx, it->i++);
	return true;
}

/* Whether the words ended cleanly: no byte left but a final tag's
 * unused half. */
static bool dec_words_done(const struct dec_words *it)
{
	if (!it->shape)
		return it->i >= it->src.len;
	return it->u.pos >= it->u.len &&
	       (it->u.pending == 0x10 || it->u.pending == HG_PACK_NONE);
}

/* n words into w; the error when fewer came. */
static int dec_read(struct dec_words *it, uint64_t *w, unsigned n,
		    unsigned *nwords)
{
	unsigned k = 0;

	while (k < n && dec_words_next(it, &w[k]))
		k++;
	if (nwords)
		*nwords = k;
	if (k == n)
		return DEC_OK;
	return dec_words_done(it) ? DEC_E_SHORT : DEC_E_DAMAGED;
}

unsigned dec_head_words(enum dec_kind kind, enum dec_form form)
{
	if (form == DEC_FORM_REF)
		return 2;
	return kind == DEC_ALLOC ? HG_ALLOC_WORDS
	       : kind == DEC_FREE ? HG_FREE_WORDS
				  : HG_LAUNCH_HEAD;
}

/* The fixed words of an alloc or a free. */
static int dec_record(const struct dec_src *s, enum dec_form form,
		      enum dec_kind kind, uint64_t *w, unsigned *nwords)
{
	struct dec_words it;

	dec_words_open(&it, s, kind, form);
	return dec_read(&it, w, dec_head_words(kind, form), nwords);
}

int dec_alloc_unpack(const struct dec_src *s, enum dec_form form,
		     struct dec_alloc *a, unsigned *nwords)
{
	uint64_t w[HG_ALLOC_WORDS] = {0};
	int rc = dec_record(s, form, DEC_ALLOC, w, nwords);

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
	int rc = dec_record(s, form, DEC_FREE, w, nwords);

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

int dec_launch_unpack(const struct dec_src *s, enum dec_form form,
		      struct dec_launch *l, struct dec_args *args,
		      unsigned *nwords)
{
	uint64_t w[HG_LAUNCH_HEAD] = {0};
	int rc;

	*args = (struct dec_args){.form = form};
	dec_words_open(&args->w, s, DEC_LAUNCH, form);
	rc = dec_read(&args->w, w, dec_head_words(DEC_LAUNCH, form), nwords);
	*l = (struct dec_launch){0};
	if (rc) {
		args->n = 0; /* no argument without its head */
		args->damaged = true;
		return rc;
	}
	args->n = UINT64_MAX;
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
	*it = (struct dec_args){.form = DEC_FORM_ARGS, .n = UINT64_MAX};
	dec_words_open(&it->w, s, DEC_LAUNCH, DEC_FORM_WORDS);
}

void dec_args_open_seqs(struct dec_args *it, const struct dec_src seq[6])
{
	*it = (struct dec_args){.form = DEC_FORM_SEQS, .n = UINT64_MAX};
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

bool dec_args_next(struct dec_args *it, struct dec_arg *a)
{
	bool three = it->form >= DEC_FORM_BYTES;
	unsigned n = three ? HG_LAUNCH_BYTE_WORDS : HG_LAUNCH_WORDS;
	uint64_t w[HG_LAUNCH_WORDS];

	if (it->form == DEC_FORM_SEQS)
		return dec_arg_seqs(it, a);
	if (!it->n || dec_words_done(&it->w))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!dec_words_next(&it->w, &w[i])) {
			it->damaged = true; /* a partial argument: left out */
			it->n = 0;
			return false;
		}
	*a = (struct dec_arg){0};
	if (!three) {
		a->value = w[0], a->id = w[1], a->offset = w[2];
		dec_arg_codes(a, w[3]);
		return true;
	}
	a->id = w[HG_LB_ID];
	if (a->id)
		a->offset = w[HG_LB_WHERE];
	else
		a->value = w[HG_LB_WHERE];
	a->elided = a->id != 0;
	dec_arg_codes(a, it->form >= DEC_FORM_PACK
				 ? hg_unpack_v5_codes(w[HG_LB_CODES], &it->next)
				 : w[HG_LB_CODES]);
	return true;
}

void dec_err_text(int err, enum dec_kind kind, unsigned nwords, char *buf,
		  unsigned cap)
{
	static const char *const what[DEC_KINDS] = {"alloc", "free", "launch"};

	if (err == DEC_E_SHORT)
		snprintf(buf, cap, "%s: its bytes end after %u words, short "
				   "of a whole %s", what[kind], nwords, what[kind]);
	else if (err == DEC_E_DAMAGED)
		snprintf(buf, cap, "%s: damaged bytes after %u words (a length "
				   "over 8, a value wider than its half, or "
				   "bytes missing)", what[kind], nwords);
	else
		snprintf(buf, cap, "%s: read", what[kind]);
}
