/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU's answers against amdkfd's own, call by call, through
 * the library's open, ioctl and mmap (looked up in it: no preload).  Each
 * check names the driver function whose behaviour it states; they were
 * read in the kernel's drivers/gpu/drm/amd/amdkfd (5.15 to 6.12).
 *
 * usage: hg-vgpu-driver LIBHIPGRAIN-VGPU PROFILE[:OPTION,...]
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/kfd_ioctl.h>

#include "tap.h"
#include "vg_sysfs.h"

#define PAGE 4096u
#define SPAN (16 * PAGE)

static int (*vopen)(const char *, int, ...);
static int (*vioctl)(int, unsigned long, void *);
static void *(*vmmap)(void *, size_t, int, int, int, off_t);
static FILE *(*vfopen)(const char *, const char *);
static int kfd, render;
static const char *profile;
/* The product or machine, without the variant's options; and whether the
 * variant booted the driver with retry on. */
static char product[32];
static int retry;

/* -errno of one ioctl, or 0. */
static int call(unsigned long req, void *arg)
{
	return vioctl(kfd, req, arg) ? -errno : 0;
}

static int svm1(uint32_t op, void *p, uint64_t size, uint32_t type, uint32_t value)
{
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[1];
	} s = { .a = { .start_addr = (uintptr_t)p, .size = size, .op = op, .nattr = 1 },
		.at = { { type, value } } };
	/* As the thunk calls it: the attributes' size is in the command. */
	return call(AMDKFD_IOC_SVM + (sizeof(s.at) << _IOC_SIZESHIFT), &s);
}

static int prefetch(void *p, uint64_t size)
{
	return svm1(KFD_IOCTL_SVM_OP_SET_ATTR, p, size, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC,
		    VG_GPU_ID);
}

static int alloc_bo(void *va, uint64_t size, uint32_t flags, uint64_t *offset,
		    uint64_t *handle)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = {
		.va_addr = (uintptr_t)va, .size = size, .mmap_offset = *offset,
		.gpu_id = VG_GPU_ID, .flags = flags,
	};
	int rc = call(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
	*offset = a.mmap_offset;
	*handle = a.handle;
	return rc;
}

static int free_bo(uint64_t handle)
{
	struct kfd_ioctl_free_memory_of_gpu_args a = { .handle = handle };
	return call(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &a);
}

static void *reserve(size_t size)
{
	return vmmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		     -1, 0);
}

static void *anon(size_t size)
{
	return vmmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
}

/* kfd_svm.c, svm_range_set_attr and svm_range_get_attr: the attributes
 * are checked first (svm_range_check_attr), then the range
 * (svm_range_is_valid): every page mapped and none a device's, else
 * -EFAULT; no buffer object in the GPU's VM, else -EADDRINUSE. */
static void svm_on_buffer_objects(void)
{
	uint64_t off = 0, vram, user;
	char *va = reserve(SPAN);
	ok(alloc_bo(va, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
		    &off, &vram) == 0, "a VRAM object in a reserved range");
	ok(prefetch(va, SPAN) == -EADDRINUSE,
	   "SVM on VRAM that the CPU has not mapped: -EADDRINUSE");
	void *m = vmmap(va, SPAN, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render,
			(off_t)off);
	ok(m == va, "the VRAM mapped for the CPU through the render node");
	ok(prefetch(va, SPAN) == -EFAULT,
	   "SVM on a device mapping (a CPU-mapped hipMalloc): -EFAULT");
	ok(svm1(KFD_IOCTL_SVM_OP_GET_ATTR, va, SPAN, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0) ==
		   -EFAULT, "and a query of it too");
	ok(svm1(KFD_IOCTL_SVM_OP_SET_ATTR, va, SPAN, 0x7fff, 0) == -EINVAL,
	   "an unknown attribute is refused before the range is looked at");

	char *host = anon(SPAN);
	off = (uintptr_t)host;
	ok(alloc_bo(host, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, &off, &user) == 0,
	   "pinned host pages (hipHostMalloc's userptr object)");
	ok(prefetch(host + PAGE, PAGE) == -EADDRINUSE,
	   "SVM on a page of a userptr object: -EADDRINUSE");
	ok(svm1(KFD_IOCTL_SVM_OP_GET_ATTR, host, SPAN, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0) ==
		   -EADDRINUSE, "and a query of it too");

	ok(free_bo(vram) == 0 && free_bo(user) == 0, "both objects freed");
	/* The thunk gives a freed object's range back to its reservation. */
	vmmap(va, SPAN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
	      -1, 0);
	ok(prefetch(va, SPAN) == 0 && prefetch(host, SPAN) == 0,
	   "the same ranges take SVM attributes once no object holds them");

	char *gone = anon(SPAN);
	munmap(gone, SPAN);
	ok(prefetch(gone, SPAN) == -EFAULT, "SVM on pages with no mapping: -EFAULT");
	ok(prefetch(host, SPAN + PAGE) == -EFAULT,
	   "nor on a range that runs past its mapping");
}

