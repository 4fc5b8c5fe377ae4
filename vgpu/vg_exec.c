/* SPDX-License-Identifier: MIT */
/*
 * Kernels run on the interpreter (exec/).  The device lends it memory as
 * the driver holds it: a buffer object's bytes with its flags (COHERENT
 * and UNCACHED mapped fine-grained, VRAM or system memory by domain); a
 * registered SVM range with its attributes, where its access bits name
 * the GPU; and, with XNACK on, any page of the process, placed as the
 * driver's fault handling places it (vg_svm_fault.c).
 * What the interpreter cannot do is said on stderr once per kernel and
 * the dispatch retires unexecuted: never a silently wrong result.  What
 * each dispatch did, including the atomics the product's memory made do
 * nothing, is told to the tracer when it is loaded (hg_observe.h).
 */
#include <dlfcn.h>
#include <sched.h>
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

#include "hg_env.h"
#include "hg_observe.h"
#include "vg.h"
#include "vg_exec.h"
#include "vg_sysfs.h"
#include "vx.h"

/* Whether the process can read the page: the interpreter must not crash
 * its host on an address no kernel could reach. */
static int readable(uint64_t va)
{
	char byte;
	struct iovec local = { &byte, 1 }, remote = { (void *)(uintptr_t)va, 1 };
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

/* ctx: the faulting GPU's id. */
static int page(void *ctx, uint64_t va, int write, struct vx_page *out)
{
	struct vg_bo b;
	uint32_t flags, where, gpu = (uint32_t)(uintptr_t)ctx;
	if (!vg_mem_bo_at(va, &b)) {
		out->host = (uint8_t *)b.host + (va - b.va);
		out->region = b.va;
		/* A handle's high half is the GPU that made it (vg_mem_alloc). */
		out->kind = VX_HOST;
		if (b.flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
			out->kind = (uint32_t)(b.handle >> 32) == gpu ? VX_VRAM : VX_VRAM | VX_PEER;
		if (b.flags & (KFD_IOC_ALLOC_MEM_FLAGS_COHERENT | KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED))
			out->kind |= VX_FINE;
		return 0;
	}
	int known = vg_svm_lookup(va, &flags, &where);
	if (!readable(va))
		return -1;
	/* Under XNACK the first touch of a block is a retry fault the driver
	 * mends, placing the block where it belongs.  Without it the GPU
	 * holds only what the driver mapped when the attributes were set:
	 * the ranges whose access bits name it (svm_range_validate_and_map). */
	if (vg.xnack) {
		if (vg_svm_gpu_fault(va, write, gpu))
			return -1;
		known = vg_svm_lookup(va, &flags, &where);
	} else if (!known || !vg_svm_gpu_may_access(va & ~4095ull, (va & ~4095ull) + 4096, gpu)) {
		return -1;
	}
	out->host = (uint8_t *)(uintptr_t)va;
	out->region = 0;
	out->kind = (where ? VX_VRAM : VX_HOST) |
		    (!known || (flags & KFD_IOCTL_SVM_FLAG_COHERENT) ? VX_FINE : 0);
	return 0;
}

/* The CPUs the process may run on, unless the user says how many. */
static unsigned threads(void)
{
	static unsigned n;
	if (!n) {
		unsigned want = (unsigned)hg_env_get_ull(HG_ENV_VGPU_THREADS, 0, 4096);
		cpu_set_t set;
		if (!want)
			want = !sched_getaffinity(0, sizeof(set), &set) ? (unsigned)CPU_COUNT(&set) : 1;
		__atomic_store_n(&n, want ? want : 1, __ATOMIC_RELAXED);
	}
	return n;
}

/* s_sendmsg(MSG_INTERRUPT): the hostcall path (printf) wakes the
 * runtime's listener through the event the kernel names. */
static int interrupt(void *ctx, uint32_t m0)
{
	(void)ctx;
	vg_event_interrupt(m0);
	return 0;
}

/* The race check between a work-group's waves: on unless the user says
 * otherwise (it costs every LDS and global access a look-up). */
static int races(void)
{
	static int on = -1;
	if (on < 0)
		on = hg_env_get_ull(HG_ENV_VGPU_RACES, 0, 1) != 0;
	return on;
}

/* Wave-instructions a kernel may run on one interpreter thread: a card
 * has no such end, but a kernel spinning on a line its L2 holds stale
 * would spin for ever here as there. */
static uint64_t budget(void)
{
	static uint64_t n = UINT64_MAX;
	if (n == UINT64_MAX)
		n = hg_env_get_ull(HG_ENV_VGPU_BUDGET, 0, UINT64_MAX - 1);
	return n;
}

static enum isa_family family(void)
{
	return isa_family_of(vg.prof->gfx);
}

static int enabled(void)
{
	static int on = -1;
	if (on < 0)
		on = hg_env_get_ull(HG_ENV_VGPU_EXEC, 0, 1) != 0;
	return on;
}

static void say(const struct vx_result *r, const char *name)
{
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
	case VX_BUDGET:
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s stopped after %llu"
			" wave-instructions, its budget on the virtual GPU (HIPGRAIN_VGPU_BUDGET=N"
			" raises it, 0 for none): it may be waiting for memory it never sees"
			" change%s\n", name, (unsigned long long)r->insns,
			r->nunwritten ? ", or for an answer to what it stored to coarse-grained"
					" memory, which was still in the GPU's L2" : "");
		break;
	case VX_TOO_LARGE:
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s not executed: its work-group"
			" asks for %s, more than the hardware has\n", name, r->what);
		break;
	default:
		break;
	}
}

