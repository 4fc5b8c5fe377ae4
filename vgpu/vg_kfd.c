/* SPDX-License-Identifier: MIT */
/*
 * The /dev/kfd ioctls, one handler each, as the amdgpu driver answers
 * them for one GPU node.  What a real driver enforces and a runtime never
 * relies on (quotas, permissions) is left out; what the runtime reads
 * back (ids, offsets, apertures, counts) is answered as the driver would.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/kfd_ioctl.h>

#include "vg_sysfs.h"
#include "vg.h"

static int get_version(void *p)
{
	struct kfd_ioctl_get_version_args *a = p;
	a->major_version = KFD_IOCTL_MAJOR_VERSION;
	a->minor_version = KFD_IOCTL_MINOR_VERSION;
	return 0;
}

/* gfx9's flat apertures (kfd_flat_memory.c): LDS and scratch above the
 * 48-bit canonical range, the GPU's VM beside the CPU's. */
static int apertures(void *p)
{
	struct kfd_ioctl_get_process_apertures_new_args *a = p;
	struct kfd_process_device_apertures *d =
		(void *)(uintptr_t)a->kfd_process_device_apertures_ptr;
	uint32_t n = vg.node->gpus;
	if (a->num_of_nodes == 0 || !d) {
		a->num_of_nodes = n;
		return 0;
	}
	if (a->num_of_nodes < n)
		n = a->num_of_nodes;
	for (uint32_t i = 0; i < n; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].lds_base = 1ull << 48;
		d[i].lds_limit = d[i].lds_base + 0xffffffffull;
		d[i].scratch_base = 2ull << 48;
		d[i].scratch_limit = d[i].scratch_base + 0xffffffffull;
		d[i].gpuvm_base = 1ull << 24;
		d[i].gpuvm_limit = (1ull << 47) - 1;
		d[i].gpu_id = vg_gpu_id(i);
	}
	a->num_of_nodes = n;
	return 0;
}

static int gpu_ok(uint32_t id)
{
	return vg_gpu_index(id) >= 0 ? 0 : -EINVAL;
}

static int acquire_vm(void *p)
{
	struct kfd_ioctl_acquire_vm_args *a = p;
	if (vg_dev_is((int)a->drm_fd) != VG_FD_RENDER)
		return -EINVAL;
	return gpu_ok(a->gpu_id);
}

static int clocks(void *p)
{
	struct kfd_ioctl_get_clock_counters_args *a = p;
	struct timespec raw;
	clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
	a->gpu_clock_counter = vg_now_ns();
	a->cpu_clock_counter = (uint64_t)raw.tv_sec * 1000000000u + (uint64_t)raw.tv_nsec;
	a->system_clock_counter = vg_now_ns();
	a->system_clock_freq = 1000000000u;
	return 0;
}

/* On an APU a VRAM request is placed in GTT, system memory
 * (amdgpu_amdkfd_gpuvm.c, amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu; since
 * "Let VRAM allocations go to GTT domain on small APUs", for every APU). */
static uint32_t domain(uint32_t flags)
{
	if (!vg.prof->apu || !(flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM))
		return flags;
	return (flags & ~KFD_IOC_ALLOC_MEM_FLAGS_VRAM) | KFD_IOC_ALLOC_MEM_FLAGS_GTT;
}

static int alloc(void *p)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args *a = p;
	int rc = gpu_ok(a->gpu_id);
	if (rc)
		return rc;
	/* kfd_chardev.c, kfd_ioctl_alloc_memory_of_gpu: an object whose GPU
	 * range, or whose user pages, meet an SVM range is -EADDRINUSE. */
	if (vg_svm_holds(a->va_addr, a->size) ||
	    ((a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) && vg_svm_holds(a->mmap_offset, a->size)))
		return -EADDRINUSE;
	uint64_t off = a->mmap_offset, handle = 0;
	rc = vg_mem_alloc((uint32_t)vg_gpu_index(a->gpu_id), a->va_addr, a->size,
			  domain(a->flags), &off, &handle);
	a->mmap_offset = off;
	a->handle = handle;
	return rc;
}

/* amdgpu_amdkfd_gpuvm_free_memory_of_gpu: an object still mapped to the
 * GPU is not freed (-EBUSY). */
static int free_mem(void *p)
{
	struct kfd_ioctl_free_memory_of_gpu_args *a = p;
	return vg_mapped(a->handle) ? -EBUSY : vg_mem_free(a->handle);
}