static int xnack(int32_t *mode)
{
	struct kfd_ioctl_set_xnack_mode_args a = { .xnack_enabled = *mode };
	int rc = call(AMDKFD_IOC_SET_XNACK_MODE, &a);
	*mode = a.xnack_enabled;
	return rc;
}

static uint32_t make_queue(void)
{
	static alignas(256) uint32_t ring[256];
	static uint64_t wptr, rptr;
	struct kfd_ioctl_create_queue_args q = {
		.ring_base_address = (uintptr_t)ring, .ring_size = sizeof(ring),
		.write_pointer_address = (uintptr_t)&wptr,
		.read_pointer_address = (uintptr_t)&rptr,
		.gpu_id = VG_GPU_ID, .queue_type = KFD_IOC_QUEUE_TYPE_SDMA,
	};
	return call(AMDKFD_IOC_CREATE_QUEUE, &q) ? ~0u : q.queue_id;
}

/* kfd_chardev.c, kfd_ioctl_set_xnack_mode, and kfd_process.c,
 * kfd_process_xnack_mode: a process starts with XNACK off on these parts
 * (amdgpu's noretry defaults on for them), on where the driver was booted
 * with retry on (the xnack variant); turning it on needs per-process XNACK
 * (GC 9.4.2 and 9.4.3: MI200, MI300) or retry on, else -EPERM; any change
 * once the process has a queue is -EBUSY. */
static void xnack_mode(void)
{
	int per_process = strcmp(product, "MI100") != 0 || retry;
	int32_t m = -1;
	ok(xnack(&m) == 0 && m == retry, "%s: XNACK starts %s", profile, retry ? "on" : "off");
	m = 1;
	if (per_process)
		ok(xnack(&m) == 0, "%s: XNACK can be turned on", profile);
	else
		ok(xnack(&m) == -EPERM, "%s: XNACK on is refused (-EPERM)", profile);
	m = -1;
	ok(xnack(&m) == 0 && m == per_process, "%s: the mode read back is %d", profile,
	   per_process);
	m = 0;
	ok(xnack(&m) == 0, "%s: XNACK off is always allowed", profile);
	uint32_t q = make_queue();
	ok(q != ~0u, "a queue is made");
	m = 1;
	ok(xnack(&m) == -EBUSY, "with a queue, a change is refused (-EBUSY)");
	m = -1;
	ok(xnack(&m) == 0 && m == 0, "a query still answers");
	struct kfd_ioctl_destroy_queue_args d = { .queue_id = q };
	call(AMDKFD_IOC_DESTROY_QUEUE, &d);
	m = 0;
	ok(xnack(&m) == 0, "with no queue left, the mode can be set again");
}

static uint64_t available(void)
{
	struct kfd_ioctl_get_available_memory_args a = { .gpu_id = VG_GPU_ID };
	return call(AMDKFD_IOC_AVAILABLE_MEMORY, &a) ? 0 : a.available;
}

