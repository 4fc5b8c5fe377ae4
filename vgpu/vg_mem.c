/* SPDX-License-Identifier: MIT */
/*
 * Buffer objects.  VRAM, GTT, doorbell and MMIO objects take a range of
 * the memory file (never reused, so a stale mapping cannot alias a new
 * object; a freed range's pages are given back); a userptr object is the
 * user's own memory.  The device reads and writes an object through its
 * own mapping, as a GPU reaches VRAM that the CPU may not have mapped.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

#include "vg_sysfs.h"
#include "vg.h"

#define PAGE 4096ull
/* The file's first pages: the process's doorbells, then the events page
 * of an APU's kernel-allocated signal slots. */
#define DOORBELL_OFF 0ull
#define EVENTS_OFF (DOORBELL_OFF + VG_DOORBELL_PAGE)
#define FIRST_FREE (2ull << 20)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct vg_bo *bos;
static size_t nbo, capbo;
static uint64_t next_off = FIRST_FREE, next_handle, system_used, ttm_used;
static uint64_t vram_used[VG_MAX_GPUS]; /* each GPU's own */

static uint64_t *counter(uint32_t gpu, uint32_t flags)
{
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
		return &vram_used[gpu];
	if (flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
		return &system_used;
	return NULL;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static int add(const struct vg_bo *bo)
{
	if (nbo == capbo) {
		size_t cap = capbo ? capbo * 2 : 256;
		struct vg_bo *n = realloc(bos, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		bos = n;
		capbo = cap;
	}
	bos[nbo++] = *bo;
	return 0;
}

static void *view(uint64_t off, uint64_t size)
{
	void *p = vg_real_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			       vg.mem_fd, (off_t)off);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_DONTFORK); /* the parent's, not a child's */
	return p;
}

/* The host memory the driver's limits are shares of: the topology's CPU
 * node reports it, and the driver takes it at load, when all is free. */
static uint64_t host_memory(void)
{
	return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * amdgpu_amdkfd_gpuvm.c, amdgpu_amdkfd_reserve_mem_limit, with the limits
 * amdgpu_amdkfd_gpuvm_init_mem_limits sets: GTT and userptr objects
 * together take at most 15/16 of the host's memory, GTT objects alone
 * 3/8 of it (TTM's share); an object of no known kind is -ENOMEM.  An
 * APU's objects all come from the memory its node reports.
 */
static int over_limit(uint32_t gpu, uint32_t flags, uint64_t size)
{
	if (flags & (KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP))
		return 0;
	if (!(flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |
		       KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)))
		return 1;
	if (vg.prof->apu)
		return size > VG_APU_MEMORY - system_used;
	uint64_t mem = host_memory();
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
		return size > vg.prof->vram_bytes - vram_used[gpu];
	if (size > mem - (mem >> 4) - system_used)
		return 1;
	return (flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT) &&
	       size > (mem >> 1) - (mem >> 3) - ttm_used;
}

int vg_mem_alloc(uint32_t gpu, uint64_t va, uint64_t size, uint32_t flags,
		 uint64_t *mmap_offset, uint64_t *handle)
{
	struct vg_bo bo = { .va = va, .size = size, .flags = flags };
	if (!size || gpu >= VG_MAX_GPUS)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (over_limit(gpu, flags, size)) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
		bo.offset = *mmap_offset;
		bo.host = (void *)(uintptr_t)*mmap_offset;
	} else if (flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
		bo.offset = DOORBELL_OFF;
	} else {
		uint64_t a = size >= (2ull << 20) ? (2ull << 20) : PAGE;
		bo.offset = align_up(next_off, a);
		next_off = bo.offset + align_up(size, PAGE);
	}
	if (!bo.host)
		bo.host = view(bo.offset, size);
	/* kfd_priv.h, MAKE_HANDLE: the GPU's id over the process's idr slot. */
	bo.handle = ((uint64_t)vg_gpu_id(gpu) << 32) | next_handle++;
	int rc = bo.host ? add(&bo) : -ENOMEM;
	if (!rc && counter(gpu, flags))
		*counter(gpu, flags) += size;
	if (!rc && (flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT))
		ttm_used += size;
	pthread_mutex_unlock(&lock);
	if (rc) {
		if (bo.host && !(flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
			munmap(bo.host, size);
		return rc;
	}
	if (!(flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
		*mmap_offset = bo.offset;
	*handle = bo.handle;
	return 0;
}

int vg_mem_free(uint64_t handle)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nbo; i++) {
		struct vg_bo bo = bos[i];
		if (bo.handle != handle)
			continue;
		bos[i] = bos[--nbo];
		uint32_t gpu = (uint32_t)vg_gpu_index((uint32_t)(bo.handle >> 32));
		if (counter(gpu, bo.flags))
			*counter(gpu, bo.flags) -= bo.size;
		if (bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT)
			ttm_used -= bo.size;
		pthread_mutex_unlock(&lock);
		if (!(bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)) {
			munmap(bo.host, bo.size);
			if (!(bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL))
				fallocate(vg.mem_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					  (off_t)bo.offset, (off_t)align_up(bo.size, PAGE));
		}
		return 0;
	}
	pthread_mutex_unlock(&lock);
	return -EINVAL;
}

static int meets(uint64_t lo, uint64_t size, uint64_t va, uint64_t len)
{
	return va < lo + size && lo < va + len;
}

/* Whether any buffer object's GPU range, or a userptr object's user
 * pages (the driver looks for both: kfd_svm.c, svm_range_check_vm),
 * meets [va, va+len). */
int vg_mem_overlaps(uint64_t va, uint64_t len)
{
	int hit = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nbo && !hit; i++) {
		const struct vg_bo *b = &bos[i];
		if (b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL |
				KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP))
			continue;
		hit = meets(b->va, b->size, va, len) ||
		      ((b->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) &&
		       meets(b->offset, b->size, va, len));
	}
	pthread_mutex_unlock(&lock);
	return hit;
}

uint64_t vg_mem_vram_used(uint32_t gpu)
{
	return gpu < VG_MAX_GPUS ? __atomic_load_n(&vram_used[gpu], __ATOMIC_RELAXED) : 0;
}

uint64_t vg_mem_system_used(void)
{
	return __atomic_load_n(&system_used, __ATOMIC_RELAXED);
}

/* Where the device finds [va, va+len): the object holding it, else the
 * process's own address (shared virtual memory: GPU and CPU addresses
 * are one). */
void *vg_mem_host(uint64_t va, uint64_t len)
{
	void *p = NULL;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nbo; i++) {
		struct vg_bo *b = &bos[i];
		if (va >= b->va && va - b->va < b->size && len <= b->size - (va - b->va)) {
			p = (char *)b->host + (va - b->va);
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return p ? p : (void *)(uintptr_t)va;
}

/* The driver's own mmap offsets carry a type in their top bits; ours are
 * plain offsets in the memory file. */
void *vg_mmap_kfd(void *addr, size_t len, int prot, int flags, off_t off)
{
	uint64_t o = (uint64_t)off, type = o >> 62;
	if (type == 3) /* doorbells */
		o = DOORBELL_OFF;
	else if (type == 2) /* an APU's events page */
		o = EVENTS_OFF;
	else if (type)
		o &= (1ull << 46) - 1;
	return vg_real_mmap(addr, len, prot, flags, vg.mem_fd, (off_t)o);
}

uint64_t vg_mem_doorbell_offset(void)
{
	return DOORBELL_OFF;
}

int vg_mem_bo_at(uint64_t va, struct vg_bo *out)
{
	int rc = -1;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nbo && rc; i++) {
		const struct vg_bo *b = &bos[i];
		if (va >= b->va && va - b->va < b->size &&
		    !(b->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)) {
			*out = *b;
			rc = 0;
		}
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* Fork: the child's device is a new one (amdkfd makes a process per mm):
 * no objects, and a memory file of its own, so that what it allocates
 * never lands in its parent's.  The device's views of the parent's
 * objects were not inherited (MADV_DONTFORK). */
void vg_mem_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		nbo = 0; /* the array is kept: no allocator calls in a child's handler */
		next_off = FIRST_FREE;
		next_handle = 0;
		memset(vram_used, 0, sizeof(vram_used));
		system_used = ttm_used = 0;
	}
	pthread_mutex_unlock(&lock);
}

int vg_mem_holds(uint64_t handle)
{
	int hit = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nbo && !hit; i++)
		hit = bos[i].handle == handle;
	pthread_mutex_unlock(&lock);
	return hit;
}
