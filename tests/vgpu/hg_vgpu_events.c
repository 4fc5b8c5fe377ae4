/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU's KFD events against the driver's rules, through the
 * library's own open and ioctl (looked up in it, so the test needs no
 * preload): how ids are given and which calls each kind of event takes;
 * a waiter takes an auto-reset event's set as it arrives; an auto-reset event set with nobody waiting stays set for
 * one wait; a waiter that names the age it last saw returns at once when
 * the event has been set since, and learns the new age; one that names
 * the current age, or none, sleeps until its timeout.  And a completion
 * wakes a runtime already asleep on it: an SDMA queue's atomic on a
 * signal without a mailbox (how ROCr ends a copy) raises the signal's
 * event, which the wait finds because waiting serves the queues first.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kfd_ioctl.h>

#include "tap.h"
#include "vg_sysfs.h"

static int (*vopen)(const char *, int, ...);
static int (*vioctl)(int, unsigned long, void *);
static int kfd;

static uint32_t create_type(uint32_t type, int auto_reset)
{
	struct kfd_ioctl_create_event_args a = { .event_type = type,
						 .auto_reset = (uint32_t)auto_reset };
	return vioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &a) ? 0 : a.event_id;
}

static uint32_t create(int auto_reset)
{
	return create_type(KFD_IOC_EVENT_SIGNAL, auto_reset);
}

static int set(uint32_t id)
{
	struct kfd_ioctl_set_event_args a = { .event_id = id };
	return vioctl(kfd, AMDKFD_IOC_SET_EVENT, &a);
}

/* One wait on one event; *age is the age named (0: none) and, after a
 * completed wait that named one, the age the driver reported. */
static uint32_t wait1(uint32_t id, uint64_t *age, uint32_t ms)
{
	struct kfd_event_data d;
	memset(&d, 0, sizeof(d));
	memcpy(&d, age, sizeof(*age));
	d.event_id = id;
	struct kfd_ioctl_wait_events_args a = {
		.events_ptr = (uintptr_t)&d, .num_events = 1, .timeout = ms,
	};
	if (vioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &a))
		return ~0u;
	memcpy(age, &d, sizeof(*age));
	return a.wait_result;
}

/* A wait on several events; ~0u when the call itself fails. */
static uint32_t wait_n(const uint32_t *ids, uint32_t n, int all)
{
	struct kfd_event_data d[4];
	memset(d, 0, sizeof(d));
	for (uint32_t i = 0; i < n; i++)
		d[i].event_id = ids[i];
	struct kfd_ioctl_wait_events_args a = {
		.events_ptr = (uintptr_t)d, .num_events = n, .wait_for_all = (uint32_t)all,
	};
	return vioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &a) ? ~0u : a.wait_result;
}

/* kfd_events.c, kfd_event_create and kfd_event_init_process (since 5.19,
 * "Ignore bogus signals from MEC efficiently"): slot 0 is reserved, so
 * the first signal event is 1, and a full events page is -ENOSPC; other
 * events are numbered from KFD_FIRST_NONSIGNAL_EVENT_ID (kfd_events.h,
 * the upper half of the id space), and kfd_set_event and kfd_reset_event
 * refuse them (-EINVAL).  init_event_waiter: a waiter takes an auto-reset
 * event's set as it arrives, even in a wait for all that then times
 * out; an id the process has not made is -EINVAL. */