static enum hg_exec_status status_of(enum vx_status s)
{
	switch (s) {
	case VX_DONE: return HG_EXEC_DONE;
	case VX_UNKNOWN: return HG_EXEC_UNKNOWN;
	case VX_FAULT: return HG_EXEC_FAULT;
	case VX_BAD_CODE: return HG_EXEC_BAD_CODE;
	case VX_TOO_LARGE: return HG_EXEC_TOO_LARGE;
	case VX_BUDGET: return HG_EXEC_BUDGET;
	default: return HG_EXEC_NOMEM;
	}
}

/* The tracer, when it is in the process: resolved once, never unloaded
 * (the preload stays until exit). */
static hg_observe_fn observer(void)
{
	static hg_observe_fn fn;
	static int looked;
	if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
		fn = (hg_observe_fn)(uintptr_t)dlsym(RTLD_DEFAULT, HG_OBSERVE_FN);
		__atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
	}
	return fn;
}

/* The tracer's name for memory in no buffer object (hg_observe.h). */
static uint64_t block(void *ctx, uint64_t va)
{
	static hg_block_fn fn;
	static int looked;
	(void)ctx;
	if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
		fn = (hg_block_fn)(uintptr_t)dlsym(RTLD_DEFAULT, HG_OBSERVE_BLOCK_FN);
		__atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
	}
	return fn ? fn(va) : 0;
}

/* Addresses in the trace are counted from the code object's start, as
 * `hipgrain scan` and the kernel's atomic sites count them. */
static uint64_t code_off(uint64_t pc, uint64_t image_va)
{
	return image_va && pc >= image_va ? pc - image_va : pc;
}

/* The rows of what the L2 model saw: reads it served stale, and stores
 * a dispatch cut short left in it. */
static void l2_rows(const struct vx_result *r, uint64_t image_va,
		    struct hg_observed_stale *stales, struct hg_observed_unwritten *unwritten)
{
	for (unsigned i = 0; i < r->nstales; i++) {
		const struct vx_l2row *x = &r->stales[i];
		stales[i] = (struct hg_observed_stale){ .code_off = code_off(x->pc, image_va),
			.lo = x->lo, .hi = x->hi, .count = x->count, .region = x->region };
	}
	for (unsigned i = 0; i < r->nunwritten; i++) {
		const struct vx_l2row *x = &r->unwritten[i];
		unwritten[i] = (struct hg_observed_unwritten){
			.code_off = code_off(x->pc, image_va), .lo = x->lo, .hi = x->hi,
			.count = x->count, .region = x->region };
	}
}

