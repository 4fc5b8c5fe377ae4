/* SPDX-License-Identifier: MIT */
/*
 * The SMI event files.  AMDKFD_IOC_SMI_EVENTS gives the process one end of
 * a socket pair; the device keeps the other, reads the event mask the
 * process writes to it, and writes lines in the driver's own format
 * (kfd/kd_smi.h) for the kinds the mask asks for.  A line that finds the
 * file full is dropped, as the driver drops one that finds its fifo full.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

#include "kd_smi.h"
#include "vg_sysfs.h"
#include "vg.h"

#define VG_SMI_FILES 16

struct smi_file {
	int dev;	/* the device's end */
	uint64_t mask;
};

static struct smi_file files[VG_SMI_FILES];
static unsigned nfiles;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int vg_smi_open(void *p)
{
	struct kfd_ioctl_smi_events_args *a = p;
	int sv[2];

	if (a->gpuid != VG_GPU_ID)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (nfiles == VG_SMI_FILES) {
		pthread_mutex_unlock(&lock);
		return -EMFILE;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv)) {
		pthread_mutex_unlock(&lock);
		return -errno;
	}
	files[nfiles++] = (struct smi_file){ sv[1], 0 };
	pthread_mutex_unlock(&lock);
	/* The process's end never blocks on read: the driver's file answers
	 * -EAGAIN when it holds nothing (kfd_smi_events.c, kfd_smi_ev_read);
	 * a reader waits in poll. */
	a->anon_fd = (uint32_t)sv[0];
	return 0;
}

/* The newest mask the process wrote, if any. */
static void refresh(struct smi_file *f)
{
	uint64_t m;
	while (recv(f->dev, &m, sizeof(m), MSG_DONTWAIT) == (ssize_t)sizeof(m))
		f->mask = m;
}

static void emit(const struct kd_smi_event *ev)
{
	char line[KD_SMI_LINE_MAX];
	size_t n = kd_smi_format(ev, line, sizeof(line));
	if (!n || n >= sizeof(line))
		return;
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nfiles; i++) {
		refresh(&files[i]);
		if (files[i].mask & KFD_SMI_EVENT_MASK_FROM_INDEX(ev->kind))
			send(files[i].dev, line, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	}
	pthread_mutex_unlock(&lock);
}

static uint64_t boot_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void vg_smi_vmfault(void)
{
	struct kd_smi_event ev = { .kind = KFD_SMI_EVENT_VMFAULT, .pid = (int32_t)getpid() };
	/* The driver names the task as the kernel knows it (comm). */
	if (prctl(PR_GET_NAME, ev.text) != 0)
		ev.text[0] = '\0';
	ev.text[sizeof(ev.text) - 1] = '\0';
	emit(&ev);
}

void vg_smi_page_fault(uint64_t addr, int end, char rw)
{
	struct kd_smi_event ev = {
		.kind = end ? KFD_SMI_EVENT_PAGE_FAULT_END : KFD_SMI_EVENT_PAGE_FAULT_START,
		.ns = boot_ns(), .pid = (int32_t)getpid(), .addr = addr & ~4095ull,
		.node = VG_GPU_ID, .rw = rw,
	};
	emit(&ev);
}

void vg_smi_migrate(uint64_t start, uint64_t size, uint32_t from, uint32_t to,
		    int trigger)
{
	struct kd_smi_event ev = {
		.kind = KFD_SMI_EVENT_MIGRATE_START, .ns = boot_ns(),
		.pid = (int32_t)getpid(), .addr = start, .size = size,
		.from = from, .to = to, .node = VG_GPU_ID, .trigger = trigger,
		.prefetch_loc = to, .preferred_loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED,
	};
	vg_log("migrate 0x%llx+0x%llx %u->%u trigger %d", (unsigned long long)start,
	       (unsigned long long)size, from, to, trigger);
	emit(&ev);
	ev.kind = KFD_SMI_EVENT_MIGRATE_END;
	ev.ns = boot_ns();
	emit(&ev);
}

/* Fork: the parent's SMI files are the parent's (the driver writes a
 * process's events only to its own files): the child closes its copies
 * of the device's ends. */
void vg_smi_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		for (unsigned i = 0; i < nfiles; i++) /* past every close hook */
			syscall(SYS_close, files[i].dev);
		nfiles = 0;
	}
	pthread_mutex_unlock(&lock);
}
