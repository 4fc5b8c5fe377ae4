/* SPDX-License-Identifier: MIT */
/*
 * What each /dev/kfd call told the driver, recorded after the driver
 * answered: a buffer's flags (its granularity), its free, SVM attributes,
 * the XNACK mode; at the driver's version, its topology.  The GPU ids the runtime learns from its apertures start
 * the SMI reader.  The arguments are the runtime's own memory, read only
 * when the call succeeded or the field is the runtime's input.
 */
#include <linux/kfd_ioctl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pl_boot.h"
#include "pl_kfd.h"
#include "pl_topo.h"
#include "pl_smi.h"
#include "reg.h"

/* SVM attributes kept per event; a runtime sets a handful at a time. */
#define PL_SVM_ATTRS 32

static void alloc(const struct kfd_ioctl_alloc_memory_of_gpu_args *a, int rc)
{
	struct hg_tp_kfd_alloc e = {
		.va = a->va_addr,
		.size = a->size,
		.handle = rc ? 0 : a->handle,
		.cpu = (a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) ? a->mmap_offset : 0,
		.flags = a->flags,
		.gpu_id = a->gpu_id,
		.rc = rc,
	};
	reg_emit_kfd_alloc(&e);
}

static void svm(const struct kfd_ioctl_svm_args *a, int rc)
{
	uint32_t flat[2 * PL_SVM_ATTRS];
	uint32_t n = a->nattr < PL_SVM_ATTRS ? a->nattr : PL_SVM_ATTRS;

	if (a->op != KFD_IOCTL_SVM_OP_SET_ATTR)
		return; /* queries change nothing */
	for (uint32_t i = 0; i < n; i++) {
		flat[2 * i] = a->attrs[i].type;
		flat[2 * i + 1] = a->attrs[i].value;
	}
	reg_emit_kfd_svm(a->start_addr, a->size, (uint8_t)a->op, flat,
			 (uint16_t)(2 * n), rc);
}

static void apertures(int fd, const struct kfd_ioctl_get_process_apertures_new_args *a)
{
	const struct kfd_process_device_apertures *d =
		(const void *)(uintptr_t)a->kfd_process_device_apertures_ptr;
	uint32_t ids[16];
	unsigned n = 0;

	if (!d)
		return; /* the count query; the array comes next */
	for (uint32_t i = 0; i < a->num_of_nodes && n < 16; i++)
		ids[n++] = d[i].gpu_id;
	pl_smi_start(fd, ids, n);
}

/* The topology once per process: its first answer of the version. */
static void version(const struct kfd_ioctl_get_version_args *a)
{
	static pid_t done;
	pid_t me = getpid();
	if (__atomic_exchange_n(&done, me, __ATOMIC_RELAXED) != me)
		pl_topo_record(a->major_version, a->minor_version);
}

int64_t pl_kfd_before(unsigned long req, const void *arg)
{
	if (arg && _IOC_NR(req) == _IOC_NR(AMDKFD_IOC_SET_XNACK_MODE))
		return ((const struct kfd_ioctl_set_xnack_mode_args *)arg)->xnack_enabled;
	return 0;
}

void pl_kfd_record(int fd, unsigned long req, void *arg, int rc, int64_t before)
{
	if (!pl_enabled || !arg)
		return;
	PL_NESTED();
	switch (_IOC_NR(req)) {
	case _IOC_NR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU):
		alloc(arg, rc);
		break;
	case _IOC_NR(AMDKFD_IOC_FREE_MEMORY_OF_GPU):
		reg_emit_kfd_free(((struct kfd_ioctl_free_memory_of_gpu_args *)arg)->handle, rc);
		break;
	case _IOC_NR(AMDKFD_IOC_SVM):
		svm(arg, rc);
		pl_smi_drain();
		break;
	case _IOC_NR(AMDKFD_IOC_SET_XNACK_MODE): {
		int32_t now = ((struct kfd_ioctl_set_xnack_mode_args *)arg)->xnack_enabled;
		reg_emit_kfd_xnack((int32_t)before, rc ? -1 : now, rc);
		break;
	}
	case _IOC_NR(AMDKFD_IOC_GET_VERSION):
		if (!rc)
			version(arg);
		break;
	case _IOC_NR(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW):
		if (!rc)
			apertures(fd, arg);
		break;
	}
}