/* The bytes the SMI file holds now (it is read without blocking). */
static ssize_t smi_pending(int fd, char *buf, size_t cap)
{
	ssize_t n = recv(fd, buf, cap - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0'; /* the first line names the event */
	return n;
}

/* An APU's memory is the host's.  kfd_svm.c,
 * svm_range_best_prefetch_location: on an APU the best prefetch location
 * is the CPU, so a prefetch to the GPU migrates nothing and the SMI file
 * stays empty; a card's prefetch writes migrate_start and migrate_end.
 * amdgpu_amdkfd_gpuvm.c: an APU's VRAM request is placed in GTT, so it
 * takes system memory, as a GTT request does; a card's GTT request
 * leaves its VRAM as it was. */
static void apu_memory(void)
{
	int apu = !strcmp(product, "MI300A");
	struct kfd_ioctl_smi_events_args e = { .gpuid = VG_GPU_ID };
	ok(call(AMDKFD_IOC_SMI_EVENTS, &e) == 0, "an SMI file opens");
	uint64_t mask = KFD_SMI_EVENT_MASK_FROM_INDEX(KFD_SMI_EVENT_MIGRATE_START) |
			KFD_SMI_EVENT_MASK_FROM_INDEX(KFD_SMI_EVENT_MIGRATE_END);
	ok(write((int)e.anon_fd, &mask, sizeof(mask)) == sizeof(mask), "migrations asked for");
	char *pages = anon(SPAN), buf[512];
	memset(pages, 1, SPAN);
	ok(prefetch(pages, SPAN) == 0, "%s: a prefetch of process memory to the GPU", profile);
	ssize_t n = smi_pending((int)e.anon_fd, buf, sizeof(buf));
	if (apu)
		ok(n <= 0, "MI300A: nothing migrates, no SMI event: '%s'", buf);
	else
		ok(n > 0 && strtol(buf, NULL, 16) == KFD_SMI_EVENT_MIGRATE_START,
		   "%s: the migration is on the SMI file: '%s'", profile, buf);
	uint32_t loc = 0;
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[1];
	} g = { .a = { .start_addr = (uintptr_t)pages, .size = SPAN,
		       .op = KFD_IOCTL_SVM_OP_GET_ATTR, .nattr = 1 },
		.at = { { KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0 } } };
	if (call(AMDKFD_IOC_SVM + (sizeof(g.at) << _IOC_SIZESHIFT), &g) == 0)
		loc = g.at[0].value;
	ok(loc == VG_GPU_ID, "the prefetch location reads back as set");

	uint64_t before = available(), off = 0, h1, h2;
	char *va = reserve(2 * SPAN);
	alloc_bo(va, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &off, &h1);
	uint64_t after_vram = available();
	off = 0;
	alloc_bo(va + SPAN, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_GTT, &off, &h2);
	uint64_t after_gtt = available();
	if (apu)
		ok(before - after_vram == SPAN && after_vram - after_gtt == SPAN,
		   "MI300A: VRAM and GTT requests both take system memory");
	else
		ok(before - after_vram == SPAN && after_vram == after_gtt,
		   "%s: a VRAM request takes VRAM, a GTT request does not", profile);
	free_bo(h1);
	free_bo(h2);
	ok(available() == before, "freed, the memory is available again");
}

/* kfd_chardev.c, kfd_ioctl: the number indexes the driver's table (an
 * unknown one is -EINVAL); the handler gets a copy as large as the larger
 * of the caller's size and the driver's, zeroed past the caller's bytes;
 * the caller's size of it comes back, all zeros but what the driver wrote
 * when the driver's command only returns. */
static void door(void)
{
	uint64_t x = 0;
	ok(call(_IOWR('K', 0x7f, uint64_t), &x) == -EINVAL, "an unknown command: -EINVAL");
	struct {
		uint32_t major, minor;
		uint64_t tail;
	} v = { 0, 0, ~0ull };
	ok(call(_IOC(_IOC_READ, 'K', _IOC_NR(AMDKFD_IOC_GET_VERSION), sizeof(v)), &v) == 0 &&
		   v.major == KFD_IOCTL_MAJOR_VERSION && v.tail == 0,
	   "a newer header's larger GET_VERSION: answered, its tail zeroed");
	struct {
		uint64_t available;
		uint32_t canary;
	} m = { 0, 0xdeadbeef };
	ok(call(_IOC(_IOC_READ | _IOC_WRITE, 'K', _IOC_NR(AMDKFD_IOC_AVAILABLE_MEMORY), 8),
		&m) == -EINVAL && m.canary == 0xdeadbeef,
	   "an older header's shorter call: its missing gpu_id reads 0 (-EINVAL), "
	   "nothing written past its size");
	char *pages = anon(SPAN);
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[1];
	} sv = { .a = { .start_addr = (uintptr_t)pages, .size = SPAN,
			.op = KFD_IOCTL_SVM_OP_SET_ATTR, .nattr = 1 },
		 .at = { { KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, VG_GPU_ID } } };
	call(AMDKFD_IOC_SVM, &sv);
	ok(svm1(KFD_IOCTL_SVM_OP_GET_ATTR, pages, SPAN, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0) == 0,
	   "an SVM call whose command leaves out its attributes' size");
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[1];
	} g = { .a = { .start_addr = (uintptr_t)pages, .size = SPAN,
		       .op = KFD_IOCTL_SVM_OP_GET_ATTR, .nattr = 1 },
		.at = { { KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0 } } };
	call(AMDKFD_IOC_SVM + (sizeof(g.at) << _IOC_SIZESHIFT), &g);
	ok(g.at[0].value != VG_GPU_ID, "has them read as zeros: nothing was prefetched");
}

static uint32_t get1(void *p, uint32_t *type, uint32_t value)
{
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[1];
	} g = { .a = { .start_addr = (uintptr_t)p, .size = SPAN,
		       .op = KFD_IOCTL_SVM_OP_GET_ATTR, .nattr = 1 },
		.at = { { *type, value } } };
	if (call(AMDKFD_IOC_SVM + (sizeof(g.at) << _IOC_SIZESHIFT), &g))
		return ~0u;
	*type = g.at[0].type;
	return g.at[0].value;
}

/* kfd_svm.c, svm_range_get_attr and svm_range_set_attr: what a range
 * reads before any call set it, what an access query is rewritten to, the
 * types a query may not name; a set is checked whole before any of it
 * applies. */