/* kfd_chardev.c, kfd_ioctl_map_memory_to_gpu and _unmap_: an empty or
 * overrun device list is -EINVAL, a handle of no GPU of the process
 * -EINVAL, one the process does not hold -ENOMEM. */
static int map_mem(void *p)
{
	struct kfd_ioctl_map_memory_to_gpu_args *a = p;
	const uint32_t *ids = (const void *)(uintptr_t)a->device_ids_array_ptr;
	if (!a->n_devices || a->n_success > a->n_devices)
		return -EINVAL;
	if (!ids)
		return -EFAULT;
	if (vg_gpu_index((uint32_t)(a->handle >> 32)) < 0)
		return -EINVAL;
	if (!vg_mem_holds(a->handle))
		return -ENOMEM;
	for (uint32_t i = a->n_success; i < a->n_devices; i++)
		if (gpu_ok(ids[i]))
			return -EINVAL;
	a->n_success = a->n_devices;
	return 0;
}

static int map_one(void *p)
{
	int rc = map_mem(p);
	return rc ? rc : vg_mapped_add(((struct kfd_ioctl_map_memory_to_gpu_args *)p)->handle, 1);
}

static int unmap_one(void *p)
{
	int rc = map_mem(p);
	return rc ? rc : vg_mapped_add(((struct kfd_ioctl_map_memory_to_gpu_args *)p)->handle, -1);
}

/* The process's queues, for the one call that cares (XNACK). */
static int nqueues;

/* kfd_chardev.c, set_queue_properties_from_user: a ring is a power of
 * two bytes long, or 0. */
static int create_queue(void *p)
{
	struct kfd_ioctl_create_queue_args *a = p;
	if (a->ring_size & (a->ring_size - 1))
		return -EINVAL;
	int rc = vg_queue_create(p);
	if (!rc)
		__atomic_add_fetch(&nqueues, 1, __ATOMIC_RELAXED);
	return rc;
}

static int destroy_queue(void *p)
{
	int rc = vg_queue_destroy(p);
	if (!rc)
		__atomic_sub_fetch(&nqueues, 1, __ATOMIC_RELAXED);
	return rc;
}

/* A process's XNACK mode at its start (kfd_process.c, kfd_create_process
 * asking kfd_process_xnack_mode without per-process support): on where
 * amdgpu was booted with retry on, off under its default noretry, which
 * amdgpu_gmc.c sets for every part offered here. */
int vg_xnack_default(void)
{
	return vg.node && vg.node->retry;
}

/* kfd_chardev.c, kfd_ioctl_set_xnack_mode: a negative value asks; a
 * change once the process has a queue is -EBUSY; XNACK on is -EPERM
 * where the GPU can take it neither per process nor from a driver booted
 * with retry on (kfd_process_xnack_mode). */
static int xnack(void *p)
{
	struct kfd_ioctl_set_xnack_mode_args *a = p;
	if (a->xnack_enabled < 0) {
		a->xnack_enabled = vg.xnack;
		return 0;
	}
	if (__atomic_load_n(&nqueues, __ATOMIC_RELAXED))
		return -EBUSY;
	if (a->xnack_enabled && !vg.prof->xnack_per_process && !vg.node->retry)
		return -EPERM;
	vg.xnack = a->xnack_enabled != 0;
	return 0;
}

/* amdgpu_amdkfd_gpuvm.c, amdgpu_amdkfd_get_available_memory: a card's
 * VRAM left; on an APU the system memory left, which its GTT objects
 * (what VRAM requests became) and userptr objects take. */
static int available(void *p)
{
	struct kfd_ioctl_get_available_memory_args *a = p;
	if (vg.prof->apu)
		a->available = VG_APU_MEMORY - vg_mem_system_used();
	else
		a->available = vg.prof->vram_bytes -
			       vg_mem_vram_used(vg_gpu_index(a->gpu_id) < 0 ? 0
									: (uint32_t)vg_gpu_index(a->gpu_id));
	return gpu_ok(a->gpu_id);
}

static int tile_config(void *p)
{
	struct kfd_ioctl_get_tile_config_args *a = p;
	a->num_tile_configs = 0;
	a->num_macro_tile_configs = 0;
	a->gb_addr_config = VG_GB_ADDR_CONFIG;
	a->num_banks = 0;
	a->num_ranks = 0;
	return gpu_ok(a->gpu_id);
}

static int ignore_args(void *p)
{
	return 0;
}

static int create_event(void *p)
{
	return vg_event_create(p);
}

struct handler {
	unsigned long req; /* the driver's: its size and direction */
	int (*fn)(void *);
};

