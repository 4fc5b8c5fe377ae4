/* SPDX-License-Identifier: MIT */
/* The engine's own state: waves, work-groups, and the helpers the
 * instruction families share. */
#ifndef VX_INT_H
#define VX_INT_H

#include <stdint.h>
#include <string.h>

#include "vx.h"

#define VX_LANES 64

/* The body for each lane l of exec: every lane when all are active (a
 * loop the compiler can widen), else the active ones. */
#define VX_EACH_LANE(exec, ...)						\
	do {								\
		uint64_t e_ = (exec);					\
		if (e_ == ~0ull) {					\
			for (int l = 0; l < VX_LANES; l++) { __VA_ARGS__; }	\
		} else {						\
			for (; e_; e_ &= e_ - 1) {			\
				int l = __builtin_ctzll(e_);		\
				__VA_ARGS__;				\
			}						\
		}							\
	} while (0)
#define VX_VGPRS 512	/* gfx90a's unified file: 256 arch + 256 acc */
#define VX_TLB 64

/* The bytes a slot's page has moved since it was filled (read, written);
 * lo and hi are offsets in the page, lo past hi until something counts. */
struct vx_tally {
	uint64_t bytes[2];
	uint32_t lo, hi;
};

struct vx_tlb {
	uint64_t vpn[VX_TLB];
	struct vx_page page[VX_TLB];
	struct vx_tally tally[VX_TLB];
};

/* A context's traffic by region (vx_traffic.c), what its slots held. */
struct vx_traffic_tab {
	struct vx_traffic row[VX_TRAFFIC];
	unsigned n;
	struct vx_traffic more;	/* what did not fit, summed */
};

struct vx_wave;

/* One dispatch's context, shared by its waves. */
struct vx_ctx {
	const struct vx_device *dev;
	const struct vx_launch *l;
	struct vx_result *r;
	struct isa_kd kd;
	uint64_t code_va;
	struct vx_tlb tlb;
	struct vx_traffic_tab traffic;
	/* the decoded-instruction cache, direct-mapped by address */
	struct vx_icache *ic;
	/* the VALU's lane loops by form, the build the host runs best
	 * (vx_fast.c) */
	int (*const *lanes)(struct vx_wave *, const struct isa_insn *);
	/* the VALU's operands and results, one row per lane */
	uint64_t opnd[3][VX_LANES], res[VX_LANES];
	uint32_t konst[3][VX_LANES], konst_hi[3][VX_LANES];
	/* the scalar each konst row repeats, where bit i of konst_ok says
	 * row i holds one: a loop's base address fills its row once */
	uint64_t konst_val[3];
	unsigned konst_ok;
	/* The work-group running, and the lowest one that stopped the
	 * dispatch, shared by the threads (NULL when there is one). */
	uint64_t group;
	const uint64_t *stop_at;
	/* the L2's lines of coarse-grained host memory (vx_hold.c), made at
	 * the first such read; and the wave-instructions after which the
	 * context stops (max_insns or budget; UINT64_MAX: none) */
	struct vx_hold *hold;
	uint64_t cap;
	/* the lines the dispatch's threads stored to in held memory, a bit
	 * each by hash (vx_hold.c); NULL with one thread */
	uint64_t *written;
	/* the L2's dirty lines of held memory, the dispatch's (vx_wback.c);
	 * NULL: stores write through */
	struct vx_wback *wb;
};

struct vx_race_shadow;

struct vx_group {
	uint8_t *lds;
	uint32_t lds_size;
	uint32_t id[3];
	struct vx_race_shadow *race;	/* NULL: races go unchecked */
};

struct vx_wave {
	uint32_t s[128];	/* SGPRs, VCC, M0 and EXEC at their encodings */
	uint64_t pc;
	int scc;
	int ended, at_barrier;
	unsigned id;		/* the wave's index in its group */
	uint32_t mode;		/* the MODE hardware register */
	uint32_t (*v)[VX_LANES];	/* v[reg][lane] */
	uint8_t *priv;		/* private memory, priv_size bytes per lane */
	uint32_t priv_size;
	struct vx_group *g;
	struct vx_ctx *c;
};

static inline uint64_t vx_exec(const struct vx_wave *w)
{
	return w->s[ISA_SRC_EXEC_LO] | (uint64_t)w->s[ISA_SRC_EXEC_HI] << 32;
}

