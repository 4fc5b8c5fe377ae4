/* SPDX-License-Identifier: MIT */
/*
 * The runtime's own copy and fill kernels, served by their meaning rather
 * than by the interpreter: ROCr's loader copies code objects with machine
 * code it assembled itself, outside any code object, and a runtime that
 * moves bytes with its blit kernels (ROCm 6 copies small buffers so, and
 * fills with them on every release) must see them move whatever the
 * interpreter has.  A dispatch
 * is matched by the name of the kernel in the code object the loader put
 * in device memory; its arguments are found by name in that object's
 * metadata, so each release's signature of the same kernel is read as it
 * was compiled.  Any other kernel, and a blit kernel whose arguments are
 * not the ones known, is retired without effect.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "vg.h"
#include "vg_image.h"
#include "vg_blit.h"

#define PAGE 4096ull
/* How far before a kernel descriptor its image's header may lie. */
#define MAX_BACK (16ull << 20)
/* Larger than any copy a runtime hands one dispatch. */
#define MAX_BYTES (1ull << 40)

/* K_RAW: code the runtime assembled itself, outside any code object, its
 * kind (K_RAW_*) known from its first dispatch whose arguments say it. */
enum kind {
	K_OTHER, K_RAW, K_RAW_FILL, K_RAW_MISALIGNED, K_RAW_ALIGNED,
	K_COPY, K_COPY_ALIGNED, K_FILL,
};

static const struct {
	const char *name;
	enum kind kind;
} blits[] = {
	{ "__amd_rocclr_copyBuffer", K_COPY },
	{ "__amd_rocclr_copyBufferAligned", K_COPY_ALIGNED },
	{ "__amd_rocclr_fillBufferAligned", K_FILL },
};

/* Kernels seen, by descriptor address (an open-addressed table; a full
 * table resolves again, it never forgets a blit kernel's name wrongly).
 * A blit is known with the buffer object that held it: code unloaded and
 * another loaded at its address is resolved anew. */
#define SLOTS 4096
static struct slot {
	uint64_t kd;
	enum kind kind;
	uint64_t handle;
	struct vg_kinfo *info;
} seen[SLOTS];
static struct vg_kinfo infos[16];
static unsigned ninfos;

static enum kind resolve(uint64_t kd, struct vg_kinfo *out, uint64_t *handle,
			 uint64_t *image_va)
{
	struct vg_bo b;
	out->name[0] = '\0';
	*image_va = 0;
	if (vg_mem_bo_at(kd, &b))
		return K_OTHER;
	const uint8_t *bo = b.host;
	uint64_t bo_va = b.va, bo_size = b.size;
	*handle = b.handle;
	for (uint64_t at = (kd - bo_va) & ~(PAGE - 1);; at -= PAGE) {
		if (vg_image_is_elf(bo + at, bo_size - at)) {
			*image_va = bo_va + at;
			if (vg_image_kernel(bo + at, bo_size - at, kd - bo_va - at, out))
				return K_OTHER;
			for (size_t i = 0; i < sizeof(blits) / sizeof(blits[0]); i++)
				if (!strcmp(out->name, blits[i].name))
					return blits[i].kind;
			return K_OTHER;
		}
		if (!at || (kd - bo_va) - at >= MAX_BACK)
			break;
	}
	/* The runtime's assembled kernels each open a buffer of their own. */
	return kd == bo_va ? K_RAW : K_OTHER;
}

/* Whether a blit's buffer object still holds its descriptor (kernels
 * that are no blit are not checked: a stale one only copies nothing). */
static int still_there(const struct slot *s)
{
	struct vg_bo b;
	return s->kind == K_OTHER ||
	       (!vg_mem_bo_at(s->kd, &b) && b.handle == s->handle);
}

static struct slot *lookup(uint64_t kd)
{
	uint32_t h = (uint32_t)((kd >> 6) * 2654435761u) % SLOTS;
	for (uint32_t i = 0; i < SLOTS; i++) {
		struct slot *s = &seen[(h + i) % SLOTS];
		if (s->kd == kd && !still_there(s))
			s->kd = 0;
		if (s->kd == kd)
			return s;
		if (!s->kd) {
			struct vg_kinfo k;
			uint64_t handle = 0, image_va;
			enum kind kind = resolve(kd, &k, &handle, &image_va);
			if (kind >= K_COPY) {
				if (ninfos == sizeof(infos) / sizeof(infos[0]))
					return NULL;
				infos[ninfos] = k;
				s->info = &infos[ninfos++];
			}
			s->kd = kd;
			s->kind = kind;
			s->handle = handle;
			vg_log("kernel 0x%llx is %s", (unsigned long long)kd,
			       kind == K_RAW ? "outside any code object" :
			       kind == K_OTHER ? "not a blit" : k.name);
			return s;
		}
	}
	return NULL;
}

