/* SPDX-License-Identifier: MIT */
/*
 * KFD events: what a waiting runtime sleeps on until a completion signal
 * with a mailbox, or a queue's trap, says its work is done.  As in the
 * driver, setting an event wakes every thread waiting on it then (a
 * runtime's own wait and its async-handler thread often wait on one
 * event together), and an auto-reset event stays set only when nobody
 * was waiting, for the next wait to find.  A runtime re-reads its signal
 * after every wake, so a spurious wake costs a loop and a missed one a
 * hang: signal generously.
 *
 * That rule alone loses a wake: a set seen only by one waiter is gone for
 * a second thread still on its way in.  Newer drivers count every set (an
 * event's age); a waiter that names the age it last saw returns at once
 * when the event has moved past it, and learns the new age.  ROCm 6 names
 * it whenever the driver's interface version offers it and then relies on
 * it; ROCm 5 names none.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <linux/kfd_ioctl.h>

#include "vg.h"

#define VG_EVENTS 4096

struct ev {
	uint8_t used, auto_reset, signaled;
	uint32_t type;
	uint32_t waiters;
	uint64_t age; /* 1 + times set; 0 and 1 are never reached again */
	/* A memory event's last fault, handed to the waiters it wakes. */
	struct kfd_hsa_memory_exception_data fault;
};

/* Events one wait may name; ROCr waits on a handful. */
#define VG_WAIT_MAX 512
static struct ev evs[VG_EVENTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_cond(void)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &a);
}

int vg_event_create(void *args)
{
	struct kfd_ioctl_create_event_args *a = args;
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	uint32_t id = 1;
	while (id < VG_EVENTS && evs[id].used)
		id++;
	if (id == VG_EVENTS) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	evs[id] = (struct ev){ .used = 1, .auto_reset = (uint8_t)!!a->auto_reset,
			      .type = a->event_type, .age = 1 };
	pthread_mutex_unlock(&lock);
	a->event_id = id;
	a->event_slot_index = id;
	a->event_trigger_data = id;
	return 0;
}

static struct ev *find(uint32_t id)
{
	return id > 0 && id < VG_EVENTS && evs[id].used ? &evs[id] : NULL;
}

int vg_event_destroy(void *args)
{
	struct kfd_ioctl_destroy_event_args *a = args;
	pthread_mutex_lock(&lock);
	struct ev *e = find(a->event_id);
	if (e)
		e->used = 0;
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

static void set_locked(struct ev *e)
{
	if (!++e->age)
		e->age = 2;
	e->signaled = !e->auto_reset || !e->waiters;
}

int vg_event_set(uint32_t id)
{
	vg_log("event %u set", id);
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	struct ev *e = find(id);
	if (e)
		set_locked(e);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

void vg_event_signal_all(void)
{
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	for (uint32_t i = 1; i < VG_EVENTS; i++)
		if (evs[i].used && evs[i].type == KFD_IOC_EVENT_SIGNAL)
			set_locked(&evs[i]);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/*
 * A fatal GPU fault, as kfd_signal_vm_fault_event tells it: every memory
 * event of the process is set and carries the fault (no signal is sent to
 * the process; its runtime, waiting on the event, reports it and aborts).
 */
int vg_event_memory_fault(const struct kfd_hsa_memory_exception_data *d)
{
	int n = 0;
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	for (uint32_t i = 1; i < VG_EVENTS; i++)
		if (evs[i].used && evs[i].type == KFD_IOC_EVENT_MEMORY) {
			evs[i].fault = *d;
			set_locked(&evs[i]);
			n++;
		}
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return n;
}

int vg_event_reset(void *args)
{
	struct kfd_ioctl_reset_event_args *a = args;
	vg_log("event %u reset", a->event_id);
	pthread_mutex_lock(&lock);
	struct ev *e = find(a->event_id);
	if (e)
		e->signaled = 0;
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

/* The age a waiter names sits in the first word of the event data (a
 * union member older headers do not spell); 0 names none. */
static uint64_t named_age(const struct kfd_event_data *d)
{
	uint64_t age;
	memcpy(&age, d, sizeof(age));
	return age;
}

/* Whether the wait is satisfied: an event counts when it is set, or has
 * been set since the age the waiter knows (age0: the one it named, else
 * the age when it arrived); a satisfied wait takes the set state of the
 * auto-reset events it counted. */
static int ready(const struct kfd_event_data *d, const uint64_t *age0,
		 uint32_t n, int all)
{
	uint32_t hit = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct ev *e = find(d[i].event_id);
		hit += e && (e->signaled || e->age != age0[i]);
	}
	if (!(all ? hit == n : hit > 0))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (e && e->auto_reset)
			e->signaled = 0;
	}
	return 1;
}

static void arrive(const struct kfd_event_data *d, uint64_t *age0, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (!e)
			continue;
		e->waiters++;
		uint64_t named = e->type == KFD_IOC_EVENT_SIGNAL ? named_age(&d[i]) : 0;
		age0[i] = named ? named : e->age;
	}
}

/* A completed wait tells each waiter that named an age the current one,
 * and each waiter of a memory event it saw set the fault (the driver's
 * copy_signaled_event_data). */
static void leave(struct kfd_event_data *d, const uint64_t *age0, uint32_t n, int ok)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (!e)
			continue;
		e->waiters--;
		if (ok && e->type == KFD_IOC_EVENT_SIGNAL && named_age(&d[i]))
			memcpy(&d[i], &e->age, sizeof(e->age));
		if (ok && e->type == KFD_IOC_EVENT_MEMORY && (e->signaled || e->age != age0[i]))
			d[i].memory_exception_data = e->fault;
	}
}

static struct timespec deadline(uint32_t ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	uint64_t ns = (uint64_t)t.tv_nsec + (uint64_t)ms * 1000000u;
	t.tv_sec += (time_t)(ns / 1000000000u);
	t.tv_nsec = (long)(ns % 1000000000u);
	return t;
}

int vg_event_wait(void *args)
{
	struct kfd_ioctl_wait_events_args *a = args;
	struct kfd_event_data *d = (void *)(uintptr_t)a->events_ptr;
	uint64_t age0[VG_WAIT_MAX];
	if ((!d && a->num_events) || a->num_events > VG_WAIT_MAX)
		return d ? -EINVAL : -EFAULT;
	pthread_once(&once, init_cond);
	/* The runtime is waiting for the device: serve the queues now. */
	vg_queue_poke();
	struct timespec until = deadline(a->timeout);
	vg_log("wait on %u events (first %u) for %u ms", a->num_events,
	       a->num_events ? d[0].event_id : 0, a->timeout);
	int rc = 0, ok;
	pthread_mutex_lock(&lock);
	arrive(d, age0, a->num_events);
	while (!(ok = ready(d, age0, a->num_events, a->wait_for_all)) &&
	       rc != ETIMEDOUT && a->timeout)
		rc = a->timeout == 0xffffffffu ? pthread_cond_wait(&cond, &lock)
					       : pthread_cond_timedwait(&cond, &lock, &until);
	leave(d, age0, a->num_events, ok);
	pthread_mutex_unlock(&lock);
	a->wait_result = ok ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
	return 0;
}

/* Fork: the child's events start afresh, and so does its condition
 * variable (a waiter of the parent's is no waiter of the child's). */
void vg_event_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		memset(evs, 0, sizeof(evs));
		init_cond();
	}
	pthread_mutex_unlock(&lock);
}