static inline void vx_set_exec(struct vx_wave *w, uint64_t e)
{
	w->s[ISA_SRC_EXEC_LO] = (uint32_t)e;
	w->s[ISA_SRC_EXEC_HI] = (uint32_t)(e >> 32);
}

static inline uint64_t vx_vcc(const struct vx_wave *w)
{
	return w->s[ISA_SRC_VCC_LO] | (uint64_t)w->s[ISA_SRC_VCC_HI] << 32;
}

static inline uint64_t vx_sgpr64(const struct vx_wave *w, unsigned n)
{
	return w->s[n & 127] | (uint64_t)w->s[(n + 1) & 127] << 32;
}

static inline void vx_set_sgpr64(struct vx_wave *w, unsigned n, uint64_t v)
{
	w->s[n & 127] = (uint32_t)v;
	w->s[(n + 1) & 127] = (uint32_t)(v >> 32);
}

static inline void vx_set_sgpr(struct vx_wave *w, unsigned n, uint32_t v)
{
	if (n < 128)
		w->s[n] = v;
}

/* A thread's storage for one work-group at a time (vx_group.c). */
struct vx_frame {
	struct vx_wave *waves;
	uint32_t (*vgprs)[VX_LANES];
	uint8_t *lds, *priv;
	unsigned nwaves;
	uint32_t priv_size;
	struct vx_group g;
};

/* 0, or -1 when out of memory (free it all the same). */
int vx_frame_alloc(struct vx_frame *f, const struct vx_ctx *c, uint32_t lds, uint32_t priv);
void vx_frame_free(struct vx_frame *f);
/* Run work-group number index, x fastest: 0; -1 when the dispatch stops
 * (c->r says why); 1 when abandoned for an earlier group's stop. */
int vx_group_run(struct vx_ctx *c, struct vx_frame *f, uint64_t index);
/* The decoded-instruction cache a context needs (vx_group.c). */
struct vx_icache *vx_icache_new(void);

/* Stop the dispatch (vx_stop.c): the instruction is not one the engine
 * has. */
int vx_unknown(struct vx_wave *w, const struct isa_insn *in);

/* Scalar operands (vx_operand.c): a 32-bit read, and a 64-bit one whose
 * constants are read as f64 when fp64 is set. */
uint32_t vx_sread(const struct vx_wave *w, unsigned src, uint32_t lit);
uint64_t vx_sread64(const struct vx_wave *w, unsigned src, uint32_t lit, int fp64);

/* Families: each returns 0, or -1 when the dispatch must stop (r says
 * why).  A branch sets w->pc itself and returns 1.  Those given the
 * decoded slot work out what they need of it once; the scalar and memory
 * ones are called only for forms their family has (vx_group.c). */
int vx_sop(struct vx_wave *w, const struct isa_insn *in);
struct vx_slot;
int vx_valu(struct vx_wave *w, struct vx_slot *s);
int vx_vop3p(struct vx_wave *w, struct vx_slot *s);
int vx_smem(struct vx_wave *w, const struct isa_insn *in);
int vx_vmem(struct vx_wave *w, const struct isa_insn *in);
int vx_ds(struct vx_wave *w, struct vx_slot *s);
/* MFMA (vx_mfma.c): an instruction's shape, worked out once from LLVM's
 * mnemonic for its form (0, or -1 for one the engine does not have), and
 * the instruction run with it. */
struct vx_mfma_form {
	uint8_t m, n, k, blocks, kpl, type;	/* small: it sits in every decoded slot */
	uint8_t btype;	/* B's type: A's, but for gfx940's mixed fp8/bf8 forms */
	uint8_t m64;	/* an f64 form's M and N, else 0 */
};
int vx_mfma_form(enum isa_family fam, const char *name, struct vx_mfma_form *f);
int vx_mfma(struct vx_wave *w, const struct isa_insn *in, const struct vx_mfma_form *f);

/* Memory (vx_mem.c): where the device address's byte is (the rest of its
 * page follows it), or NULL after recording a fault. */
