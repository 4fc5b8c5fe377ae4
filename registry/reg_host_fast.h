/* SPDX-License-Identifier: MIT */
/*
 * The front of a thread's own host table (reg_host_local.h), in a header so
 * that the allocator hooks remember and forget a block inline: a call and
 * its frame cost as much as the work.  The front is direct-mapped by
 * address, one slot per 16 bytes of a window of the heap, so the common
 * malloc writes one empty slot and the common free clears the slot its
 * address names, with no hash and no probe.  A slot already taken by
 * another block, and everything else, is the out-of-line path's.
 */
#ifndef REG_HOST_FAST_H
#define REG_HOST_FAST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_THREAD__)
#define REG_HOST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define REG_HOST_TSAN 1
#endif
#endif

#define REG_HOST_FRONT_BITS 12
#define REG_HOST_FRONT (1u << REG_HOST_FRONT_BITS)

/*
 * A slot's key is the block's address shifted up four bits (user addresses
 * have them to spare; an allocator may hand out 8-aligned blocks) with, in
 * those four bits, that the slot is taken, which deallocator frees the
 * block without a finding, and whether the block was traced (its id is
 * then valid).  A free's whole test is one comparison of the key with
 * what its own deallocator expects.
 */
#define REG_HOST_KEY(addr) ((uintptr_t)(addr) << 4)
#define REG_HOST_KEY_ADDR(key) ((uintptr_t)(key) >> 4)
#define REG_HOST_KEY_USED 4u
#define REG_HOST_KEY_TRACED 8u
enum reg_host_class {
	REG_HOST_BY_FREE = 0,	    /* the C allocators */
	REG_HOST_BY_DELETE = 1,	    /* operator new */
	REG_HOST_BY_DELETE_ARR = 2, /* operator new[] */
};

struct reg_host_fslot {
	uintptr_t key;
	uint64_t meta; /* size << 8 | api */
	uintptr_t site;
	uint64_t id; /* only with REG_HOST_KEY_TRACED */
};

/* want's bits: a mover waits for the table; the owner's next blocks go to
 * the shared table for a while (the out-of-line path counts them); the
 * owner must fence, movers having no way to fence it (hg_os_barrier
 * failed: an old kernel, valgrind, ThreadSanitizer). */
#define REG_HOST_WANT 1
#define REG_HOST_DIVERT 2
#define REG_HOST_FENCE 4

/* busy, want and live are plain ints, used through __atomic builtins (and
 * REG_HOST_PEEK) so that the owner's tests compile to one instruction
 * each. */
struct reg_host_front {
	int busy; /* the owner is inside an operation */
	int want;
	int live; /* blocks in slot[]; the owner's, read by others */
	_Alignas(64) struct reg_host_fslot slot[];
};

/* This thread's front; until it has a table, and after its exit handler,
 * a placeholder whose want is always set, so the inline paths need no
 * other test. */
extern __thread struct reg_host_front *reg_host_mine
	__attribute__((tls_model("initial-exec")));
/* Blocks smaller than this may take the inline path: 0 until the registry
 * is set up and whenever its configuration wants every block seen. */
extern size_t reg_host_fast_max;

/*
 * A word another thread may write, read where the owner's code needs it
 * folded into its test: x86 reads an aligned int whole, and the fences
 * around it are the compiler's.  That plain read is valid on x86 alone:
 * elsewhere the C model gives it no meaning, and a relaxed atomic load is
 * one instruction anyway, a load-store machine having no test to fold it
 * into.  ThreadSanitizer is told it is atomic.
 */
#if defined(REG_HOST_TSAN)
#define REG_HOST_PEEK(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#elif defined(__x86_64__) || defined(__i386__)
#define REG_HOST_PEEK(x) (x)
#else
#define REG_HOST_PEEK(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif

/* Where the owner must fence: busy stored again by a locked exchange,
 * then the same test. */
