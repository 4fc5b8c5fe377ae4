/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU's KFD events against the driver's rules, through the
 * library's own open and ioctl (looked up in it, so the test needs no
 * preload): an auto-reset event set with nobody waiting stays set for
 * one wait; a waiter that names the age it last saw returns at once when
 * the event has been set since, and learns the new age; one that names
 * the current age, or none, sleeps until its timeout.  And a completion
 * wakes a runtime already asleep on it: an SDMA queue's atomic on a
 * signal without a mailbox (how ROCr ends a copy) raises the signal's
 * event, which the wait finds because waiting serves the queues first.
 */
#include <dlfcn.h>
#include <fcntl.h>
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

static uint32_t create(int auto_reset)
{
	struct kfd_ioctl_create_event_args a = { .event_type = KFD_IOC_EVENT_SIGNAL,
						 .auto_reset = (uint32_t)auto_reset };
	return vioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &a) ? 0 : a.event_id;
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
	ok(__atomic_load_n(&signal[1], __ATOMIC_ACQUIRE) == 0 && rptr == sizeof(pkt),
	   "the atomic ran and the queue moved past it");
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
