/* SPDX-License-Identifier: MIT */
#include "hg_os.h"

#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

void *hg_os_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void hg_os_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

/* Ask the kernel to let this process make every one of its running threads
 * pass a full memory barrier on demand; false where it cannot. */
bool hg_os_barrier_register(void)
{
	return syscall(__NR_membarrier,
		       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

bool hg_os_barrier(void)
{
	return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0,
		       0) == 0;
}
