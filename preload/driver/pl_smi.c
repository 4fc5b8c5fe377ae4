/* SPDX-License-Identifier: MIT */
/*
 * The driver's SMI event file, one per GPU, read by a thread of ours:
 * every migration (and its trigger), page fault, queue eviction and
 * restore, and unmap the driver reports for this process becomes a
 * kfd_smi event.  The driver keeps a small buffer per file, so the
 * thread reads as soon as lines arrive; after each SVM call of the
 * runtime's, and at exit, the files are drained once more in the calling
 * thread, so that a migration the call caused is read even when the
 * program then execs or ends with _exit.
 * A forked child reads its own files, opened when its runtime opens the
 * driver again; the parent's stay the parent's.  The reader may hold the
 * lock at the fork, and it is not in the child to release it: the child
 * starts with a fresh lock and none of its parent's files.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

#include "kd_smi.h"
#include "pl_boot.h"
#include "pl_kfd.h"
#include "pl_smi.h"
#include "reg.h"

#define PL_SMI_GPUS 16

struct smi_file {
	int fd;
	uint32_t gpu_id;
	struct kd_smi_reader rd;
};

static struct smi_file files[PL_SMI_GPUS];
static unsigned nfiles;
static pid_t owner; /* the process the files were opened for */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* What a migration audit needs, nothing that fires by the thousand
 * without being about memory. */
static const int kinds[] = {
	KFD_SMI_EVENT_VMFAULT, KFD_SMI_EVENT_MIGRATE_START,
	KFD_SMI_EVENT_MIGRATE_END, KFD_SMI_EVENT_PAGE_FAULT_START,
	KFD_SMI_EVENT_PAGE_FAULT_END, KFD_SMI_EVENT_QUEUE_EVICTION,
	KFD_SMI_EVENT_QUEUE_RESTORE, KFD_SMI_EVENT_UNMAP_FROM_GPU,
};

static void on_line(void *arg, const char *line, size_t len, int rc,
		    const struct kd_smi_event *ev)
{
	const struct smi_file *f = arg;

	if (rc || (ev->pid && ev->pid != getpid()))
		return;
	struct hg_tp_kfd_smi e = {
		.addr = ev->addr, .size = ev->size, .ns = ev->ns,
		.from = ev->from, .to = ev->to,
		.node = ev->node ? ev->node : f->gpu_id,
		.trigger = ev->trigger, .error = ev->error,
		.kind = (uint8_t)ev->kind, .rw = (uint8_t)ev->rw,
	};
	reg_emit_kfd_smi(&e);
}

/* Whatever the file holds now; 0 when it is closed or failed. */
static int drain(struct smi_file *f)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(f->fd, buf, sizeof(buf))) > 0)
		kd_smi_reader_feed(&f->rd, buf, (size_t)n);
	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

void pl_smi_drain(void)
{
	if (owner != getpid())
		return;
	PL_NESTED();
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nfiles; i++)
		if (files[i].fd >= 0 && !drain(&files[i])) {
			close(files[i].fd);
			files[i].fd = -1;
		}
	pthread_mutex_unlock(&lock);
}

static void *reader(void *unused)
{
	struct pollfd p[PL_SMI_GPUS];

	pl_depth++; /* nothing this thread allocates is the program's */
	for (;;) {
		unsigned n = 0;
		pthread_mutex_lock(&lock);
		for (unsigned i = 0; i < nfiles; i++)
			if (files[i].fd >= 0)
				p[n++] = (struct pollfd){ files[i].fd, POLLIN, 0 };
		pthread_mutex_unlock(&lock);
		if (!n || (poll(p, n, -1) < 0 && errno != EINTR))
			return NULL;
		pl_smi_drain();
	}
}

/* A write that cannot raise SIGPIPE in the program, whatever the file is
 * (the driver's never would; a stand-in's socket might). */
static int put_mask(int fd, uint64_t mask)
{
	ssize_t n = send(fd, &mask, sizeof(mask), MSG_NOSIGNAL);
	if (n < 0 && errno == ENOTSOCK)
		n = write(fd, &mask, sizeof(mask));
	return n == (ssize_t)sizeof(mask) ? 0 : -1;
}

static int open_file(int kfd_fd, uint32_t gpu_id, struct smi_file *f)
{
	struct kfd_ioctl_smi_events_args a = { .gpuid = gpu_id };
	uint64_t mask = 0;

	if (pl_kfd_real_ioctl(kfd_fd, AMDKFD_IOC_SMI_EVENTS, &a) < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		mask |= KFD_SMI_EVENT_MASK_FROM_INDEX(kinds[i]);
	if (put_mask((int)a.anon_fd, mask) < 0) {
		int rc = -errno;
		close((int)a.anon_fd);
		return rc;
	}
	f->fd = (int)a.anon_fd;
	f->gpu_id = gpu_id;
	kd_smi_reader_init(&f->rd, on_line, f);
	return 0;
}

/* Closed past every close hook: a preload's may take locks that are not
 * the child's yet.  The parent's files stay open in the parent. */
static void forget_in_child(void)
{
	pthread_mutex_init(&lock, NULL);
	for (unsigned i = 0; i < nfiles; i++)
		if (files[i].fd >= 0)
			syscall(SYS_close, files[i].fd);
	nfiles = 0;
	owner = 0;
}

static void install_fork(void)
{
	pthread_atfork(NULL, NULL, forget_in_child);
}

void pl_smi_start(int kfd_fd, const uint32_t *gpu_ids, unsigned n)
{
	static pid_t atexit_for;
	static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
	pthread_t t;

	pthread_once(&fork_once, install_fork);
	pthread_mutex_lock(&lock);
	if (owner == getpid()) {
		pthread_mutex_unlock(&lock);
		return;
	}
	owner = getpid();
	nfiles = 0;
	for (unsigned i = 0; i < n && nfiles < PL_SMI_GPUS; i++) {
		int rc = open_file(kfd_fd, gpu_ids[i], &files[nfiles]);
		reg_emit_kfd_smi_open(gpu_ids[i], rc);
		if (!rc) {
			fcntl(files[nfiles].fd, F_SETFL, O_NONBLOCK);
			nfiles++;
		}
	}
	pthread_mutex_unlock(&lock);
	if (!nfiles)
		return;
	if (atexit_for != getpid() && !atexit(pl_smi_drain))
		atexit_for = getpid();
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &a, reader, NULL);
	pthread_attr_destroy(&a);
}
