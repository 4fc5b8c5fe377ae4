/* SPDX-License-Identifier: MIT */
/*
 * The range the driver makes when a GPU faults under XNACK on memory no
 * range holds (kfd_svm.c, svm_range_create_unregistered_range): malloc's,
 * the stack's, any mapping the process never told the runtime about.  The
 * range spans the 2 MiB window around the page, cut to the CPU mapping
 * that holds it and to the ranges on either side; it starts with the
 * defaults of any new range (every GPU may access it, under XNACK), and
 * when the mapping is the process's initial heap or stack its preferred
 * location is system memory, so the fault leaves those pages where they
 * are.  Other memory (a large malloc's own mapping, a thread's arena) has
 * no preference and goes to the faulting GPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vg.h"
#include "vg_ranges.h"
#include "vg_svm_int.h"
#include "vg_svm_new.h"

#define WINDOW (2ull << 20)

struct vma {
	uint64_t lo, hi;
	int heap_stack;
};

/* One line of /proc/self/maps: whether it holds va, and then its span and
 * name.  The kernel names the mappings vma_is_initial_heap and
 * vma_is_initial_stack pick "[heap]" and "[stack]". */
static int line_holds(const char *l, uint64_t va, struct vma *out)
{
	char *end;
	uint64_t lo = strtoull(l, &end, 16);
	if (*end != '-')
		return 0;
	uint64_t hi = strtoull(end + 1, &end, 16);
	if (va < lo || va >= hi)
		return 0;
	out->lo = lo;
	out->hi = hi;
	out->heap_stack = strstr(end, " [heap]") || strstr(end, " [stack]");
	return 1;
}

/* The CPU mapping that holds va; -1 when none does. */
static int vma_of(uint64_t va, struct vma *out)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[8192];
	size_t have = 0;
	int found = 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		char *l = buf, *nl;
		while (!found && (nl = strchr(l, '\n'))) {
			*nl = '\0';
			found = line_holds(l, va, out);
			l = nl + 1;
		}
		if (found)
			break;
		have = (size_t)(buf + have - l);
		memmove(buf, l, have);
	}
	close(fd);
	return found ? 0 : -1;
}

int vg_svm_new_range(uint64_t page)
{
	struct vma v;
	if (vma_of(page, &v))
		return -1;
	uint64_t s = page & ~(WINDOW - 1), e = s + WINDOW;
	if (s < v.lo)
		s = v.lo;
	if (e > v.hi)
		e = v.hi;
	vg_ranges_gap(&vg_svm_known, page, &s, &e);
	/* A buffer object in the window (the page itself is in none, or the
	 * fault would not be here) leaves a range of the one page
	 * (svm_range_check_vm). */
	if (vg_mem_overlaps(s, e - s)) {
		s = page;
		e = page + 4096;
	}
	int rc = vg_ranges_flags(&vg_svm_access, s, e, 0, 1, vg_svm_access_default());
	if (!rc && v.heap_stack)
		rc = vg_ranges_set(&vg_svm_preferred, s, e, KFD_IOCTL_SVM_LOCATION_SYSMEM,
				   NULL, NULL);
	if (!rc)
		rc = vg_ranges_set(&vg_svm_known, s, e, 1, NULL, NULL);
	vg_log("gpu fault at 0x%llx: new range 0x%llx-0x%llx%s", (unsigned long long)page,
	       (unsigned long long)s, (unsigned long long)e,
	       v.heap_stack ? ", heap or stack: preferred in system memory" : "");
	return rc ? -1 : 0;
}