struct args {
	const struct vg_kinfo *k;
	const uint8_t *kernarg;
};

/* A kernel argument's value by name (0 when the kernel has no such one). */
static uint64_t karg(const struct args *a, const char *name, int *found)
{
	for (uint32_t i = 0; i < a->k->nargs; i++) {
		const struct vg_karg *g = &a->k->args[i];
		if (strcmp(g->name, name) || (g->size != 4 && g->size != 8))
			continue;
		uint64_t v = 0;
		memcpy(&v, a->kernarg + g->offset, g->size);
		if (found)
			*found = 1;
		return v;
	}
	return 0;
}

static int has(const struct args *a, const char *name)
{
	int found = 0;
	karg(a, name, &found);
	return found;
}

static uint64_t either(const struct args *a, const char *one, const char *other)
{
	return has(a, one) ? karg(a, one, NULL) : karg(a, other, NULL);
}

static void move(uint64_t dst, uint64_t src, uint64_t n)
{
	if (!dst || !src || !n || n > MAX_BYTES)
		return;
	memmove(vg_mem_host(dst, n), vg_mem_host(src, n), n);
	vg_log("blit copy 0x%llx <- 0x%llx, %llu bytes", (unsigned long long)dst,
	       (unsigned long long)src, (unsigned long long)n);
}

/* ROCm 6: (src, dst, size, remainder, aligned_size, ...), size in bytes;
 * ROCm 5: (srcI, dstI, srcOrigin, dstOrigin, size, remain), size in
 * 4-byte words, the last one remain bytes long (8: size is in bytes). */
static void do_copy(const struct args *a)
{
	uint64_t src = either(a, "src", "srcI") + karg(a, "srcOrigin", NULL);
	uint64_t dst = either(a, "dst", "dstI") + karg(a, "dstOrigin", NULL);
	uint64_t size = karg(a, "size", NULL), remain = karg(a, "remain", NULL);
	if (has(a, "remain") && remain != 8)
		size = size ? (size - 1) * 4 + remain : 0;
	move(dst, src, size);
}

/* (src, dst, srcOrigin, dstOrigin, size, alignment): size and origins in
 * 16-byte units when alignment is 16, else in 4-byte words. */
static void do_copy_aligned(const struct args *a)
{
	uint64_t unit = karg(a, "alignment", NULL) == 16 ? 16 : 4;
	move(karg(a, "dst", NULL) + unit * karg(a, "dstOrigin", NULL),
	     karg(a, "src", NULL) + unit * karg(a, "srcOrigin", NULL),
	     unit * karg(a, "size", NULL));
}

static void fill(uint64_t dst, uint64_t n, const uint8_t *p, uint64_t plen)
{
	if (!dst || !p || !n || !plen || n > MAX_BYTES)
		return;
	uint8_t *d = vg_mem_host(dst, n);
	for (uint64_t off = 0; off < n; off += plen)
		memcpy(d + off, p, n - off < plen ? n - off : plen);
	vg_log("blit fill 0x%llx, %llu bytes of a %llu-byte pattern",
	       (unsigned long long)dst, (unsigned long long)n,
	       (unsigned long long)plen);
}

/* ROCm 6: (buf, pattern, pattern_size, alignment, end_ptr, ...), the
 * pattern pattern_size elements of alignment bytes, up to end_ptr;
 * ROCm 5: one of bufUChar/UShort/UInt/ULong set, its element size the
 * unit of patternSize, offset and size (a count of patterns). */
static void do_fill(const struct args *a)
{
	uint64_t pattern = karg(a, "pattern", NULL);
	if (has(a, "end_ptr")) {
		uint64_t buf = karg(a, "buf", NULL), end = karg(a, "end_ptr", NULL);
		uint64_t plen = karg(a, "pattern_size", NULL) * karg(a, "alignment", NULL);
		if (end > buf && pattern && plen <= 4096)
			fill(buf, end - buf, vg_mem_host(pattern, plen), plen);
		return;
	}
	static const char *const bufs[] = { "bufUChar", "bufUShort", "bufUInt", "bufULong" };
	for (unsigned i = 0; i < 4; i++) {
		uint64_t buf = karg(a, bufs[i], NULL), unit = 1ull << i;
		if (!buf)
			continue;
		uint64_t plen = unit * karg(a, "patternSize", NULL);
		if (pattern && plen <= 4096)
			fill(buf + unit * karg(a, "offset", NULL),
			     plen * karg(a, "size", NULL), vg_mem_host(pattern, plen), plen);
		return;
	}
}