static void svm_attributes(void)
{
	char *p = anon(SPAN);
	uint32_t t = KFD_IOCTL_SVM_ATTR_PREFETCH_LOC;
	ok(get1(p, &t, 0) == KFD_IOCTL_SVM_LOCATION_UNDEFINED, "prefetch location: UNDEFINED");
	t = KFD_IOCTL_SVM_ATTR_PREFERRED_LOC;
	ok(get1(p, &t, 0) == KFD_IOCTL_SVM_LOCATION_UNDEFINED, "preferred location: UNDEFINED");
	t = KFD_IOCTL_SVM_ATTR_GRANULARITY;
	ok(get1(p, &t, 0) == 9, "granularity: 9 (2 MiB)");
	t = KFD_IOCTL_SVM_ATTR_ACCESS;
	ok(get1(p, &t, VG_GPU_ID) == VG_GPU_ID && t == KFD_IOCTL_SVM_ATTR_NO_ACCESS,
	   "with XNACK off the GPU has no access: the query's type says so");
	t = KFD_IOCTL_SVM_ATTR_NO_ACCESS;
	ok(get1(p, &t, VG_GPU_ID) == ~0u && errno == EINVAL, "a query for NO_ACCESS: -EINVAL");
	t = KFD_IOCTL_SVM_ATTR_ACCESS;
	ok(get1(p, &t, 0x1234) == ~0u && errno == EINVAL, "an access query for no GPU: -EINVAL");
	ok(svm1(KFD_IOCTL_SVM_OP_SET_ATTR, p, SPAN, KFD_IOCTL_SVM_ATTR_PREFERRED_LOC,
		VG_GPU_ID) == 0 &&
		   svm1(KFD_IOCTL_SVM_OP_SET_ATTR, p, SPAN, KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE,
			VG_GPU_ID) == 0,
	   "preferred location and access in place set");
	t = KFD_IOCTL_SVM_ATTR_PREFERRED_LOC;
	uint32_t loc = get1(p, &t, 0);
	t = KFD_IOCTL_SVM_ATTR_ACCESS;
	get1(p, &t, VG_GPU_ID);
	ok(loc == VG_GPU_ID && t == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE, "and read back");
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[2];
	} s = { .a = { .start_addr = (uintptr_t)p, .size = SPAN,
		       .op = KFD_IOCTL_SVM_OP_SET_ATTR, .nattr = 2 },
		.at = { { KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, VG_GPU_ID }, { 0x7fff, 0 } } };
	ok(call(AMDKFD_IOC_SVM + (sizeof(s.at) << _IOC_SIZESHIFT), &s) == -EINVAL,
	   "a set with one unknown attribute: -EINVAL");
	t = KFD_IOCTL_SVM_ATTR_PREFETCH_LOC;
	ok(get1(p, &t, 0) == KFD_IOCTL_SVM_LOCATION_UNDEFINED, "and none of it applied");
}

/* The access type an ACCESS query over [p, p + size) reads for gpu. */
static uint32_t access_of(char *p, uint64_t size, uint32_t gpu)
{
	struct {
		struct kfd_ioctl_svm_args a;
		struct kfd_ioctl_svm_attribute at[1];
	} g = { .a = { .start_addr = (uintptr_t)p, .size = size,
		       .op = KFD_IOCTL_SVM_OP_GET_ATTR, .nattr = 1 },
		.at = { { KFD_IOCTL_SVM_ATTR_ACCESS, gpu } } };
	return call(AMDKFD_IOC_SVM + (sizeof(g.at) << _IOC_SIZESHIFT), &g) ? ~0u
									      : g.at[0].type;
}

/* kfd_svm.c, per GPU (5.15 to 6.12 alike): svm_range_apply_attrs sets or
 * clears the named GPU's bit in the range's bitmap_access and bitmap_aip
 * (by kfd_process_gpuidx_from_gpuid) and no other GPU's; svm_range_new
 * gives a new range access for every GPU under XNACK and for none without;
 * svm_range_get_attr ANDs the bitmaps of every range the query meets, then
 * rewrites the query's type from the GPU's bits (access, else in place,
 * else none). */