uint8_t *vx_mem(struct vx_wave *w, uint64_t va, int write, uint32_t *kind);
/* vx_mem, but NULL without a fault where nothing backs the address. */
uint8_t *vx_mem_try(struct vx_wave *w, uint64_t va, int write, uint32_t *kind);
/* The region of a page vx_mem has just translated. */
uint64_t vx_region(const struct vx_wave *w, uint64_t va);
/* A read (write 0) or write of len bytes that may cross a page. */
int vx_mem_copy(struct vx_wave *w, uint64_t va, void *buf, unsigned len, int write);
/* Stop the dispatch on an access at va that nothing backs: -1
 * (vx_stop.c). */
int vx_fault(struct vx_wave *w, uint64_t va, int write);
/* vx_mem_copy of the kernel's own data: its bytes are counted. */
int vx_data_copy(struct vx_wave *w, uint64_t va, void *buf, unsigned len, int write);

/* The L2 for coarse-grained host memory (vx_hold.c).  Whether a page of
 * this kind is held; a read of n bytes at va (within a page; mem: where
 * they are) served from the lines held, a stale one counted; the GPU's
 * store or atomic reaching the lines; all lines dropped (a system-scope
 * invalidate); the lines freed at the context's end. */
static inline int vx_held(uint32_t kind)
{
	return !(kind & VX_FINE) && (kind & (VX_HOST | VX_PEER));
}
void vx_hold_read(struct vx_wave *w, uint64_t va, const uint8_t *mem, void *buf, unsigned n);
void vx_hold_write(struct vx_wave *w, uint64_t va, const void *buf, unsigned n, int atomic);
/* Before the GPU's store or atomic to held memory changes it: its lines
 * are marked as written by the GPU, for the other threads' lines. */
void vx_hold_mark(struct vx_wave *w, uint64_t va, unsigned n);
#define VX_HOLD_WRITTEN 1024	/* words of the record of lines written */
void vx_hold_drop(struct vx_ctx *c);
void vx_hold_free(struct vx_ctx *c);
/* Row x into rows (n of them, room for cap): merged with its
 * instruction's and region's, else added, else its count goes to lost;
 * and the order rows are reported in. */
void vx_l2row_add(struct vx_l2row *rows, unsigned *n, unsigned cap, uint64_t *lost,
		  const struct vx_l2row *x);
int vx_l2row_cmp(const void *a, const void *b);

/* The L2's dirty lines of held memory (vx_wback.c): made for a dispatch;
 * a store kept, with the instruction's pc (-1: no room, the caller writes
 * memory); the stored bytes laid over what a load of the GPU's read; the
 * lines of a range, or all, written back; the lines still dirty as r's
 * unwritten rows, for a dispatch that did not run to its end, once its
 * threads have ended; written back and freed at the dispatch's end. */
struct vx_wback *vx_wback_new(const struct vx_device *dev);
int vx_wback_store(struct vx_wback *b, uint64_t va, const void *buf, unsigned n, uint64_t pc);
void vx_wback_overlay(struct vx_wback *b, uint64_t va, void *buf, unsigned n);
void vx_wback_range(struct vx_wback *b, uint64_t va, unsigned n);
void vx_wback_all(struct vx_wback *b);
void vx_wback_unwritten(const struct vx_wback *b, struct vx_result *r);
void vx_wback_free(struct vx_wback *b);

/* Traffic (vx_traffic.c).  Count bytes in [lo, hi] of a page (its number)
 * vx_mem has just translated, or len bytes at va that do not cross one:
 * the hot path, a few adds. */
static inline void vx_count_span(struct vx_wave *w, uint64_t page, uint32_t lo, uint32_t hi,
				 uint64_t bytes, int write)
{
	struct vx_tally *y = &w->c->tlb.tally[page % VX_TLB];
	y->lo = lo < y->lo ? lo : y->lo;
	y->hi = hi > y->hi ? hi : y->hi;
	y->bytes[write != 0] += bytes;
}

static inline void vx_count(struct vx_wave *w, uint64_t va, unsigned len, int write)
{
	uint32_t lo = (uint32_t)(va % VX_PAGE);
	vx_count_span(w, va / VX_PAGE, lo, lo + len - 1, len, write);
}
/* Whether va is the runtime's, read by the kernel but no allocation of
 * the program: its arguments, its dispatch packet, its queue. */
int vx_traffic_runtime(const struct vx_ctx *c, uint64_t va);
/* Move slot's tally into the context's table and start it afresh, before
 * the slot is refilled. */
