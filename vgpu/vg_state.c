/* SPDX-License-Identifier: MIT */
/*
 * Selecting and starting the virtual GPU.  HIPGRAIN_VIRTUAL_GPU names the
 * profile; without it every entry point of the shim forwards untouched.
 * The topology tree is made by the first process that needs it and shared
 * with its children through HIPGRAIN_VGPU_SYSFS, so an MPI launcher's
 * ranks read one tree; its maker removes it at exit.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hg_env.h"
#include "vg_svm_fault.h"
#include "vg_sysfs.h"
#include "vg.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready;

/* lttng-ust's discipline: every lock taken before fork, outermost first
 * (a queue's service takes the memory and event locks inside its own; an
 * SVM range's update the SMI lock), released after it on both sides; the
 * child then drops what was its parent's device and gets a memory file of
 * its own, without calling the allocator or anything a preload hooks (the
 * tracer's own locks are not the child's until its fork returns). */
static void (*const forks[])(int) = {
	vg_queue_fork, vg_svm_fault_fork, vg_svm_fork, vg_event_fork, vg_smi_fork,
	vg_mem_fork, vg_vma_fork, vg_kfd_fork, vg_mapped_fork,
};
#define NFORKS (sizeof(forks) / sizeof(forks[0]))

static void fork_prepare(void)
{
	for (size_t i = 0; i < NFORKS; i++)
		forks[i](VG_FORK_PREPARE);
}

static void fork_parent(void)
{
	for (size_t i = NFORKS; i-- > 0;)
		forks[i](VG_FORK_PARENT);
}

static void fork_child(void)
{
	int fd = memfd_create("hipgrain-vgpu-memory", MFD_CLOEXEC);
	vg.self = getpid();
	vg.halted = 0; /* the parent's queues are not the child's */
	/* Closed past every close hook: a preload's may take locks that are
	 * not the child's yet. */
	if (fd >= 0 && !ftruncate(fd, 1ll << 46)) {
		syscall(SYS_close, vg.mem_fd);
		vg.mem_fd = fd;
	} else if (fd >= 0) {
		syscall(SYS_close, fd);
	}
	for (size_t i = NFORKS; i-- > 0;)
		forks[i](VG_FORK_CHILD);
}

static void at_exit(void)
{
	if (vg.owner == getpid())
		vg_sysfs_remove(vg.sysfs);
}

static void start(void)
{
	const char *name = hg_env_get(HG_ENV_VIRTUAL_GPU);
	if (!name || !*name)
		return;
	static struct vg_node node;
	char why[128];
	if (vg_node_parse(name, &node, why, sizeof(why))) {
		fprintf(stderr, "hipgrain: virtual GPU: %s"
			" (hipgrain run --virtual-gpu list)\n", why);
		return;
	}
	vg.node = &node;
	vg.prof = node.gpu;
	vg.xnack = vg_xnack_default();
	vg.self = getpid();
	/* Every buffer object lives in one sparse file: a page costs memory
	 * only once written, and any mapping of an offset sees the same
	 * bytes, as two mappings of one BO do on a GPU. */
	vg.mem_fd = memfd_create("hipgrain-vgpu-memory", MFD_CLOEXEC);
	if (vg.mem_fd < 0 || ftruncate(vg.mem_fd, 1ll << 46)) {
		perror("hipgrain: virtual GPU: memory");
		return;
	}
	const char *tree = hg_env_get(HG_ENV_VGPU_SYSFS);
	if (tree && *tree && strlen(tree) < sizeof(vg.sysfs) &&
	    !access(tree, R_OK)) {
		snprintf(vg.sysfs, sizeof(vg.sysfs), "%s", tree);
	} else {
		if (vg_sysfs_make(vg.node, vg.sysfs, sizeof(vg.sysfs))) {
			perror("hipgrain: virtual GPU: topology");
			vg_sysfs_remove(vg.sysfs);
			vg.sysfs[0] = '\0';
			return;
		}
		vg.owner = getpid();
		setenv(hg_env_table[HG_ENV_VGPU_SYSFS].name, vg.sysfs, 1);
		atexit(at_exit);
	}
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	ready = 1;
	vg_log("virtual %s (%s), topology in %s", vg.node->name, vg.prof->gfx, vg.sysfs);
}

/* Making the tree reads /proc/modules through the shim's own fopen: the
 * thread starting the device must not wait for itself. */
static __thread int starting;

static void start_once(void)
{
	starting = 1;
	start();
	starting = 0;
}

int vg_init(void)
{
	if (starting)
		return -EBUSY;
	pthread_once(&once, start_once);
	return ready ? 0 : -ENODEV;
}
