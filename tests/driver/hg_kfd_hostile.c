/* SPDX-License-Identifier: MIT */
/*
 * The driver front end under what a program may do to it, on the virtual
 * GPU: ioctls on /dev/kfd with a NULL argument (forwarded, the driver's
 * error returned with errno intact), a shared-memory prefetch that the
 * driver reports as a migration, a fork whose child opens the driver
 * again and migrates its own range, a chain of processes each forked just
 * after its parent's first migration (while the SMI reader thread may be
 * draining it), and an exec while the SMI reader thread is
 * running.  Prints one line per step; exits 0 when every call
 * answered as the driver would.
 *
 * usage: hg-kfd-hostile [exec]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

/* The processes of the chain of forks. */
#define FORKS 24

static int fails;

static void expect(int cond, const char *what)
{
	printf("%s: %s\n", cond ? "ok" : "FAILED", what);
	fails += !cond;
}

/* The GPU's id, as the runtime learns it: the count, then the array. */
static unsigned gpu_of(int kfd)
{
	struct kfd_process_device_apertures ap[4];
	struct kfd_ioctl_get_process_apertures_new_args a = { 0 };
	if (ioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &a) || !a.num_of_nodes)
		return 0;
	a.kfd_process_device_apertures_ptr = (unsigned long long)(uintptr_t)ap;
	a.num_of_nodes = 4;
	if (ioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &a))
		return 0;
	return ap[0].gpu_id;
}

/* Prefetch [p, p+size) to the GPU: the driver migrates it. */
static int prefetch(int kfd, void *p, size_t size, unsigned gpu)
{
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute attr[1];
	} s = { { (unsigned long long)(uintptr_t)p, size, KFD_IOCTL_SVM_OP_SET_ATTR, 1 },
		{ { KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, gpu } } };
	/* As the thunk calls it: the attributes' size is in the command. */
	return ioctl(kfd, AMDKFD_IOC_SVM + (sizeof(s.attr) << _IOC_SIZESHIFT), &s);
}

static void nulls(int kfd)
{
	errno = 0;
	int rc = ioctl(kfd, AMDKFD_IOC_GET_VERSION, NULL);
	expect(rc == -1 && errno == EFAULT, "GET_VERSION with a NULL argument: EFAULT");
	errno = 0;
	rc = ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, NULL);
	expect(rc == -1 && errno == EFAULT, "ALLOC_MEMORY_OF_GPU with a NULL argument: EFAULT");
	errno = 0;
	rc = ioctl(kfd, AMDKFD_IOC_SVM, NULL);
	expect(rc == -1 && errno == EFAULT, "SVM with a NULL argument: EFAULT");
}

static int forked_ok(pid_t pid)
{
	int st = 0;
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0;
}

/* A chain of processes, each forked just after its parent's first
 * migration, while the parent's new reader thread may still be draining
 * it: each opens the driver, gets its own reader, migrates its own range
 * and forks the next. */
static void chain(void *range, size_t size, int left)
{
	for (;; left--) {
		int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		unsigned gpu = kfd >= 0 ? gpu_of(kfd) : 0;
		if (!gpu || prefetch(kfd, range, size, gpu))
			_exit(1);
		pid_t pid = left ? fork() : 0;
		if (!left || pid != 0)
			_exit(!left || forked_ok(pid) ? 0 : 1);
	}
}

static void child(void *range, size_t size)
{
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	unsigned gpu = kfd >= 0 ? gpu_of(kfd) : 0;
	int rc = gpu ? prefetch(kfd, range, size, gpu) : -1;
	_exit(rc == 0 ? 0 : 1);
}

int main(int argc, char **argv)
{
	size_t size = 1 << 20;
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	expect(kfd >= 0, "/dev/kfd opens");
	if (kfd < 0)
		return 1;
	nulls(kfd);
	unsigned gpu = gpu_of(kfd);
	expect(gpu != 0, "the driver names a GPU");
	void *range = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect(range != MAP_FAILED, "a range to migrate");
	expect(prefetch(kfd, range, size, gpu) == 0, "prefetch to the GPU");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		child((char *)range + size, size);
	expect(forked_ok(pid),
	       "a forked child opens the driver and migrates its own range");
	expect(prefetch(kfd, range, size, 0) == 0, "prefetch back to system memory");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		chain((char *)range + size, size, FORKS - 1);
	char what[96];
	snprintf(what, sizeof(what),
		 "a chain of %d processes, each forked just after a migration, open the driver",
		 FORKS);
	expect(forked_ok(pid), what);
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "exec") && !fails) {
		/* The reader thread is blocked on the SMI file right now. */
		execl("/bin/sh", "sh", "-c", "echo ok: exec while the reader runs", (char *)NULL);
		expect(0, "exec");
	}
	return fails ? 1 : 0;
}