static inline bool reg_host_fast_enter_fenced(struct reg_host_front *f,
					      int mask)
{
	__atomic_exchange_n(&f->busy, 1, __ATOMIC_SEQ_CST);
	if (!(__atomic_load_n(&f->want, __ATOMIC_SEQ_CST) & mask))
		return true;
	__atomic_store_n(&f->busy, 0, __ATOMIC_RELEASE);
	return false;
}

/* The owner's half of the handshake reg_host_local.h describes: a store,
 * and a test of want that also says whether the owner must fence.  A
 * thread with no table (the placeholder's want is always set) leaves at
 * once, with no locked instruction on the line all such threads share. */
static inline bool reg_host_fast_enter(struct reg_host_front *f, int mask)
{
	__atomic_store_n(&f->busy, 1, __ATOMIC_RELAXED);
	atomic_signal_fence(memory_order_seq_cst);
	if (__builtin_expect(!(REG_HOST_PEEK(f->want) & (mask | REG_HOST_FENCE)),
			     1))
		return true;
	/* Read again, so that the test above stays one instruction. */
	atomic_signal_fence(memory_order_seq_cst);
	if (!(REG_HOST_PEEK(f->want) & mask))
		return reg_host_fast_enter_fenced(f, mask);
	__atomic_store_n(&f->busy, 0, __ATOMIC_RELEASE);
	return false;
}

static inline void reg_host_fast_leave(struct reg_host_front *f)
{
	__atomic_store_n(&f->busy, 0, __ATOMIC_RELEASE);
}

/* Slot (addr >> 4) mod REG_HOST_FRONT, as a byte offset in two
 * instructions: a slot is as large as two of the 16 bytes that name it. */
static inline struct reg_host_fslot *reg_host_fast_slot(
	struct reg_host_front *f, uintptr_t addr)
{
	_Static_assert(sizeof(struct reg_host_fslot) == 32, "slot size");
	return (struct reg_host_fslot *)((char *)f->slot +
					 ((addr << 1) &
					  ((REG_HOST_FRONT - 1) * 32u)));
}

/* The owner's count: others read it without the handshake.  A plain add
 * is one instruction; ThreadSanitizer wants it atomic. */
static inline void reg_host_fast_count(struct reg_host_front *f, int d)
{
#ifdef REG_HOST_TSAN
	__atomic_store_n(&f->live, f->live + d, __ATOMIC_RELAXED);
#else
	f->live += d;
#endif
}

/* Remember a block of `size` bytes (addr not 0) in an empty slot; false,
 * with nothing changed, when the out-of-line path must take it. */
static inline bool reg_host_fast_put(uintptr_t addr, size_t size, uint8_t api,
				     unsigned cls, uintptr_t site)
{
	struct reg_host_front *f = reg_host_mine;
	struct reg_host_fslot *s;
	bool ok;

	if (!reg_host_fast_enter(f, REG_HOST_WANT | REG_HOST_DIVERT))
		return false;
	s = reg_host_fast_slot(f, addr);
	ok = s->key == 0;
	if (__builtin_expect(ok, 1)) {
		s->key = REG_HOST_KEY(addr) | REG_HOST_KEY_USED | cls;
		s->meta = (uint64_t)size << 8 | api;
		s->site = site;
		reg_host_fast_count(f, 1);
	}
	reg_host_fast_leave(f);
	return ok;
}

/* Forget a block freed by a deallocator of class `cls` that matches its
 * allocator, never traced; false, with nothing changed, otherwise. */
static inline bool reg_host_fast_drop(uintptr_t addr, unsigned cls)
{
	struct reg_host_front *f = reg_host_mine;
	struct reg_host_fslot *s;
	bool ok;

	if (!reg_host_fast_enter(f, REG_HOST_WANT))
		return false;
	s = reg_host_fast_slot(f, addr);
	ok = s->key == (REG_HOST_KEY(addr) | REG_HOST_KEY_USED | cls);
	if (__builtin_expect(ok, 1)) {
		s->key = 0;
		reg_host_fast_count(f, -1);
	}
	reg_host_fast_leave(f);
	return ok;
}

#endif