/* ROCr's own blit kernels (its loader moves code objects into device
 * memory with them) are machine code it assembled itself, with no code
 * object to name them.  They are told apart by their arguments: runs of
 * source and destination addresses, each phase starting where the last
 * ended, the two sides the same distance apart, ending at the copy's end;
 * and the work-item count the dispatch's grid matches. */
static int ranges_hold(const uint64_t *src, const uint64_t *dst, int n)
{
	for (int i = 1; i < n; i++)
		if (src[i] < src[i - 1] || dst[i] < dst[i - 1] ||
		    src[i] - src[0] != dst[i] - dst[0])
			return 0;
	return src[n - 1] > src[0] && src[n - 1] - src[0] <= MAX_BYTES;
}

/* A kernel's arguments are read from a buffer the runtime reuses, so the
 * words past the end of a smaller layout hold an earlier dispatch's: the
 * layouts are tried smallest first, and a kernel keeps the first kind its
 * arguments showed. */
static enum kind raw_kind(const uint8_t *ka, uint32_t grid, enum kind known)
{
	uint64_t w[10];
	uint32_t nw;
	memcpy(w, ka, sizeof(w));
	/* Fill: three destinations in order, the 4-byte value, the count. */
	memcpy(&nw, ka + 28, 4);
	if ((known == K_RAW || known == K_RAW_FILL) && nw && nw == grid && w[0] &&
	    w[0] <= w[1] && w[1] <= w[2] && w[2] - w[0] <= MAX_BYTES &&
	    !((w[2] - w[0]) & 3)) {
		fill(w[0], w[2] - w[0], ka + 24, 4);
		return K_RAW_FILL;
	}
	/* Misaligned copy: two (src, dst) pairs, then the ends. */
	uint64_t s3[3] = { w[0], w[2], w[4] }, d3[3] = { w[1], w[3], w[5] };
	memcpy(&nw, ka + 48, 4);
	if ((known == K_RAW || known == K_RAW_MISALIGNED) && nw && nw == grid &&
	    ranges_hold(s3, d3, 3)) {
		move(d3[0], s3[0], s3[2] - s3[0]);
		return K_RAW_MISALIGNED;
	}
	/* Aligned copy: five (src, dst) pairs, the last the end, then the
	 * work items. */
	uint64_t s5[5], d5[5];
	for (int i = 0; i < 5; i++)
		s5[i] = w[2 * i], d5[i] = w[2 * i + 1];
	memcpy(&nw, ka + 80, 4);
	if ((known == K_RAW || known == K_RAW_ALIGNED) && nw && nw == grid &&
	    ranges_hold(s5, d5, 5)) {
		move(d5[0], s5[0], s5[4] - s5[0]);
		return K_RAW_ALIGNED;
	}
	return known;
}

int vg_kernel_name(uint64_t kd, char *out, size_t cap, uint64_t *image_va)
{
	struct vg_kinfo k;
	uint64_t handle;
	resolve(kd, &k, &handle, image_va);
	if (!k.name[0] || strlen(k.name) >= cap)
		return -1;
	strcpy(out, k.name);
	return 0;
}

/* Each GPU's queues are served on a thread of their own: the table of
 * kernels seen is theirs in turn.  A blit's info, once made, never
 * changes. */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

int vg_blit_dispatch(uint64_t kd, uint64_t kernarg, uint32_t grid)
{
	pthread_mutex_lock(&seen_lock);
	struct slot *s = kd ? lookup(kd) : NULL;
	enum kind kind = s ? s->kind : K_OTHER;
	const struct vg_kinfo *info = s ? s->info : NULL;
	if (kernarg && kind != K_OTHER && kind < K_COPY)
		s->kind = raw_kind(vg_mem_host(kernarg, 88), grid, s->kind);
	pthread_mutex_unlock(&seen_lock);
	if (kind == K_OTHER || !kernarg)
		return 0;
	if (kind < K_COPY)
		return 1;
	uint64_t len = 0;
	for (uint32_t i = 0; i < info->nargs; i++) {
		const struct vg_karg *g = &info->args[i];
		if (g->offset + g->size > len)
			len = g->offset + g->size;
	}
	struct args a = { info, vg_mem_host(kernarg, len) };
	switch (kind) {
	case K_COPY: do_copy(&a); break;
	case K_COPY_ALIGNED: do_copy_aligned(&a); break;
	case K_FILL: do_fill(&a); break;
	default: break;
	}
	return 1;
}