#define DOOR(req, fn) [_IOC_NR(req)] = { req, fn }
static const struct handler handlers[] = {
	DOOR(AMDKFD_IOC_GET_VERSION, get_version),
	DOOR(AMDKFD_IOC_CREATE_QUEUE, create_queue),
	DOOR(AMDKFD_IOC_DESTROY_QUEUE, destroy_queue),
	DOOR(AMDKFD_IOC_SET_MEMORY_POLICY, ignore_args),
	DOOR(AMDKFD_IOC_GET_CLOCK_COUNTERS, clocks),
	DOOR(AMDKFD_IOC_UPDATE_QUEUE, vg_queue_update),
	DOOR(AMDKFD_IOC_CREATE_EVENT, create_event),
	DOOR(AMDKFD_IOC_DESTROY_EVENT, vg_event_destroy),
	DOOR(AMDKFD_IOC_SET_EVENT, vg_event_set_cpu),
	DOOR(AMDKFD_IOC_RESET_EVENT, vg_event_reset),
	DOOR(AMDKFD_IOC_WAIT_EVENTS, vg_event_wait),
	DOOR(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, ignore_args),
	DOOR(AMDKFD_IOC_GET_TILE_CONFIG, tile_config),
	DOOR(AMDKFD_IOC_SET_TRAP_HANDLER, ignore_args),
	DOOR(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, apertures),
	DOOR(AMDKFD_IOC_ACQUIRE_VM, acquire_vm),
	DOOR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, alloc),
	DOOR(AMDKFD_IOC_FREE_MEMORY_OF_GPU, free_mem),
	DOOR(AMDKFD_IOC_MAP_MEMORY_TO_GPU, map_one),
	DOOR(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, unmap_one),
	DOOR(AMDKFD_IOC_SET_CU_MASK, ignore_args),
	DOOR(AMDKFD_IOC_ALLOC_QUEUE_GWS, ignore_args),
	DOOR(AMDKFD_IOC_SMI_EVENTS, vg_smi_open),
	DOOR(AMDKFD_IOC_SVM, vg_svm),
	DOOR(AMDKFD_IOC_SET_XNACK_MODE, xnack),
	DOOR(AMDKFD_IOC_AVAILABLE_MEMORY, available),
};
#define NHANDLERS (sizeof(handlers) / sizeof(handlers[0]))

/* A stack buffer takes every argument of the driver's own header; an SVM
 * call with many attributes, whose size the thunk puts in the command,
 * takes one from the heap. */
#define DOOR_STACK 256

/*
 * amdkfd's door (kfd_chardev.c, kfd_ioctl): the command's number indexes
 * the table, and the handler gets the driver's own copy of the argument,
 * as large as the larger of the caller's size and the driver's, zeroed
 * past what the caller gave; what the driver's command says it returns
 * goes back, as many bytes as the caller gave.  A runtime built against
 * an older or newer header is answered as the driver answers it.
 */
static int dispatch(unsigned long req, void *arg)
{
	unsigned nr = _IOC_NR(req);
	if (nr >= NHANDLERS || !handlers[nr].fn)
		return -EINVAL;
	unsigned long cmd = handlers[nr].req;
	size_t usize = _IOC_SIZE(req), asize = _IOC_SIZE(cmd);
	if (asize < usize)
		asize = usize;
	unsigned char stack[DOOR_STACK];
	unsigned char *k = asize <= sizeof(stack) ? stack : malloc(asize);
	if (!k)
		return -ENOMEM;
	memset(k, 0, asize);
	if ((_IOC_DIR(cmd) & (_IOC_READ | _IOC_WRITE)) && !arg) {
		if (k != stack)
			free(k);
		return -EFAULT;
	}
	if (_IOC_DIR(cmd) & _IOC_WRITE)
		memcpy(k, arg, usize);
	int rc = handlers[nr].fn(k);
	if (_IOC_DIR(cmd) & _IOC_READ)
		memcpy(arg, k, usize);
	if (k != stack)
		free(k);
	return rc;
}

int vg_kfd_ioctl(unsigned long req, void *arg)
{
	int rc = dispatch(req, arg);
	vg_log("kfd ioctl 0x%02x (size %u): %d", (unsigned)_IOC_NR(req),
	       (unsigned)_IOC_SIZE(req), rc);
	return rc;
}

/* Fork: a child has no queues and the default XNACK mode. */
void vg_kfd_fork(int phase)
{
	if (phase == VG_FORK_CHILD) {
		nqueues = 0;
		vg.xnack = vg_xnack_default();
	}
}