static void svm_access_per_gpu(void)
{
	char *p = anon(SPAN), *half = p + SPAN / 2;
	uint32_t g0 = VG_GPU_ID, g1 = VG_GPU_ID + 1;
	ok(access_of(p, SPAN, g0) == KFD_IOCTL_SVM_ATTR_NO_ACCESS &&
		   access_of(p, SPAN, g1) == KFD_IOCTL_SVM_ATTR_NO_ACCESS,
	   "%s, XNACK off: a range no call set has no access from any GPU", profile);
	ok(svm1(KFD_IOCTL_SVM_OP_SET_ATTR, p, SPAN, KFD_IOCTL_SVM_ATTR_ACCESS, g1) == 0,
	   "access set for the second GPU");
	ok(access_of(p, SPAN, g1) == KFD_IOCTL_SVM_ATTR_ACCESS &&
		   access_of(p, SPAN, g0) == KFD_IOCTL_SVM_ATTR_NO_ACCESS,
	   "the second GPU has it, the first still none");
	ok(svm1(KFD_IOCTL_SVM_OP_SET_ATTR, p, SPAN, KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE,
		g0) == 0 &&
		   access_of(p, SPAN, g0) == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE &&
		   access_of(p, SPAN, g1) == KFD_IOCTL_SVM_ATTR_ACCESS,
	   "in place for the first leaves the second's access as it was");
	ok(svm1(KFD_IOCTL_SVM_OP_SET_ATTR, half, SPAN / 2, KFD_IOCTL_SVM_ATTR_NO_ACCESS,
		g1) == 0 &&
		   access_of(p, SPAN / 2, g1) == KFD_IOCTL_SVM_ATTR_ACCESS &&
		   access_of(half, SPAN / 2, g1) == KFD_IOCTL_SVM_ATTR_NO_ACCESS,
	   "no access for the second on half the range: each half reads its own");
	ok(access_of(p, SPAN, g1) == KFD_IOCTL_SVM_ATTR_NO_ACCESS &&
		   access_of(p, SPAN, g0) == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE,
	   "a query over both halves reads what every range allows");
}

/* The topology node of the first GPU (after a node's CPU nodes). */
static const char *first_gpu_node(void)
{
	static char path[128];
	for (int n = 0; n < 16; n++) {
		char id[160], line[32] = "";
		snprintf(path, sizeof(path), "/sys/devices/virtual/kfd/kfd/topology/nodes/%d", n);
		snprintf(id, sizeof(id), "%s/gpu_id", path);
		FILE *f = vfopen(id, "r");
		if (f && fgets(line, sizeof(line), f) && strtoul(line, NULL, 10) == VG_GPU_ID) {
			fclose(f);
			return path;
		}
		if (f)
			fclose(f);
	}
	return "/nonexistent";
}

/* kfd_chardev.c: mapping to an empty device list is -EINVAL and an
 * unknown handle -ENOMEM (kfd_ioctl_map_memory_to_gpu); a ring not a
 * power of two long is -EINVAL (set_queue_properties_from_user).
 * kfd_smi_events.c, kfd_smi_ev_read: an empty SMI file reads -EAGAIN.
 * kfd_topology.c, node_show: local_mem_size is 0. */
static void table(void)
{
	uint32_t id = VG_GPU_ID;
	struct kfd_ioctl_map_memory_to_gpu_args m = {
		.handle = ((uint64_t)VG_GPU_ID << 32) | 0xfffff,
		.device_ids_array_ptr = (uintptr_t)&id, .n_devices = 0,
	};
	ok(call(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) == -EINVAL, "map to no device: -EINVAL");
	m.n_devices = 1;
	ok(call(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) == -ENOMEM, "map an unknown handle: -ENOMEM");
	static alignas(256) uint32_t ring[300];
	static uint64_t wptr, rptr;
	struct kfd_ioctl_create_queue_args q = {
		.ring_base_address = (uintptr_t)ring, .ring_size = sizeof(ring),
		.write_pointer_address = (uintptr_t)&wptr,
		.read_pointer_address = (uintptr_t)&rptr,
		.gpu_id = VG_GPU_ID, .queue_type = KFD_IOC_QUEUE_TYPE_SDMA,
	};
	ok(call(AMDKFD_IOC_CREATE_QUEUE, &q) == -EINVAL, "a 1200-byte ring: -EINVAL");
	struct kfd_ioctl_smi_events_args e = { .gpuid = VG_GPU_ID };
	char c;
	ok(call(AMDKFD_IOC_SMI_EVENTS, &e) == 0 && read((int)e.anon_fd, &c, 1) == -1 &&
		   errno == EAGAIN,
	   "an empty SMI file reads -EAGAIN");
	char line[128];
	int zero = 0;
	char props[200];
	snprintf(props, sizeof(props), "%s/properties", first_gpu_node());
	FILE *f = vfopen(props, "r");
	while (f && fgets(line, sizeof(line), f))
		zero |= !strcmp(line, "local_mem_size 0\n");
	if (f)
		fclose(f);
	ok(zero, "the GPU node's local_mem_size is 0");
}

/* kfd_chardev.c, kfd_ioctl_alloc_memory_of_gpu: an object whose GPU range
 * or user pages meet an SVM range is -EADDRINUSE, until the CPU's mapping
 * under the range is replaced (kfd_svm.c drops its ranges then).
 * amdgpu_amdkfd_gpuvm_free_memory_of_gpu: a mapped object is not freed
 * (-EBUSY). */
