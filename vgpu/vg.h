/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU: a stand-in for the amdgpu/KFD kernel driver, below an
 * unmodified ROCm runtime, for machines without an AMD GPU.  It answers
 * /dev/kfd and the render node at libc's open/ioctl/mmap, and the KFD
 * topology in sysfs through a generated tree.  Memory is host memory;
 * queues are served in order; kernels run on the interpreter (exec/).
 *
 * One header for the whole component: the shim (the interposed libc
 * entry points) reaches the device only through these functions.
 */
#ifndef VG_H
#define VG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "vg_node.h"

/* Doorbells are 8 bytes, 1024 of them in the process's doorbell page. */
#define VG_DOORBELL_PAGE 8192u
/* GB_ADDR_CONFIG as gfx9 parts report it: the tiling the address library
 * assumes; no image is ever tiled here. */
#define VG_GB_ADDR_CONFIG 0x26010042u

/* State (vg_log.c, started by vg_state.c). */
struct vg_state {
	const struct vg_node *node;	/* the machine */
	const struct vg_profile *prof;	/* its GPUs' product */
	int kfd_fd;		/* a memfd standing for /dev/kfd */
	int render_fd;		/* a memfd standing for the render node */
	int mem_fd;		/* backing store of every buffer object */
	char sysfs[256];	/* the generated topology tree's root */
	int xnack;		/* the process's XNACK mode */
	int halted;		/* a fatal GPU fault evicted the queues */
	pid_t owner;		/* the process that made sysfs */
	pid_t self;		/* this process, kept across fork */
};
extern struct vg_state vg;

/* 0 when a profile is selected (vg_state.c). */
int vg_init(void);
/* Which of the machine's GPUs a gpu_id names, or -1 (vg_log.c). */
int vg_gpu_index(uint32_t gpu_id);
/* A line on stderr when HIPGRAIN_VGPU_TRACE=1: what the device answered
 * (vg_log.c). */
void vg_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The next definition of a function the library answers in another's
 * place (libc's, the HSA runtime's), or abort: a call it cannot forward
 * has nowhere to go (vg_shim.c). */
void *vg_next(const char *name);
/* A KFD sysfs path's name in the topology tree (vg_shim.c). */
const char *vg_sysfs_path(const char *path, char *buf, size_t cap);

/* Devices (vg_dev.c): opens of /dev/kfd and the render node. */
enum { VG_FD_NONE, VG_FD_KFD, VG_FD_RENDER };
int vg_dev_open(const char *path, int flags);
/* Says on stderr, once, when the runtime the program loaded does not know
 * the profile's target (vg_runtime.c). */
void vg_runtime_check(void);
int vg_dev_is(int fd);
int vg_dev_dup(int fd);
void vg_dev_closed(int fd);

/* A process's XNACK mode at its start, as the driver was booted
 * (vg_kfd.c). */
int vg_xnack_default(void);
/* ioctls (vg_kfd.c, vg_drm.c): -errno or the result. */
int vg_kfd_ioctl(unsigned long req, void *arg);
int vg_drm_ioctl(unsigned long req, void *arg);

/* Memory (vg_mem.c). */
struct vg_bo {
	uint64_t handle;
	uint64_t va, size;
	uint64_t offset;	/* in mem_fd, or the user address for userptr */
	uint32_t flags;
	void *host;		/* the device's own view of the bytes */
};
int vg_mem_alloc(uint32_t gpu, uint64_t va, uint64_t size, uint32_t flags,
		 uint64_t *mmap_offset, uint64_t *handle);
int vg_mem_free(uint64_t handle);
/* Whether the process holds the object with this handle. */
int vg_mem_holds(uint64_t handle);
void *vg_mem_host(uint64_t va, uint64_t len);
/* The object holding va, copied to *out: 0, or -1 when none holds it. */
int vg_mem_bo_at(uint64_t va, struct vg_bo *out);
void *vg_mmap_kfd(void *addr, size_t len, int prot, int flags, off_t off);
uint64_t vg_mem_vram_used(uint32_t gpu);
/* Bytes of GTT and userptr objects: an APU's system memory in use. */
uint64_t vg_mem_system_used(void);
int vg_mem_overlaps(uint64_t va, uint64_t len);
uint64_t vg_mem_doorbell_offset(void);
/* libc's mmap, for the device's own views of the memory file (vg_real.c). */
void *vg_real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

