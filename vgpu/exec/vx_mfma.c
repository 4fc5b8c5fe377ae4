/* SPDX-License-Identifier: MIT */
/*
 * Matrix fused multiply-add (MFMA, gfx908 and later): D = A x B + C for
 * one or more blocks of an M x N result with depth K, spread over the
 * wave's 64 lanes as AMD's matrix instruction guide and LLVM's AMDGPU
 * usage notes lay them out:
 *
 *   A (M x K) of block b: row i, k-group g in lane i + M * (g + G * b),
 *   where a lane holds KPL consecutive k values (G = K / KPL groups); B
 *   (K x N) the same way with column j for row i.
 *   D and C: a 4 x 4 result puts block b's column j in lane j + 4b and
 *   row i in register i; larger ones put column j in lane j + N * (i / 4
 *   mod 64 / N), row i % 4 in the register, the next row group of four
 *   after those, and block b after block b - 1's registers.
 *
 * The shape is read from LLVM's mnemonic, once for a decoded instruction
 * (vx_mfma_form), so the gfx908/gfx90a names (v_mfma_f32_32x32x1f32,
 * ..._bf16_1k) and the gfx940 ones (v_mfma_f32_32x32x1_2b_f32) take one
 * path.  Products are exact in
 * double and summed there, rounded once into the result's type: the
 * hardware's order of summation is not documented, so a result may differ
 * from a card's in its last bit where the sum is not exact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vx_int.h"

enum { T_F32, T_F16, T_BF16, T_I8, T_FP8, T_BF8 };


/* gfx940's 8-bit floats, AMD's own: fp8 has 4 exponent bits (bias 8)
 * and 3 of mantissa, bf8 5 (bias 16) and 2; neither has infinities or a
 * negative zero, whose pattern is their one NaN. */
static double f8(uint8_t v, int bf8)
{
	if (v == 0x80)
		return NAN;
	int mbits = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
	int e = (v & 0x7f) >> mbits, m = v & ((1 << mbits) - 1);
	double x = e ? ldexp(1.0 + ldexp(m, -mbits), e - bias) : ldexp(m, 1 - bias - mbits);
	return v & 0x80 ? -x : x;
}

/* "fp8_bf8": A's type, then B's. */
static int f8_pair(const char *t, struct vx_mfma_form *s)
{
	static const char *const names[] = { "fp8_fp8", "fp8_bf8", "bf8_fp8", "bf8_bf8" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(t, names[i])) {
			s->type = i & 2 ? T_BF8 : T_FP8;
			s->btype = i & 1 ? T_BF8 : T_FP8;
			s->kpl = 8;
			return 0;
		}
	return -1;
}

/* "v_mfma_f32_32x32x1f32", "v_mfma_f32_16x16x4_4b_f16", ...: 0, or -1
 * for a form the engine does not have (xf32, sparse). */
static int parse(const char *name, enum isa_family fam, struct vx_mfma_form *s)
{
	char rest[32];
	int m, n, k, nb = 0;
	if (sscanf(name, "v_mfma_%*[fi]32_%dx%dx%d%31s", &m, &n, &k, rest) != 4 ||
	    m != n || (m != 4 && m != 16 && m != 32))
		return -1;
	char *t = rest;
	if (*t == '_' && t[1] >= '0' && t[1] <= '9') {
		nb = (int)strtol(t + 1, &t, 10);
		if (*t++ != 'b' || nb > 64)
			return -1;
	}
	if (*t == '_')
		t++;
	if (!strcmp(t, "f32"))
		s->type = T_F32, s->kpl = 1;
	else if (!strcmp(t, "f16"))
		s->type = T_F16, s->kpl = 4;
	else if (!strcmp(t, "bf16_1k") || (!strcmp(t, "bf16") && fam == ISA_GFX940))
		s->type = T_BF16, s->kpl = 4;
	else if (!strcmp(t, "bf16"))
		s->type = T_BF16, s->kpl = 2;	/* gfx908's: two per register */
	else if (!strcmp(t, "i8"))
		s->type = T_I8, s->kpl = m * k / 4 > 64 ? 8 : 4;
	else if (fam != ISA_GFX940 || f8_pair(t, s))
		return -1;
	if (s->type != T_FP8 && s->type != T_BF8)
		s->btype = s->type;
	s->m = m, s->n = n, s->k = k;
	if (k % s->kpl)
		return -1;
	int lanes = m * (k / s->kpl);
	s->blocks = nb ? nb : 64 / lanes;
	return lanes * s->blocks == 64 ? 0 : -1;
}