static void driver_rules(void)
{
	uint32_t first = create(0);
	ok(first == 1, "the first signal event is 1 (slot 0 is reserved): %u", first);
	uint32_t mem = create_type(KFD_IOC_EVENT_MEMORY, 0);
	ok(mem >= 0x40000000u, "a memory event's id is in the upper half: 0x%x", mem);
	ok(set(mem) == -1 && errno == EINVAL, "SET_EVENT on it: -EINVAL");
	struct kfd_ioctl_reset_event_args r = { .event_id = mem };
	ok(vioctl(kfd, AMDKFD_IOC_RESET_EVENT, &r) == -1 && errno == EINVAL,
	   "RESET_EVENT on it: -EINVAL");

	uint32_t ab[2] = { create(1), create(0) };
	set(ab[0]);
	ok(wait_n(ab, 2, 1) == KFD_IOC_WAIT_RESULT_TIMEOUT,
	   "a wait for all, one of two set: it times out");
	ok(wait_n(ab, 1, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT,
	   "and took the auto-reset event's set as it arrived");
	uint32_t unknown[1] = { 4000 };
	ok(wait_n(unknown, 1, 0) == ~0u && errno == EINVAL, "a wait on an unknown id: -EINVAL");

	uint32_t made = 0, id;
	while ((id = create(0)) != 0)
		made++;
	ok(errno == ENOSPC && made + 3 == 4095,
	   "the events page holds 4095 signal events, then -ENOSPC (%u more made)", made);
	for (id = 1; id < 4096; id++) {
		struct kfd_ioctl_destroy_event_args d = { .event_id = id };
		vioctl(kfd, AMDKFD_IOC_DESTROY_EVENT, &d);
	}
}

/* One SDMA atomic adding -1 to a signal's value, on a queue of its own in
 * plain process memory (the device's shared virtual memory). */
static void sdma_atomic_wakes(uint32_t ev)
{
	static alignas(64) uint64_t signal[8];
	static alignas(256) uint32_t ring[256];
	static uint64_t wptr, rptr;
	signal[1] = 1;
	signal[3] = ev; /* the event id at 24; the mailbox at 16 stays 0 */
	struct kfd_ioctl_create_queue_args q = {
		.ring_base_address = (uintptr_t)ring, .ring_size = sizeof(ring),
		.write_pointer_address = (uintptr_t)&wptr,
		.read_pointer_address = (uintptr_t)&rptr,
		.gpu_id = VG_GPU_ID, .queue_type = KFD_IOC_QUEUE_TYPE_SDMA,
	};
	ok(vioctl(kfd, AMDKFD_IOC_CREATE_QUEUE, &q) == 0, "an SDMA queue is made");
	uint64_t target = (uintptr_t)&signal[1], add = (uint64_t)-1;
	uint32_t pkt[8] = { 10, (uint32_t)target, (uint32_t)(target >> 32),
			    (uint32_t)add, (uint32_t)(add >> 32), 0, 0, 0 };
	memcpy(ring, pkt, sizeof(pkt));
	__atomic_store_n(&wptr, sizeof(pkt), __ATOMIC_RELEASE);
	uint64_t age = 0;
	ok(wait1(ev, &age, 60000) == KFD_IOC_WAIT_RESULT_COMPLETE,
	   "an SDMA atomic on a signal without a mailbox wakes its waiter");
	ok(__atomic_load_n(&signal[1], __ATOMIC_ACQUIRE) == 0, "the atomic ran");
	/* The queue's thread moves the read pointer past the packet after
	 * its atomic woke the waiter, as an engine retires a packet after its
	 * effects: given the processor a bounded number of times, it has. */
	for (int i = 0; i < 1000000 && __atomic_load_n(&rptr, __ATOMIC_ACQUIRE) != sizeof(pkt); i++)
		sched_yield();
	ok(__atomic_load_n(&rptr, __ATOMIC_ACQUIRE) == sizeof(pkt), "the queue moved past it");
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 64;
	setenv("HIPGRAIN_VIRTUAL_GPU", "MI210", 1);
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	ok(h != NULL, "the virtual GPU loads: %s", h ? "" : dlerror());
	if (!h)
		return done();
	vopen = (int (*)(const char *, int, ...))dlsym(h, "open");
	vioctl = (int (*)(int, unsigned long, void *))dlsym(h, "ioctl");
	kfd = vopen("/dev/kfd", O_RDWR | O_CLOEXEC);
	ok(kfd >= 0, "/dev/kfd opens");
	driver_rules();

	uint32_t ev = create(1);
	ok(ev != 0, "an auto-reset signal event is made");
	uint64_t age = 0;
	ok(wait1(ev, &age, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT,
	   "a fresh event is not set");
	ok(set(ev) == 0, "set with nobody waiting");
	ok(wait1(ev, &age, 0) == KFD_IOC_WAIT_RESULT_COMPLETE,
	   "the set is kept for the next wait");
	ok(wait1(ev, &age, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT,
	   "and only for one: the wait took it");

	age = 1;
	ok(wait1(ev, &age, 0) == KFD_IOC_WAIT_RESULT_COMPLETE,
	   "a waiter naming the creation age sees the set it missed");
	ok(age == 2, "and learns the event's age: %llu", (unsigned long long)age);
	ok(wait1(ev, &age, 5) == KFD_IOC_WAIT_RESULT_TIMEOUT,
	   "naming the current age, it sleeps until its timeout");
	ok(age == 2, "a wait that timed out leaves the age it named");
	set(ev);
	set(ev);
	uint64_t none = 0;
	ok(wait1(ev, &none, 0) == KFD_IOC_WAIT_RESULT_COMPLETE && none == 0,
	   "a waiter naming no age is told none");
	ok(wait1(ev, &age, 0) == KFD_IOC_WAIT_RESULT_COMPLETE && age == 4,
	   "each set counts: age %llu", (unsigned long long)age);

	uint32_t manual = create(0);
	set(manual);
	uint64_t m = 0;
	ok(wait1(manual, &m, 0) == KFD_IOC_WAIT_RESULT_COMPLETE &&
		   wait1(manual, &m, 0) == KFD_IOC_WAIT_RESULT_COMPLETE,
	   "a manual-reset event stays set for every wait");

	sdma_atomic_wakes(create(1));
	return done();
}