void vx_traffic_evict(struct vx_ctx *c, unsigned slot);
/* Add everything the context counted to r's rows: once per context, at
 * the dispatch's end. */
void vx_traffic_flush(struct vx_ctx *c, struct vx_result *r);

/* Atomics (vx_atomic.c): one lane's read-modify-write of a memory
 * instruction's op at p; *old gets the value before. */
enum vx_aop {
	VX_A_SWAP, VX_A_CMPSWAP, VX_A_ADD, VX_A_SUB, VX_A_SMIN, VX_A_UMIN,
	VX_A_SMAX, VX_A_UMAX, VX_A_AND, VX_A_OR, VX_A_XOR, VX_A_INC, VX_A_DEC,
	VX_A_ADD_F32, VX_A_PK_ADD_F16, VX_A_ADD_F64, VX_A_MIN_F64, VX_A_MAX_F64,
	VX_A_PK_ADD_BF16, VX_A_MIN_F32, VX_A_MAX_F32, VX_A_RSUB,
	/* gfx908/gfx90a's global and flat FP32 add, which flushes denormal
	 * operands and results whatever the mode register says: LLVM emits
	 * it only where f32 denormals are flushed, and a CAS loop where the
	 * program keeps them (its global-atomics-fp tests). */
	VX_A_ADD_F32_FTZ,
	VX_A_NONE,
};
void vx_atomic(void *p, enum vx_aop op, int wide, uint64_t src, uint64_t cmp,
	       uint64_t *old);
/* Whether that atomic on memory of this kind does something on the
 * dispatch's product, and note it when it does not. */
int vx_atomic_lands(struct vx_wave *w, const struct isa_insn *in, enum vx_aop op, int wide,
		    uint32_t kind, uint64_t va);
/* A row of atomics that did nothing, joined to r's row of the same
 * instruction, kind and region, or added; past VX_DROPS only counted. */
void vx_drop_add(struct vx_result *r, const struct vx_drop *d);

/* A wave's plain dword loads or stores (st) of n dwords a lane, each
 * active lane's address in a[lane], its first register's lanes in regs[i]
 * for dword i, whole where they lie in one page (vx_vrun.c): 1 done, 0
 * not (the lanes' way then), -1 to stop. */
int vx_vmem_wave(struct vx_wave *w, uint32_t *const *regs, const uint64_t *a, uint64_t exec,
		 unsigned n, int st, int bypass);

/* Races (vx_race.c): the frame's shadow of its group's accesses (0, or
 * -1 out of memory), a new epoch (a barrier, a new group), and one wave's
 * access of n bytes of one class (VX_R_*) at LDS offset a or address va;
 * or a wave's accesses of unit bytes, one a lane (active in exec) at
 * address a[lane], or at LDS offset a[lane] + o. */
int vx_race_alloc(struct vx_frame *f, uint32_t lds);
void vx_race_free(struct vx_frame *f);
void vx_race_epoch(struct vx_group *g);
void vx_race_lds(struct vx_wave *w, uint64_t a, unsigned n, int cls);
void vx_race_global(struct vx_wave *w, uint64_t va, unsigned n, int cls);
void vx_race_wave(struct vx_wave *w, const uint64_t *a, uint64_t exec, unsigned unit, int cls);
void vx_race_lds_wave(struct vx_wave *w, const uint32_t *a, uint64_t exec, uint64_t o,
		      unsigned unit, int cls);
/* A row joined to r's row of the same pair, or added; past VX_RACES only
 * counted. */
void vx_race_add(struct vx_result *r, const struct vx_race *x);

/* Floats (vx_float.c). */
float vx_f16_to_f32(uint16_t h);
uint16_t vx_f32_to_f16(float f);
float vx_bf16_to_f32(uint16_t h);
uint16_t vx_f32_to_bf16(float f);
/* min and max as the hardware orders them: -0.0 below +0.0, and a NaN
 * operand giving way to the other (C's fmin and fmax may return either
 * zero). */
float vx_minf(float a, float b);
float vx_maxf(float a, float b);
double vx_min(double a, double b);
double vx_max(double a, double b);

static inline float vx_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static inline uint32_t vx_u32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static inline double vx_f64(uint64_t u)
{
	double f;
	memcpy(&f, &u, 8);
	return f;
}

static inline uint64_t vx_u64(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}

#endif