static void tell(const struct vx_result *r, const struct vg_dispatch *d,
		 const char *name, uint64_t image_va)
{
	hg_observe_fn fn = observer();
	if (!fn)
		return;
	struct hg_observed_drop rows[VX_DROPS];
	for (unsigned i = 0; i < r->ndrops; i++) {
		const struct vx_drop *x = &r->drops[i];
		rows[i] = (struct hg_observed_drop){
			.code_off = code_off(x->pc, image_va), .lo = x->lo, .hi = x->hi,
			.count = x->count, .op = isa_name(family(), x->fmt, x->op),
			.kind = (x->kind & VX_FINE ? HG_OBS_FINE : 0) |
				(x->kind & VX_HOST ? HG_OBS_HOST : 0) |
				(x->kind & VX_VRAM ? HG_OBS_VRAM : 0),
		};
	}
	struct hg_observed_traffic moved[VX_TRAFFIC + 1];
	for (unsigned i = 0; i <= r->ntraffic; i++) {
		const struct vx_traffic *x = i < r->ntraffic ? &r->traffic[i] : &r->traffic_more;
		moved[i] = (struct hg_observed_traffic){ .region = x->region, .lo = x->lo,
			.hi = x->hi, .read = x->read, .written = x->written };
	}
	struct hg_observed_race races[VX_RACES];
	for (unsigned i = 0; i < r->nraces; i++) {
		const struct vx_race *x = &r->races[i];
		races[i] = (struct hg_observed_race){
			.code_off = { code_off(x->pc[0], image_va), code_off(x->pc[1], image_va) },
			.lo = x->lo, .hi = x->hi, .count = x->count,
			.cls = { x->cls[0], x->cls[1] }, .lds = x->lds,
		};
	}
	struct hg_observed_stale stales[VX_STALES];
	struct hg_observed_unwritten unwritten[VX_UNWRITTEN];
	l2_rows(r, image_va, stales, unwritten);
	char what[48];
	snprintf(what, sizeof(what), "%llu", (unsigned long long)budget());
	struct hg_observed o = {
		.size = sizeof(o), .kd = d->kernel_object, .kernel = name,
		.status = status_of(r->status),
		.what = r->status == VX_BUDGET ? what : r->what,
		.code_off = code_off(r->pc, image_va), .fault_va = r->fault_va,
		.fault_write = r->fault_write, .insns = r->insns,
		.drops = rows, .ndrops = r->ndrops, .drops_lost = r->drops_lost,
		.traffic = moved, .ntraffic = r->ntraffic, .traffic_more = moved[r->ntraffic],
		.races = races, .nraces = r->nraces, .races_lost = r->races_lost,
		.stales = stales, .nstales = r->nstales, .stales_lost = r->stales_lost,
		.unwritten = unwritten, .nunwritten = r->nunwritten,
		.unwritten_lost = r->unwritten_lost,
	};
	fn(&o);
}

/*
 * A fault no retry can mend, as amdkfd meets one (kfd_int_process_v9.c,
 * kfd_events.c): the SMI file's vmfault line, the process's queues
 * evicted, and every memory event set with the faulting page, on which
 * the runtime reports "Memory access fault by GPU" and aborts.  A process
 * whose runtime made no memory event has no one listening: its dispatch
 * retires rather than hang the program (doc/testing.md).
 */
static int fatal(const struct vx_result *r, uint32_t gpu_id)
{
	struct kfd_hsa_memory_exception_data m = {
		.failure = { .NotPresent = 1 },
		.va = r->fault_va & ~(uint64_t)(VX_PAGE - 1),
		.gpu_id = gpu_id,
	};
	vg_smi_vmfault(gpu_id);
	if (!vg_event_memory_fault(&m))
		return 0;
	__atomic_store_n(&vg.halted, 1, __ATOMIC_RELEASE);
	return 1;
}

int vg_exec_dispatch(const struct vg_dispatch *d, uint64_t queue_va)
{
	if (!enabled() || !d->kernel_object)
		return 1;
	struct vx_device dev = {
		.fam = family(),
		.page = page,
		.interrupt = interrupt,
		.ctx = (void *)(uintptr_t)d->gpu_id,
		.shared_base = VG_LDS_BASE,
		.private_base = VG_SCRATCH_BASE,
		.threads = threads(),
		.block = block,
		.races = races(),
	};
	vg_node_facts_of(vg.node, &dev.facts);
	struct vx_launch l = {
		.kd_va = d->kernel_object, .kernarg_va = d->kernarg_address,
		.packet_va = d->packet_va, .queue_va = queue_va,
		.grid = { d->grid_size[0], d->grid_size[1], d->grid_size[2] },
		.wg = { d->workgroup_size[0], d->workgroup_size[1], d->workgroup_size[2] },
		.group_segment_size = d->group_segment_size,
		.private_segment_size = d->private_segment_size,
		.budget = budget(),
	};
	struct vx_result r;
	vx_run(&dev, &l, &r);
	vg_log("kernel 0x%llx ran: status %d, %llu wave-instructions in %llu us of CPU,"
	       " %u drop rows, %u race rows, %u stale rows, %u unwritten rows",
	       (unsigned long long)d->kernel_object, r.status,
	       (unsigned long long)r.insns, (unsigned long long)(r.cpu_ns / 1000), r.ndrops,
	       r.nraces, r.nstales, r.nunwritten);
	char name[160];
	uint64_t image_va;
	int named = !vg_kernel_name(d->kernel_object, name, sizeof(name), &image_va);
	tell(&r, d, named ? name : "", image_va);
	if (r.races_unchecked)
		fprintf(stderr, "hipgrain: virtual GPU: kernel %s: %llu accesses to global memory"
			" went unchecked for races: a work-group touched more memory between two"
			" barriers than the check holds (doc/testing.md)\n",
			named ? name : "(unnamed)", (unsigned long long)r.races_unchecked);
	if (r.status == VX_DONE)
		return 1;
	if (!named)
		snprintf(name, sizeof(name), "at 0x%llx", (unsigned long long)d->kernel_object);
	say(&r, name);
	return r.status != VX_FAULT || !fatal(&r, d->gpu_id);
}