static void objects(void)
{
	char *p = anon(SPAN);
	uint64_t off = (uintptr_t)p, h;
	ok(svm1(KFD_IOCTL_SVM_OP_SET_ATTR, p, SPAN, KFD_IOCTL_SVM_ATTR_GRANULARITY, 4) == 0,
	   "an SVM range");
	ok(alloc_bo(p, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, &off, &h) == -EADDRINUSE,
	   "a userptr object on it: -EADDRINUSE");
	off = 0;
	ok(alloc_bo(p + PAGE, PAGE, KFD_IOC_ALLOC_MEM_FLAGS_GTT, &off, &h) == -EADDRINUSE,
	   "an object at a GPU address in it: -EADDRINUSE");
	vmmap(p, SPAN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	off = (uintptr_t)p;
	ok(alloc_bo(p, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, &off, &h) == 0,
	   "once the pages are mapped anew, the range is gone and the object is made");
	uint32_t id = VG_GPU_ID;
	struct kfd_ioctl_map_memory_to_gpu_args m = {
		.handle = h, .device_ids_array_ptr = (uintptr_t)&id, .n_devices = 1,
	};
	ok(call(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) == 0 && m.n_success == 1, "mapped to the GPU");
	ok(free_bo(h) == -EBUSY, "a mapped object is not freed: -EBUSY");
	struct kfd_ioctl_unmap_memory_from_gpu_args u = {
		.handle = h, .device_ids_array_ptr = (uintptr_t)&id, .n_devices = 1,
	};
	ok(call(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &u) == 0 && free_bo(h) == 0,
	   "unmapped, it is freed");
}

/* amdgpu_amdkfd_gpuvm.c, amdgpu_amdkfd_reserve_mem_limit and
 * amdgpu_amdkfd_gpuvm_init_mem_limits: a card's GTT and userptr objects
 * take at most 15/16 of the host's memory, its GTT objects 3/8, its VRAM
 * objects its VRAM; an object of no kind is -ENOMEM.  An APU's objects
 * come from the memory its node reports. */
static void limits(void)
{
	int apu = !strcmp(product, "MI300A");
	uint64_t mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t gtt = apu ? VG_APU_MEMORY : (mem >> 1) - (mem >> 3);
	uint64_t sys = apu ? VG_APU_MEMORY : mem - (mem >> 4);
	uint64_t off = 0, h;
	char *va = reserve(sys + PAGE);
	ok(alloc_bo(va, gtt + PAGE, KFD_IOC_ALLOC_MEM_FLAGS_GTT, &off, &h) == -ENOMEM,
	   "%s: GTT past its share of host memory: -ENOMEM", profile);
	off = 0;
	ok(alloc_bo(va, gtt - PAGE, KFD_IOC_ALLOC_MEM_FLAGS_GTT, &off, &h) == 0 && free_bo(h) == 0,
	   "%s: within it, made", profile);
	off = (uintptr_t)va;
	ok(alloc_bo(va, sys + PAGE, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, &off, &h) == -ENOMEM,
	   "%s: userptr past the system limit: -ENOMEM", profile);
	off = 0;
	ok(alloc_bo(va, PAGE, KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, &off, &h) == -ENOMEM,
	   "an object of no kind: -ENOMEM");
	if (!apu) {
		uint64_t vram = strcmp(product, "MI300X") ? (strcmp(product, "MI100") ? 64ull << 30
										     : 32ull << 30)
							  : 192ull << 30;
		char *gpu = reserve(vram + PAGE);
		off = 0;
		int rc = alloc_bo(gpu, vram + PAGE, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &off, &h);
		ok(rc == -ENOMEM, "%s: VRAM past its VRAM: -ENOMEM (%d)", profile, rc);
		munmap(gpu, vram + PAGE);
	}
	munmap(va, sys + PAGE);
}

/* One value of a topology properties file, or -1. */
static long long prop(const char *path, const char *name)
{
	char line[256];
	long long v = -1;
	size_t n = strlen(name);
	FILE *f = vfopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = strtoll(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

/* kfd_crat.c, kfd_fill_gpu_cache_info (vega20_cache_info for Arcturus,
 * aldebaran_cache_info) and, for GC 9.4.3, the caches read from the
 * part's IP discovery table; kfd_topology.c, cache_show: an entry per
 * cache, the vector L1 per CU, the SQC's instruction cache shared by
 * three CUs (MI100) or two, one L2 per XCC, and on MI300 the Infinity
 * Cache as L3. */
static void caches(void)
{
	const char *node = first_gpu_node();
	char path[256];
	snprintf(path, sizeof(path), "%s/properties", node);
	long long count = prop(path, "caches_count");
	long long first_kib[4] = { 0, 0, 0, 0 }, l2s = 0, inst_share = 0;
	long long i = 0;
	for (; i < count; i++) {
		snprintf(path, sizeof(path), "%s/caches/%lld/properties", node, i);
		long long level = prop(path, "level"), type = prop(path, "type");
		if (level < 1 || level > 4)
			break;
		if ((type & 1) && !first_kib[level - 1])
			first_kib[level - 1] = prop(path, "size");
		l2s += level == 2;
		if ((type & 2) && !inst_share) {
			char line[256] = "";
			FILE *f = vfopen(path, "r");
			while (f && fgets(line, sizeof(line), f) && strncmp(line, "sibling_map", 11))
				;
			if (f)
				fclose(f);
			for (char *c = line; *c; c++)
				inst_share += *c == '1';
		}
	}
	ok(count > 4 && i == count, "%s: caches_count %lld, each entry there", profile, count);
	int mi300 = !strncmp(product, "MI300", 5);
	long long l1 = mi300 ? 32 : 16, l2 = mi300 ? 4096 : 8192, l3 = mi300 ? 262144 : 0;
	ok(first_kib[0] == l1 && first_kib[1] == l2 && first_kib[2] == l3,
	   "%s: L1 %lld KiB, L2 %lld KiB, L3 %lld KiB", profile, first_kib[0], first_kib[1],
	   first_kib[2]);
	long long xcc = !strcmp(product, "MI300X") ? 8 : !strcmp(product, "MI300A") ? 6 : 1;
	ok(l2s == xcc, "%s: an L2 per XCC: %lld", profile, l2s);
	ok(inst_share == (strcmp(product, "MI100") ? 2 : 3),
	   "%s: an instruction cache is shared by %lld CUs", profile, inst_share);
}

/* kfd_crat.c, kfd_fill_gpu_direct_io_link_to_cpu, and kfd_topology.c,
 * kfd_fill_iolink_non_crat_info: a GPU's first link is to its CPU, xGMI
 * where it is wired so (an MI250X as deployed, an MI300A in its package),
 * PCIe otherwise; kfd_set_iolink_no_atomics marks that PCIe link without
 * atomics where the root port has no AtomicOps, never an xGMI one.  A GPU
 * wired to its CPU by xGMI has coherent host access, and its CPU node
 * joins its hive. */
static void cpu_links(void)
{
	const char *node = first_gpu_node();
	char path[256];
	int xgmi = (!strcmp(product, "MI250X") || !strncmp(product, "MI300A", 6) ||
		    !strcmp(product, "4xMI250X") || !strcmp(product, "4xMI300A")) &&
		   !strstr(profile, "pcie");
	int none = strstr(profile, "no-pcie-atomics") != NULL;
	long long no_atomics = 3ll << 2;
	snprintf(path, sizeof(path), "%s/io_links/0/properties", node);
	long long type = prop(path, "type"), flags = prop(path, "flags");
	ok(type == (xgmi ? 11 : 2), "%s: the GPU's link to its CPU is %s (type %lld)", profile,
	   xgmi ? "xGMI" : "PCIe", type);
	ok((flags & 1) && (flags & no_atomics) == (none ? no_atomics : 0),
	   "%s: the link is enabled, %s atomics (flags 0x%llx)", profile,
	   none ? "without" : "with", flags);
	snprintf(path, sizeof(path), "%s/properties", node);
	long long cap = prop(path, "capability"), hive = prop(path, "hive_id");
	ok(!!(cap & 0x10000000) == xgmi, "%s: coherent host access %s", profile,
	   xgmi ? "set" : "clear");
	ok(prop("/sys/devices/virtual/kfd/kfd/topology/nodes/0/properties", "hive_id") == (xgmi ? hive : 0),
	   "%s: the CPU node is %s the GPU's hive", profile, xgmi ? "in" : "not in");
}

/* kfd_smi_events.c, kfd_smi_event_add: an event goes to the SMI files
 * opened on the GPU it happened on, not to another GPU's (on a node). */
static void smi_per_gpu(void)
{
	struct kfd_ioctl_smi_events_args e0 = { .gpuid = VG_GPU_ID },
					 e1 = { .gpuid = VG_GPU_ID + 1 };
	ok(call(AMDKFD_IOC_SMI_EVENTS, &e0) == 0 && call(AMDKFD_IOC_SMI_EVENTS, &e1) == 0,
	   "%s: an SMI file on each of two GPUs", profile);
	uint64_t mask = KFD_SMI_EVENT_MASK_FROM_INDEX(KFD_SMI_EVENT_MIGRATE_START);
	ok(write((int)e0.anon_fd, &mask, sizeof(mask)) == sizeof(mask) &&
		   write((int)e1.anon_fd, &mask, sizeof(mask)) == sizeof(mask),
	   "migrations asked for on both");
	char *pages = anon(SPAN), buf[512];
	memset(pages, 1, SPAN);
	ok(prefetch(pages, SPAN) == 0, "a prefetch to the first GPU");
	ssize_t first = smi_pending((int)e0.anon_fd, buf, sizeof(buf));
	ssize_t second = smi_pending((int)e1.anon_fd, buf, sizeof(buf));
	ok(first > 0 && second <= 0, "its migration is on the first GPU's file only (%zd, %zd)",
	   first, second);
}

enum { CHILD_EBADF = 1, CHILD_OPENS = 2, CHILD_ALLOCS = 4, CHILD_XNACK = 8, CHILD_QUEUE = 16 };

/* What a forked child finds (its bits, set when as the driver would). */
static int in_child(void)
{
	int bits = 0;
	struct kfd_ioctl_get_version_args v;
	if (vioctl(kfd, AMDKFD_IOC_GET_VERSION, &v) && errno == EBADF)
		bits |= CHILD_EBADF;
	kfd = vopen("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (kfd >= 0 && call(AMDKFD_IOC_GET_VERSION, &v) == 0)
		bits |= CHILD_OPENS;
	uint64_t off = 0, h = 0;
	char *va = reserve(SPAN);
	if (alloc_bo(va, SPAN, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &off, &h) == 0 && (h & 0xffffffffu) == 0)
		bits |= CHILD_ALLOCS;
	int32_t m = -1;
	if (xnack(&m) == 0 && m == retry)
		bits |= CHILD_XNACK;
	if (make_queue() == 0)
		bits |= CHILD_QUEUE;
	return bits;
}

/* kfd_chardev.c, kfd_ioctl: a child using its parent's /dev/kfd fd is
 * -EBADF; it opens its own and has a process of its own (kfd_process.c:
 * one per mm): no objects, no queues, XNACK at its default.  The parent,
 * which had a queue (so a poller thread) and XNACK on where it may, goes
 * on as before: lttng-ust's fork discipline, every lock taken across. */
static void forked(void)
{
	int32_t m = 1;
	int per_process = strcmp(product, "MI100") != 0 || retry;
	if (per_process)
		xnack(&m);
	uint32_t q = make_queue();
	pid_t pid = fork();
	if (pid == 0)
		_exit(in_child());
	int st = 0;
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st), "a forked child exits");
	int bits = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	ok(bits & CHILD_EBADF, "the parent's /dev/kfd fd in the child: -EBADF");
	ok(bits & CHILD_OPENS, "the child opens /dev/kfd of its own");
	ok(bits & CHILD_ALLOCS, "its first object is its first handle");
	ok(bits & CHILD_XNACK, "its XNACK mode is the default, %s", retry ? "on" : "off");
	ok(bits & CHILD_QUEUE, "its first queue is its queue 0");
	struct kfd_ioctl_get_version_args v;
	struct kfd_ioctl_destroy_queue_args d = { .queue_id = q };
	m = -1;
	ok(call(AMDKFD_IOC_GET_VERSION, &v) == 0 && xnack(&m) == 0 && m == per_process &&
		   call(AMDKFD_IOC_DESTROY_QUEUE, &d) == 0,
	   "the parent's device is as it was");
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 64;
	profile = argv[2];
	snprintf(product, sizeof(product), "%.*s", (int)strcspn(profile, ":"), profile);
	retry = strstr(profile, "xnack") != NULL;
	setenv("HIPGRAIN_VIRTUAL_GPU", profile, 1);
	unsetenv("HSA_XNACK");
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	ok(h != NULL, "the virtual GPU loads: %s", h ? "" : dlerror());
	if (!h)
		return done();
	vopen = (int (*)(const char *, int, ...))dlsym(h, "open");
	vioctl = (int (*)(int, unsigned long, void *))dlsym(h, "ioctl");
	vmmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(h, "mmap");
	vfopen = (FILE * (*)(const char *, const char *)) dlsym(h, "fopen");
	kfd = vopen("/dev/kfd", O_RDWR | O_CLOEXEC);
	char node[32];
	snprintf(node, sizeof(node), "/dev/dri/renderD%d", VG_RENDER_MINOR);
	render = vopen(node, O_RDWR | O_CLOEXEC);
	ok(kfd >= 0 && render >= 0, "/dev/kfd and the render node open");
	svm_on_buffer_objects();
	xnack_mode();
	apu_memory();
	door();
	svm_attributes();
	table();
	objects();
	limits();
	caches();
	cpu_links();
	if (strchr(product, 'x')) {
		smi_per_gpu();
		svm_access_per_gpu();
	}
	forked();
	return done();
}