/* One operand's k-th element in a lane, whose registers start at r. */
static double element(const struct vx_wave *w, int type, unsigned r, int lane,
		       int e, int *ival)
{
	switch (type) {
	case T_F32:
		return vx_f32(w->v[r & 511][lane]);
	case T_F16:
	case T_BF16: {
		uint32_t v = w->v[(r + (unsigned)e / 2) & 511][lane];
		uint16_t h = (uint16_t)(v >> (16 * (e & 1)));
		return type == T_F16 ? vx_f16_to_f32(h) : vx_bf16_to_f32(h);
	}
	case T_FP8:
	case T_BF8:
		return f8((uint8_t)(w->v[(r + (unsigned)e / 4) & 511][lane] >> (8 * (e & 3))),
			  type == T_BF8);
	}
	*ival = (int8_t)(w->v[(r + (unsigned)e / 4) & 511][lane] >> (8 * (e & 3)));
	return *ival;
}

static int d_place(const struct vx_mfma_form *s, int i, int j, int b, int *reg)
{
	if (s->m == 4) {
		*reg = i;
		return j + 4 * b;
	}
	int groups = 64 / s->n;
	*reg = (i % 4) + 4 * (i / 4 / groups) + s->m * s->n / 64 * b;
	return j + s->n * ((i / 4) % groups);
}

/* A's (or B's, of its type) element at row (column) x, depth k, block b. */
static double operand(const struct vx_wave *w, const struct vx_mfma_form *s, int type, unsigned r,
		      int x, int k, int b, int *ival)
{
	int g = k / s->kpl, lane = x + s->m * (g + s->k / s->kpl * b);
	return element(w, type, r, lane, k % s->kpl, ival);
}

static void compute(struct vx_wave *w, const struct vx_mfma_form *s, unsigned ra, unsigned rb,
		    const uint32_t *c, uint32_t *d, int cconst)
{
	for (int b = 0; b < s->blocks; b++)
		for (int i = 0; i < s->m; i++)
			for (int j = 0; j < s->n; j++) {
				int reg, lane = d_place(s, i, j, b, &reg);
				uint32_t cin = cconst ? c[0] : c[reg * VX_LANES + lane];
				double sum = s->type == T_I8 ? (double)(int32_t)cin : vx_f32(cin);
				int64_t isum = (int32_t)cin;
				for (int k = 0; k < s->k; k++) {
					int ia = 0, ib = 0;
					double x = operand(w, s, s->type, ra, i, k, b, &ia);
					double y = operand(w, s, s->btype, rb, j, k, b, &ib);
					sum += x * y;
					isum += (int64_t)ia * ib;
				}
				d[reg * VX_LANES + lane] = s->type == T_I8 ? (uint32_t)isum
									   : vx_u32((float)sum);
			}
}

/* The f64 forms (gfx90a, gfx940), a double (a register pair) per
 * element.  16 x 16 x 4: A's row i at depth k in lane i + 16k, B's
 * column j likewise, and D's row i, column j in lane j + 16 (i % 4) of
 * pair i / 4; 4 x 4 x 4 in four blocks, block b's lanes 4b further on and
 * one pair.  The products are summed by fused multiply-adds in k's order
 * (the hardware's order is not documented either). */
static int f64_size(const char *name)
{
	if (!strcmp(name, "v_mfma_f64_16x16x4f64") || !strcmp(name, "v_mfma_f64_16x16x4_f64"))
		return 16;
	if (!strcmp(name, "v_mfma_f64_4x4x4f64") || !strcmp(name, "v_mfma_f64_4x4x4_4b_f64"))
		return 4;
	return 0;
}