/* Events (vg_event.c). */
int vg_event_create(void *args);
int vg_event_destroy(void *args);
/* From the device: a signal or debug event; from the CPU (SET_EVENT). */
int vg_event_set(uint32_t id);
int vg_event_set_cpu(void *args);
int vg_event_reset(void *args);
int vg_event_wait(void *args);
void vg_event_signal_all(void);
/* What a thread about to wait on events does first (it wakes the queues'
 * thread, vg_queue.c). */
void vg_event_serve_with(void (*fn)(void));
/* An interrupt a kernel raised (s_sendmsg), M0's context id with it. */
void vg_event_interrupt(uint32_t context_id);
struct kfd_hsa_memory_exception_data;
/* A fatal GPU fault, told to every memory event: how many there were
 * (0: nobody listens). */
int vg_event_memory_fault(const struct kfd_hsa_memory_exception_data *d);

/* Queues (vg_queue.c). */
int vg_queue_create(void *args);
int vg_queue_destroy(void *args);
int vg_queue_update(void *args);

/* SVM attributes (vg_svm.c; the ranges in vg_svm_attr.c) and the SMI
 * event files (vg_smi.c). */
int vg_svm(void *args);
/* Whether va lies in a range the process gave the driver (SET_ATTR), with
 * that range's flags and location (0: system memory, else a gpu id). */
int vg_svm_lookup(uint64_t va, uint32_t *flags, uint32_t *where);
/* A GPU access under XNACK to a page its page table does not hold yet:
 * the driver's restore (vg_svm_fault.c); -1 when it cannot map it. */
int vg_svm_gpu_fault(uint64_t va, int write, uint32_t gpu_id);
int vg_svm_holds(uint64_t start, uint64_t len);
/* What a new SVM range's access is (svm_range_new): every GPU's under
 * XNACK, none without; the bits as vg_svm_int.h keeps them. */
uint32_t vg_svm_access_default(void);
/* Whether GPU gpu (a gpu id) may access [s, e), in place or not. */
int vg_svm_gpu_may_access(uint64_t s, uint64_t e, uint32_t gpu);
void vg_svm_unmapped(uint64_t start, uint64_t len);
/* The GPU's page table holds [start, end) now (a prefetch mapped it). */
void vg_svm_gpu_map(uint64_t start, uint64_t end);
int vg_smi_open(void *args);
/* The SMI file's vmfault line for this process (a fatal GPU fault). */
void vg_smi_vmfault(uint32_t gpu_id);
/* A GPU page fault's start ('R' or 'W') or end ('M' migrated, 'U' only
 * mapped), at the page of addr. */
void vg_smi_page_fault(uint32_t gpu_id, uint64_t addr, int end, char rw);
void vg_smi_migrate(uint64_t start, uint64_t size, uint32_t from, uint32_t to,
		    int trigger);

/* The name of the kernel whose descriptor is at kd, from the code object
 * the loader placed around it (vg_blit.c): 0, or -1 when none says.
 * *image_va: where that code object's header lies (0: none found), from
 * which its addresses are counted. */
int vg_kernel_name(uint64_t kd, char *out, size_t cap, uint64_t *image_va);

/* The CPU's mappings as the driver's range checks see them (vg_vma.c):
 * each mapping made through the shim, from one of our devices or not. */
void vg_vma_mapped(void *addr, size_t len, int device);
/* -EFAULT where a page of [start, start+size) has no mapping or a device's. */
int vg_vma_check(uint64_t start, uint64_t size);

/* Fork (lttng-ust's discipline): before it every lock a module owns is
 * taken; after it both sides release them, and the child drops what was
 * its parent's device (vg_state.c calls each module's handler). */
enum { VG_FORK_PREPARE, VG_FORK_PARENT, VG_FORK_CHILD };
void vg_vma_fork(int phase);
void vg_mem_fork(int phase);
void vg_queue_fork(int phase);
void vg_event_fork(int phase);
void vg_smi_fork(int phase);
void vg_svm_fork(int phase);
void vg_kfd_fork(int phase);
void vg_mapped_fork(int phase);
/* Whether a buffer object is mapped to the GPU (vg_mapped.c): mapped
 * (delta > 0) or unmapped; whether it is. */
int vg_mapped_add(uint64_t handle, int delta);
int vg_mapped(uint64_t handle);
/* The fd's opener (vg_dev.c): a /dev/kfd fd answers only the process that
 * opened it. */
pid_t vg_dev_owner(int fd);

/* Time: the GPU clock is the host's monotonic clock in ns (vg_log.c). */
uint64_t vg_now_ns(void);

#endif
