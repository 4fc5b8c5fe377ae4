/* SPDX-License-Identifier: MIT */
/*
 * Kernels run on the interpreter (exec/).  The device lends it memory as
 * the driver holds it: a buffer object's bytes with its flags (COHERENT
 * and UNCACHED mapped fine-grained, VRAM or system memory by domain); a
 * registered SVM range with its attributes; and, with XNACK on, any page
 * of the process, as a GPU that retries its faults reaches system memory.
 * What the interpreter cannot do is said on stderr once per kernel and
 * the dispatch retires unexecuted: never a silently wrong result.
 */
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

#include "hg_env.h"
#include "vg.h"
#include "vg_exec.h"
#include "vx.h"

/* Whether the process can read the page: the interpreter must not crash
 * its host on an address no kernel could reach. */
static int readable(uint64_t va)
{
	char byte;
	struct iovec local = { &byte, 1 }, remote = { (void *)(uintptr_t)va, 1 };
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

static int page(void *ctx, uint64_t va, struct vx_page *out)
{
	struct vg_bo b;
	(void)ctx;
	if (!vg_mem_bo_at(va, &b)) {
		out->host = (uint8_t *)b.host + (va - b.va);
		out->kind = (b.flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) ? VX_VRAM : VX_HOST;
		if (b.flags & (KFD_IOC_ALLOC_MEM_FLAGS_COHERENT | KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED))
			out->kind |= VX_FINE;
		return 0;
	}
	uint32_t flags, where;
	int known = vg_svm_lookup(va, &flags, &where);
	if ((!known && !vg.xnack) || !readable(va))
		return -1;
	out->host = (uint8_t *)(uintptr_t)va;
	out->kind = (where ? VX_VRAM : VX_HOST) |
		    (!known || (flags & KFD_IOCTL_SVM_FLAG_COHERENT) ? VX_FINE : 0);
	return 0;
}

static int enabled(void)
{
	static int on = -1;
	if (on < 0)
		on = hg_env_get_ull(HG_ENV_VGPU_EXEC, 0, 1) != 0;
	return on;
}

static void say(const struct vx_result *r, const struct vg_dispatch *d)
{
	char name[160];
	if (vg_kernel_name(d->kernel_object, name, sizeof(name)))
		snprintf(name, sizeof(name), "at 0x%llx", (unsigned long long)d->kernel_object);
	switch (r->status) {
	case VX_UNKNOWN:
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s not executed: the interpreter"
			" lacks %s (0x%08x at 0x%llx)\n", name, r->what, r->word,
			(unsigned long long)r->pc);
		break;
	case VX_FAULT:
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s stopped: memory access fault"
			" at 0x%llx (%s, XNACK %s)\n", name, (unsigned long long)r->fault_va,
			r->fault_write ? "write" : "read", vg.xnack ? "on" : "off");
		break;
	case VX_BAD_CODE:
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s not executed: its code cannot"
			" be read at 0x%llx\n", name, (unsigned long long)r->pc);
		break;
	case VX_NOMEM:
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s not executed: out of memory\n",
			name);
		break;
	default:
		break;
	}
}

void vg_exec_dispatch(const struct vg_dispatch *d, uint64_t queue_va)
{
	if (!enabled() || !d->kernel_object)
		return;
	struct vx_device dev = {
		.fam = isa_family_of(vg.prof->gfx),
		.page = page,
		.shared_base = VG_LDS_BASE,
		.private_base = VG_SCRATCH_BASE,
		.host_link_atomics = vg.prof->hive_id != 0 || vg.prof->apu,
	};
	struct vx_launch l = {
		.kd_va = d->kernel_object, .kernarg_va = d->kernarg_address,
		.packet_va = d->packet_va, .queue_va = queue_va,
		.grid = { d->grid_size[0], d->grid_size[1], d->grid_size[2] },
		.wg = { d->workgroup_size[0], d->workgroup_size[1], d->workgroup_size[2] },
		.group_segment_size = d->group_segment_size,
		.private_segment_size = d->private_segment_size,
	};
	struct vx_result r;
	vx_run(&dev, &l, &r);
	vg_log("kernel 0x%llx ran: status %d, %llu wave-instructions, %u drop rows",
	       (unsigned long long)d->kernel_object, r.status, (unsigned long long)r.insns,
	       r.ndrops);
	if (r.status != VX_DONE)
		say(&r, d);
}