static double pair(const struct vx_wave *w, unsigned r, int lane)
{
	uint64_t v = w->v[r & 511][lane] | (uint64_t)w->v[(r + 1) & 511][lane] << 32;
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

static void mfma_f64(struct vx_wave *w, int m, unsigned ra, unsigned rb, unsigned rc,
		     const uint64_t *cconst, unsigned rd)
{
	int blocks = m == 4 ? 4 : 1;
	unsigned pairs = m == 16 ? 4 : 1;
	uint64_t d[4][VX_LANES];
	for (int b = 0; b < blocks; b++)
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				int lane = j + 16 * (i % 4) + 4 * b;
				unsigned p = (unsigned)i / 4;
				double acc;
				if (cconst)
					memcpy(&acc, cconst, sizeof(acc));
				else
					acc = pair(w, rc + 2 * p, lane);
				for (int k = 0; k < 4; k++)
					acc = fma(pair(w, ra, i + 4 * b + 16 * k),
						  pair(w, rb, j + 4 * b + 16 * k), acc);
				memcpy(&d[p][lane], &acc, sizeof(acc));
			}
	for (unsigned p = 0; p < pairs; p++)
		for (int l = 0; l < VX_LANES; l++) {
			w->v[(rd + 2 * p) & 511][l] = (uint32_t)d[p][l];
			w->v[(rd + 2 * p + 1) & 511][l] = (uint32_t)(d[p][l] >> 32);
		}
}

int vx_mfma_form(enum isa_family fam, const char *name, struct vx_mfma_form *f)
{
	memset(f, 0, sizeof(*f));
	f->m64 = f64_size(name);
	if (f->m64 || !parse(name, fam, f))
		return 0;
	memset(f, 0, sizeof(*f));
	return -1;
}

int vx_mfma(struct vx_wave *w, const struct isa_insn *in, const struct vx_mfma_form *f)
{
	enum isa_family fam = w->c->dev->fam;
	unsigned cbsz = (in->w0 >> 8) & 7, abid = (in->w0 >> 11) & 15, blgp = in->w1 >> 29;
	unsigned src0 = in->src[0], src1 = in->src[1], src2 = in->src[2];
	/* broadcasts and lane-group patterns are left out; compilers
	 * rarely emit them, and a wrong result must not be silent */
	/* (on gfx940 the f64 forms read BLGP's bits as negations of A, B
	 * and C: not here either) */
	int m64 = f->m64;
	if ((!m64 && !f->m) || cbsz || abid || blgp || src0 < ISA_SRC_VGPR ||
	    src1 < ISA_SRC_VGPR)
		return vx_unknown(w, in);
	/* gfx908 keeps C and D in AccVGPRs; later ones say so in acc_cd */
	unsigned acc_cd = fam == ISA_GFX908 || ((in->w0 >> 15) & 1) ? 256 : 0;
	unsigned ra = src0 - ISA_SRC_VGPR + ((in->w1 >> 27) & 1 ? 256 : 0);
	unsigned rb = src1 - ISA_SRC_VGPR + ((in->w1 >> 28) & 1 ? 256 : 0);
	if (m64) {
		uint64_t k = src2 < ISA_SRC_VGPR ? vx_sread64(w, src2, in->lit, 1) : 0;
		mfma_f64(w, m64, ra, rb, src2 - ISA_SRC_VGPR + acc_cd,
			 src2 < ISA_SRC_VGPR ? &k : NULL, in->dst + acc_cd);
		return 0;
	}
	unsigned nregs = (unsigned)(f->m * f->n * f->blocks / VX_LANES);
	static __thread uint32_t c[32 * VX_LANES], d[32 * VX_LANES];
	int cconst = src2 < ISA_SRC_VGPR;
	if (cconst) {
		c[0] = vx_sread(w, src2, in->lit);
	} else {
		unsigned rc = src2 - ISA_SRC_VGPR + acc_cd;
		for (unsigned r = 0; r < nregs; r++)
			memcpy(&c[r * VX_LANES], w->v[(rc + r) & 511], sizeof(w->v[0]));
	}
	compute(w, f, ra, rb, c, d, cconst);
	unsigned rd = in->dst + acc_cd;
	for (unsigned r = 0; r < nregs; r++)
		memcpy(w->v[(rd + r) & 511], &d[r * VX_LANES], sizeof(w->v[0]));
	return 0;
}
