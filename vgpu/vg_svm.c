/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory attributes (AMDKFD_IOC_SVM) and the SMI event
 * file.  Set attributes are accepted; a query answers the driver's
 * defaults.  (Migrations and their SMI events come with the driver front
 * end.)
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

#include "vg.h"

static uint32_t dflt(uint32_t type, uint32_t value)
{
	switch (type) {
	case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
	case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
		return KFD_IOCTL_SVM_LOCATION_UNDEFINED;
	case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
		return KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT;
	case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
		return 0;
	case KFD_IOCTL_SVM_ATTR_GRANULARITY:
		return 9;
	}
	return value;
}

int vg_svm(void *p)
{
	struct kfd_ioctl_svm_args *a = p;
	if (!a->size || (a->start_addr | a->size) & 4095)
		return -EINVAL;
	if (a->op == KFD_IOCTL_SVM_OP_GET_ATTR)
		for (uint32_t i = 0; i < a->nattr; i++) {
			if (a->attrs[i].type == KFD_IOCTL_SVM_ATTR_ACCESS)
				continue;
			a->attrs[i].value = dflt(a->attrs[i].type, a->attrs[i].value);
		}
	return a->op <= KFD_IOCTL_SVM_OP_GET_ATTR ? 0 : -EINVAL;
}

int vg_smi_open(void *p)
{
	struct kfd_ioctl_smi_events_args *a = p;
	int sv[2];
	if (a->gpuid != VG_GPU_ID)
		return -EINVAL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	close(sv[1]);
	a->anon_fd = (uint32_t)sv[0];
	return 0;
}
